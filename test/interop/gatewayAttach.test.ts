import { strict as assert } from 'node:assert';
import { statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { findEditor, openEditorSession } from '../../client/src/kernel/gateway/local/attach';
import type { EditorEndpoint } from '../../client/src/kernel/gateway/local/editorEndpoint';
import { editorOnSocket, type EditorOnSocket } from './support/editorOnSocket';
import { cliPath } from './support/gatewayProcess';
import { refusalResult } from './support/refusals';
import { fixtureServer, node, type TestKernel } from './support/kernelHarness';

/** A plain MCP server whose `echo` the config calls dangerous: every call needs an approval. */
const CONFIG = `[[servers]]
id = "plain"
command = ${node}
args = [${fixtureServer('params-echo.js')}]
[servers.tools.echo]
risk_level = "dangerous"
`;

/**
 * "The editor": a kernel in this process with a scripted operator, serving attached clients on its
 * local socket as VS Code does (client/src/vscode/gateway/editorGateway.ts).
 */
describe('mgp serve attached to the editor open on the folder', function () {
  this.timeout(60000);
  let onSocket: EditorOnSocket;
  let editor: TestKernel;
  let endpoint: EditorEndpoint;
  let env: Record<string, string>;

  before(async () => {
    onSocket = await editorOnSocket(CONFIG);
    ({ editor, endpoint, env } = onSocket);
  });
  after(() => onSocket.close());

  async function serve(args: string[], name = 'Attach Test') {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliPath, 'serve', '--cwd', editor.dir, ...args],
      env,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(transport);
    return { client, stderr: () => stderr };
  }

  it('keeps its socket and its token to this user', () => {
    const socket = statSync(endpoint.socket);
    assert.equal(socket.mode & 0o777, 0o600);
    assert.equal(statSync(dirname(endpoint.socket)).mode & 0o777, 0o700);
    assert.equal(statSync(endpoint.descriptorFile).mode & 0o777, 0o600);
  });

  it("asks the editor's operator to approve, and records the call in the editor's log", async () => {
    editor.operator.toolAnswers = ['once'];
    const asked = editor.operator.count('tool');
    const { client, stderr } = await serve([]);
    try {
      assert.match(stderr(), /attached to the editor's kernel/);
      const result = await client.callTool({ name: 'echo', arguments: { text: 'attached' } });
      assert.notEqual(result.isError, true, JSON.stringify(result));
      assert.match(JSON.stringify(result.content), /attached/);
      assert.equal(editor.operator.count('tool'), asked + 1);
    } finally {
      await client.close();
    }
    const executed = (await editor.ofType('TOOL_EXECUTED')).filter(
      (r) => r.target.tool_name === 'echo',
    );
    assert.equal(executed.length, 1);
    assert.deepEqual(executed[0].actor, { type: 'agent', id: 'agent.gateway.attach-test' });
  });

  it('refuses the call when the editor denies it (MGP 1000)', async () => {
    editor.operator.toolAnswers = ['deny'];
    const { client } = await serve([]);
    try {
      const refused = await refusalResult(
        client.callTool({ name: 'echo', arguments: { text: 'no' } }),
      );
      assert.equal(refused.code, 1000);
      assert.match(refused.reason, /approval/);
    } finally {
      await client.close();
    }
  });

  it('refuses a local client without the token', async () => {
    const descriptor = await findEditor(dirname(endpoint.descriptorFile));
    assert.ok(descriptor);
    await assert.rejects(
      openEditorSession({ ...descriptor, token: 'not-the-token' }, { expose: 'meta' }),
      /refused/,
    );
  });

  it('serves a kernel of its own with --standalone, asking nobody in the editor', async () => {
    const asked = editor.operator.count('tool');
    const { client, stderr } = await serve(['--standalone']);
    try {
      assert.doesNotMatch(stderr(), /attached/);
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('mgp_tools_discover'), names.join(', '));
      await refusalResult(client.callTool({ name: 'plain.echo', arguments: { text: 'x' } }));
      assert.equal(editor.operator.count('tool'), asked);
    } finally {
      await client.close();
    }
  });

  it('serves a kernel of its own when the editor left a stale socket behind', async () => {
    const file = endpoint.descriptorFile;
    const descriptor = await findEditor(dirname(file));
    assert.ok(descriptor);
    writeFileSync(file, JSON.stringify({ ...descriptor, socket: join(editor.dir, 'gone.sock') }));
    try {
      const { client, stderr } = await serve([]);
      try {
        assert.match(stderr(), /the editor's kernel did not answer .*serving a kernel of its own/);
        assert.ok((await client.listTools()).tools.length > 0);
      } finally {
        await client.close();
      }
    } finally {
      writeFileSync(file, JSON.stringify(descriptor), { mode: 0o600 });
    }
  });
});
