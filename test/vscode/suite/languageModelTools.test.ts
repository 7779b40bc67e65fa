import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { MgpKernelApi } from '../../../client/src/vscode/extension';
import { waitForEvent } from './waitFor';

// MGP Kernel's language-model tools as any VS Code agent reaches them: listed in vscode.lm.tools and
// run with vscode.lm.invokeTool, through the kernel's pipeline as agent.copilot. VS Code shows the
// kernel's own approval in its tool confirmation; while extension tests run, VS Code confirms such
// dialogs by itself (its DialogService skips dialogs in tests), so these tests prove the way from a
// confirmation to the kernel's recorded answer, and the UI scenario of the chat view shows the
// confirmation itself.

const EXTENSION_ID = 'mgp-kernel.mgp-kernel';

function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the example workspace is open');
  return folder.uri.fsPath;
}

async function api(): Promise<MgpKernelApi> {
  const extension = vscode.extensions.getExtension<MgpKernelApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is installed`);
  const kernel = await extension.activate();
  await kernel.settled();
  return kernel;
}

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content
    .filter(
      (part): part is vscode.LanguageModelTextPart => part instanceof vscode.LanguageModelTextPart,
    )
    .map((part) => part.value)
    .join('\n');
}

const invoke = (name: string, input: object) =>
  vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });

describe('language-model tools (vscode.lm)', () => {
  it('are listed in vscode.lm.tools with their descriptions and input schemas', async () => {
    await api();
    const ours = vscode.lm.tools.filter((tool) => tool.name.startsWith('mgp_'));
    assert.deepEqual(ours.map((tool) => tool.name).sort(), [
      'mgp_call',
      'mgp_discover',
      'mgp_get_prompt',
      'mgp_read_resource',
      'mgp_session',
    ]);
    const call = ours.find((tool) => tool.name === 'mgp_call')!;
    assert.match(call.description, /checks every call/);
    assert.deepEqual((call.inputSchema as { required: string[] }).required, ['server', 'tool']);
    assert.ok(call.tags.includes('mgp'));
  });

  it('discovers tools by what is needed, loading them into the session of agent.copilot', async () => {
    const kernel = await api();
    const answer = JSON.parse(textOf(await invoke('mgp_discover', { query: 'delete notes' })));
    const first = answer.tools[0];
    assert.equal(`${first.server}.${first.tool}`, 'example.delete_notes');
    assert.equal(first.risk_level, 'dangerous');
    assert.ok(first.inputSchema.properties.title);
    const session = JSON.parse(textOf(await invoke('mgp_session', { action: 'list' })));
    assert.ok(
      session.cached.some((t: { server: string; tool: string }) => t.tool === 'delete_notes'),
      JSON.stringify(session),
    );
    await kernel.auditTrail.flush();
    const records = await kernel.auditTrail.log.tail(20, { types: ['TOOL_EXECUTED'] });
    const discovery = records.filter((r) => r.target.tool_name === 'mgp.tools.discover').at(-1);
    assert.deepEqual(discovery?.actor, { type: 'agent', id: 'agent.copilot' });
  });

  it("calls a tool that needs approval after the approval shown in VS Code's confirmation, recorded on disk under agent.copilot", async () => {
    const kernel = await api();
    // The host suite cannot answer the example server's permission requests, so its dangerous tools
    // are refused; moderate tools are made to need approval instead, and server-everything's
    // toggle-simulated-logging (moderate) is called, twice (on, then off again).
    const config = join(workspaceRoot(), 'mgp.toml');
    const before = readFileSync(config, 'utf8');
    const applied = waitForEvent(
      kernel.onDidChangeConfig,
      (c) => c.kernel.moderateToolsRequireApproval,
      'moderate tools to need approval',
    );
    writeFileSync(config, `${before}\n[kernel]\nmoderate_tools_require_approval = true\n`);
    await applied;
    await kernel.settled();
    try {
      for (const round of [1, 2]) {
        const text = textOf(
          await invoke('mgp_call', { server: 'everything', tool: 'toggle-simulated-logging' }),
        );
        assert.match(
          text,
          /^everything\.toggle-simulated-logging answered \(trace [0-9a-f-]{36}\):/,
          `round ${round}: ${text}`,
        );
        const traceId = /trace ([0-9a-f-]{36})/.exec(text)![1];
        await kernel.auditTrail.flush();
        // Read back from the log's files on disk.
        const records = await kernel.auditTrail.log.tail(20, { traceId });
        assert.deepEqual(
          records.map((r) => [r.event_type, r.actor.id, r.details.scope ?? r.details.risk_level]),
          [
            ['PERMISSION_GRANTED', 'agent.vscode', 'once'],
            ['TOOL_EXECUTED', 'agent.copilot', 'moderate'],
          ],
        );
        assert.equal(records[0].details.requested_by, 'agent.copilot');
      }
    } finally {
      const restored = waitForEvent(
        kernel.onDidChangeConfig,
        (c) => !c.kernel.moderateToolsRequireApproval,
        'the config as it was',
      );
      writeFileSync(config, before);
      await restored;
    }
  });

  it('answers a call the kernel refuses with the reason, as the model can read it', async () => {
    await api();
    const refusal = JSON.parse(
      textOf(await invoke('mgp_call', { server: 'mgp', tool: 'mgp.access.grant', arguments: {} })),
    );
    assert.equal(refusal.status, 'rejected');
    assert.equal(refusal.code, 1001);
    assert.match(refusal.violations[0], /agent\.copilot may not use mgp\.access\.grant/);
    const invalid = JSON.parse(
      textOf(await invoke('mgp_call', { server: 'example', tool: 'add', arguments: { a: 'x' } })),
    );
    assert.equal(invalid.code, 4000);
    assert.ok(invalid.hints.expected_schema.properties.b);
  });

  it('reads a resource and gets a prompt as agent.copilot, audited', async () => {
    const kernel = await api();
    const about = textOf(
      await invoke('mgp_read_resource', { server: 'example', uri: 'mgp-example://about' }),
    );
    assert.match(about, /^example · mgp-example:\/\/about:\n/);
    const prompt = textOf(
      await invoke('mgp_get_prompt', { server: 'example', name: 'summarize-notes' }),
    );
    assert.match(prompt, /^user: /);
    await kernel.auditTrail.flush();
    const records = await kernel.auditTrail.log.tail(50, {
      types: ['dev.mgp-kernel.resource_read', 'dev.mgp-kernel.prompt_get'],
    });
    assert.deepEqual(
      records.slice(-2).map((r) => [r.event_type, r.actor.id, r.result]),
      [
        ['dev.mgp-kernel.resource_read', 'agent.copilot', 'SUCCESS'],
        ['dev.mgp-kernel.prompt_get', 'agent.copilot', 'SUCCESS'],
      ],
    );
  });
});
