import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as vscode from 'vscode';
import type { MgpKernelApi } from '../../../client/src/vscode/extension';

const EXTENSION_ID = 'mgp-kernel.mgp-kernel';

describe('mgp serve attached to this window (the editor gateway)', () => {
  it("relays an MCP client to this window's kernel: the call is in this window's audit log", async () => {
    const extension = vscode.extensions.getExtension<MgpKernelApi>(EXTENSION_ID);
    assert.ok(extension);
    const api = await extension.activate();
    await api.settled();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(folder);
    // What VS Code's MCP client runs for "MGP Kernel" (editorGateway.ts), from the installed extension.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        join(extension.extensionPath, 'dist/cli.js'),
        'serve',
        '--cwd',
        folder,
        '--expose',
        'all',
      ],
      env: { ...(process.env as Record<string, string>), ELECTRON_RUN_AS_NODE: '1' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'Host Suite', version: '1.0.0' });
    await client.connect(transport);
    try {
      assert.match(stderr, /attached to the editor's kernel/);
      const names = (await client.listTools()).tools.map((t) => t.name);
      // Several servers: each tool named by its server, in names a model API accepts.
      assert.ok(names.includes('example__add'), names.join(', '));
      const result = await client.callTool({ name: 'example__add', arguments: { a: 2, b: 40 } });
      assert.deepEqual(result.structuredContent, { sum: 42 });
    } finally {
      await client.close();
    }
    await api.auditTrail.flush();
    const records = await api.auditTrail.log.tail(20);
    const call = records.find(
      (r) => r.event_type === 'TOOL_EXECUTED' && r.actor.id === 'agent.gateway.host-suite',
    );
    assert.ok(call, JSON.stringify(records.map((r) => [r.event_type, r.actor.id])));
    assert.equal(call.target.tool_name, 'add');
  });
});
