/**
 * What config files may and may not do to the kernel's security, with real servers as child
 * processes: only the user and the user's own config are trusted; a workspace file may tighten, and
 * nothing a file says may erase the audit trail's words.
 */
import { strict as assert } from 'node:assert';
import { exampleServer, node, startKernel, TestKernel } from './support/kernelHarness';

const example = (extra = '') =>
  `[[servers]]\nid = "example"\ncommand = ${node}\nargs = [${exampleServer}]\n${extra}`;

describe('trust boundaries of config (real servers)', function () {
  let t: TestKernel | undefined;
  afterEach(async () => {
    await t?.dispose();
    t = undefined;
  });

  it("redacts secrets from the audit trail, but not a server's plain env words", async () => {
    t = await startKernel(
      example(`[servers.env]\nMODE = "safe"\nAPI_TOKEN = "\${secret:TOKEN}"\n`),
      { secrets: { TOKEN: 'tok-1234567890-secret' } },
    );
    await t.kernel.call({ serverId: 'example', toolName: 'echo', args: { text: 'hi' } });
    const [executed] = await t.ofType('TOOL_EXECUTED');
    assert.equal(executed.details.risk_level, 'safe', 'the env value "safe" erased nothing');
    await t.kernel.call({
      serverId: 'example',
      toolName: 'echo',
      args: { text: 'tok-1234567890-secret' },
    });
    await t.trail.record({
      event_type: 'dev.test.note',
      actor: { type: 'kernel', id: 'test' },
      target: {},
      result: 'NOTE',
      details: { seen: 'value tok-1234567890-secret here' },
    });
    const [note] = await t.ofType('dev.test.note');
    assert.equal(note.details.seen, 'value [REDACTED] here', 'the secret is still hidden');
  });

  it("lets a workspace [kernel] table tighten the user's policy, never loosen it", async () => {
    // The user's own server, under the user's interactive policy; the repository says auto_approve.
    t = await startKernel(example(), {
      workspaceToml:
        '[kernel]\napproval_policy = "auto_approve"\ntool_creation = true\n' +
        '[[kernel.access_grants]]\nagent_id = "*"\nserver_id = "mgp"\npermission = "allow"\n',
    });
    assert.equal(t.config.kernel.approvalPolicy, 'interactive');
    assert.equal(t.config.kernel.toolCreation, false);
    assert.deepEqual(t.config.kernel.accessGrants, []);
    await assert.rejects(
      t.kernel.call({ serverId: 'example', toolName: 'delete_notes', args: {} }),
      /denied/i,
    );
    assert.equal(t.operator.count('tool'), 1, 'the operator was asked, and said no');
    const warnings = t.config.problems.filter((p) => p.severity === 'warning');
    assert.deepEqual(
      warnings.map((p) => `${p.file.endsWith('workspace/mgp.toml')}:${p.line}:${p.key}`),
      [
        'true:2:kernel.approval_policy',
        'true:4:kernel.access_grants',
        'true:3:kernel.tool_creation',
      ],
    );
    await t.dispose();

    // The user's deny_all holds against the repository; a repository's deny_all holds over the user's.
    t = await startKernel(`[kernel]\napproval_policy = "deny_all"\n${example()}`, {
      workspaceToml: '[kernel]\napproval_policy = "auto_approve"\n',
    });
    assert.equal(t.config.kernel.approvalPolicy, 'deny_all');
    await t.dispose();
    t = await startKernel(example(), {
      workspaceToml: '[kernel]\napproval_policy = "deny_all"\ndefault_access_policy = "opt-in"\n',
    });
    assert.equal(t.config.kernel.approvalPolicy, 'deny_all');
    assert.equal(t.config.kernel.defaultAccessPolicy, 'opt-in');
    await assert.rejects(
      t.kernel.call({ serverId: 'example', toolName: 'delete_notes', args: {} }),
    );
    assert.equal(t.operator.count('tool'), 0, 'deny_all asks nobody');
  });

  it('never starts a server that may not start, whether asked to start or to restart it', async () => {
    const refusal = 'the workspace is not trusted (Restricted Mode)';
    t = await startKernel(example(), { mayStart: () => refusal });
    const server = t.kernel.manager.get('example');
    assert.notEqual(server.state, 'connected');
    await assert.rejects(t.kernel.manager.restart('example'), (e: Error) =>
      e.message.includes(refusal),
    );
    await assert.rejects(t.kernel.manager.start('example'), (e: Error) =>
      e.message.includes(refusal),
    );
    assert.notEqual(server.state, 'connected', 'restart did not start it');
    assert.equal(server.liveConnection, undefined);
  });
});
