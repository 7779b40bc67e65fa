import { strict as assert } from 'node:assert';
import { KernelError } from '../../client/src/kernel/domain/errors';
import type { ToolApprovalRequest } from '../../client/src/kernel/host/interaction';
import { EDITOR_OPERATOR } from '../../client/src/kernel/domain/caller';
import {
  configOf,
  everythingServer,
  exampleServer,
  fixtureServer,
  node,
  ScriptedOperator,
  startKernel,
  TestKernel,
  textOf,
} from './support/kernelHarness';

const example = (extra = '') =>
  `[[servers]]\nid = "example"\ncommand = ${node}\nargs = [${exampleServer}]\n${extra}`;
const code = (error: unknown) => (error as KernelError).wireCode;

describe('kernel security with real servers (MGP §2–§7, §14)', function () {
  let t: TestKernel;
  afterEach(async () => t?.dispose());

  it('negotiates MGP with the example server and leaves a plain MCP server plain', async () => {
    t = await startKernel(
      `${example()}\n[[servers]]\nid = "everything"\ncommand = ${node}\nargs = [${everythingServer}, "stdio"]\n`,
    );
    const mgp = t.kernel.mgp.of('example');
    assert.equal(mgp?.version, '0.5.2');
    for (const extension of [
      'security',
      'audit',
      'streaming',
      'bidirectional',
      'lifecycle',
      'code_safety',
      'error_handling',
    ])
      assert.ok(mgp?.extensions.has(extension), extension);
    assert.equal(
      mgp?.extensions.has('tool_discovery'),
      false,
      'intersection: the server does not offer tool_discovery',
    );
    assert.equal(t.kernel.mgp.of('everything'), undefined);
    assert.match(
      textOf(
        (
          await t.kernel.call({
            serverId: 'everything',
            toolName: 'echo',
            args: { message: 'plain' },
          })
        ).result,
      ),
      /plain/,
    );
  });

  it('tells a server that negotiated lifecycle of its transitions: connected, then draining before it is closed (§11.5)', async () => {
    const sent: string[] = [];
    t = await startKernel(example(), {
      trace: () => true,
      configure: (kernel) =>
        kernel.manager.bus.on('trace', (line) => {
          const message = line.message as { method?: string; params?: { new_state?: string } };
          if (line.direction === 'send' && message.method === 'notifications/mgp.lifecycle')
            sent.push(String(message.params?.new_state));
        }),
    });
    await t.kernel.manager.stop('example');
    assert.deepEqual(sent, ['connected', 'draining']);
  });

  it('logs a server that answers mgp unasked as a protocol violation and treats it as plain MCP', async () => {
    const logs: string[] = [];
    t = await startKernel(
      `[[servers]]\nid = "rude"\ncommand = ${node}\nargs = [${exampleServer}, "--mgp-unasked"]\n[servers.mgp]\nnegotiate = false\n`,
      {
        configure: (kernel) => kernel.manager.bus.on('log', (line) => logs.push(line.message)),
      },
    );
    assert.equal(t.kernel.mgp.of('rude'), undefined);
    assert.ok(
      logs.some((line) => /protocol violation/.test(line)),
      logs.join('\n'),
    );
  });

  it("asks for the server's permissions, delivers the grant, persists it, and audits each decision (§3)", async () => {
    t = await startKernel(example());
    const asked = t.operator.asked.filter((a) => a.kind === 'permissions');
    assert.equal(asked.length, 1);
    const names = (
      asked[0].detail as { permissions: { name: string; risk?: string }[] }
    ).permissions.map((p) => `${p.name}:${p.risk}`);
    assert.ok(names.includes('shell.execute:dangerous'), names.join(', '));
    assert.equal(
      (await t.ofType('PERMISSION_GRANTED')).filter((r) => r.details.kind === 'server_permission')
        .length,
      names.length,
    );
    // Restart: the decisions are on disk, nobody is asked again.
    const dir = t.dir;
    await t.stop();
    t = await startKernel(example(), { dir });
    assert.equal(t.operator.count('permissions'), 0);
  });

  it('blocks a tool whose permission the operator denied, before it reaches the server', async () => {
    const operator = new ScriptedOperator();
    operator.permissionAnswer = 'denied';
    t = await startKernel(example(`approved_tools = ["delete_notes"]\n`), { operator });
    await assert.rejects(
      t.kernel.call({ serverId: 'example', toolName: 'delete_notes', args: {} }),
      (e) => code(e) === 1000 && /memory.write/.test(String(e)),
    );
    assert.equal((await t.ofType('TOOL_BLOCKED')).at(-1)?.details.reason, 'permission_denied');
  });

  it('asks nobody about a call a denied permission refuses anyway (permissions before approval)', async () => {
    const operator = new ScriptedOperator();
    operator.permissionAnswer = 'denied';
    operator.toolAnswers = ['once'];
    t = await startKernel(example(), { operator });
    await assert.rejects(
      t.kernel.call({ serverId: 'example', toolName: 'delete_notes', args: {} }),
      (e) => code(e) === 1000 && /memory.write/.test(String(e)),
    );
    assert.equal(operator.count('tool'), 0, 'no approval was asked');
    assert.equal((await t.ofType('TOOL_BLOCKED')).at(-1)?.details.reason, 'permission_denied');
  });

  it('asks nobody about a call the validators block anyway (validators before approval)', async () => {
    t = await startKernel(example());
    t.operator.toolAnswers = ['once'];
    await assert.rejects(
      t.kernel.call({
        serverId: 'example',
        toolName: 'run_command',
        args: { command: 'rm -rf /' },
      }),
      (e) => code(e) === 1010,
    );
    assert.equal(t.operator.count('tool'), 0, 'no approval was asked');
    assert.equal((await t.ofType('TOOL_BLOCKED')).at(-1)?.details.reason, 'validation_failed');
  });

  it('a denied permission can be approved or reset, a granted one revoked, each delivered to the running server (§3.6)', async () => {
    const operator = new ScriptedOperator();
    operator.permissionAnswer = 'denied';
    const grants: Record<string, string>[] = [];
    t = await startKernel(example(`approved_tools = ["delete_notes"]\n`), {
      operator,
      trace: () => true,
      configure: (kernel) =>
        kernel.manager.bus.on('trace', (line) => {
          const message = line.message as { method?: string; params?: { grants?: never } };
          if (line.direction === 'send' && message.method === 'mgp/permission/grant')
            grants.push(message.params?.grants ?? {});
        }),
    });
    const deleteNotes = () =>
      t.kernel.call({ serverId: 'example', toolName: 'delete_notes', args: {} });
    await assert.rejects(deleteNotes(), (e) => code(e) === 1000);
    const server = t.kernel.manager.get('example');

    // Approve: the server hears of it and the tool runs, with no restart.
    await t.kernel.permissions.approve('example', 'memory.write');
    assert.deepEqual(grants.at(-1), { 'memory.write': 'approved' });
    assert.equal(t.kernel.permissions.state('example', 'memory.write'), 'approved');
    await deleteNotes();
    assert.equal(t.kernel.manager.get('example'), server);
    assert.equal(server.state, 'connected');

    // Revoke: a kept denial, delivered; the tool is blocked again.
    assert.equal(await t.kernel.permissions.revoke('example', 'memory.write'), true);
    assert.deepEqual(grants.at(-1), { 'memory.write': 'denied' });
    assert.equal(t.kernel.permissions.state('example', 'memory.write'), 'denied');
    await assert.rejects(deleteNotes(), (e) => code(e) === 1000);
    assert.equal(
      await t.kernel.permissions.revoke('example', 'memory.write'),
      false,
      'a denial is not revoked',
    );

    // Reset: the decision is forgotten and the server goes through §3.4 again: await, ask, grant.
    const asked = operator.count('permissions');
    operator.permissionAnswer = 'approved';
    assert.equal(await t.kernel.permissions.reset('example', 'memory.write'), true);
    assert.equal(operator.count('permissions'), asked + 1);
    const question = operator.asked.at(-1)?.detail as { permissions: { name: string }[] };
    assert.deepEqual(
      question.permissions.map((p) => p.name),
      ['memory.write'],
    );
    assert.deepEqual(grants.at(-1), { 'memory.write': 'approved' });
    await deleteNotes();
    const operatorRecords = (await t.records()).filter(
      (r) => r.actor.type === 'operator' && r.details.permission === 'memory.write',
    );
    assert.deepEqual(
      operatorRecords.map((r) => `${r.event_type}:${r.result}`),
      [
        'PERMISSION_DENIED:DENIED',
        'PERMISSION_GRANTED:GRANTED',
        'PERMISSION_REVOKED:REVOKED',
        'PERMISSION_REVOKED:RESET',
        'PERMISSION_GRANTED:GRANTED',
      ],
    );
  });

  it('asks before a dangerous tool with what the operator needs to decide, and remembers "for this session"', async () => {
    t = await startKernel(example('approved_tools = ["write_note"]\n'));
    t.operator.toolAnswers = ['session'];
    await t.kernel.call({
      serverId: 'example',
      toolName: 'write_note',
      args: { title: 'a', body: 'b' },
    });
    const first = await t.kernel.call({
      serverId: 'example',
      toolName: 'delete_notes',
      args: { title: 'a' },
    });
    assert.match(textOf(first.result), /Deleted 1 note/);
    const request = t.operator.asked.find((a) => a.kind === 'tool')?.detail as ToolApprovalRequest;
    assert.equal(request.toolName, 'delete_notes');
    assert.deepEqual(request.args, { title: 'a' });
    assert.equal(request.security.risk_level, 'dangerous');
    assert.ok(request.description, "the server's description is shown (as untrusted)");
    await t.kernel.call({ serverId: 'example', toolName: 'delete_notes', args: {} });
    assert.equal(t.operator.count('tool'), 1, 'the session grant covers the second call');
    const grants = (await t.ofType('PERMISSION_GRANTED')).filter(
      (r) => r.details.kind === 'tool_call',
    );
    assert.equal(grants[0].details.scope, 'session');
  });

  it("a call's duration leaves out the time the operator took to answer the approval", async () => {
    t = await startKernel(example());
    const thinkingMs = 1500;
    t.operator.toolAnswers = ['once'];
    t.operator.thinking = () => new Promise((resolve) => setTimeout(resolve, thinkingMs));
    const before = performance.now();
    const outcome = await t.kernel.call({
      serverId: 'example',
      toolName: 'delete_notes',
      args: {},
    });
    const wall = performance.now() - before;
    assert.equal(t.operator.count('tool'), 1);
    assert.ok(
      outcome.durationMs <= wall - thinkingMs,
      `duration ${outcome.durationMs} ms, of ${wall} ms in all with ${thinkingMs} ms thinking`,
    );
    const executed = (await t.ofType('TOOL_EXECUTED')).at(-1);
    assert.ok(Number(executed?.details.approval_wait_ms) >= thinkingMs - 1);
    assert.ok(Number(executed?.details.duration_ms) <= Math.round(wall - thinkingMs) + 1);
  });

  it('a denied call never runs: 1000 PERMISSION_DENIED, PERMISSION_DENIED and TOOL_BLOCKED in the audit trail', async () => {
    t = await startKernel(example());
    t.operator.toolAnswers = ['once', 'deny'];
    await t.kernel.call({
      serverId: 'example',
      toolName: 'write_note',
      args: { title: 'keep', body: 'me' },
    });
    await assert.rejects(
      t.kernel.call({ serverId: 'example', toolName: 'delete_notes', args: {} }),
      (e) => code(e) === 1000,
    );
    assert.match(
      textOf(
        (await t.kernel.call({ serverId: 'example', toolName: 'list_notes', args: {} })).result,
      ),
      /keep: me/,
    );
    assert.equal((await t.ofType('PERMISSION_DENIED')).at(-1)?.target.tool_name, 'delete_notes');
    assert.equal((await t.ofType('TOOL_BLOCKED')).at(-1)?.details.reason, 'approval_denied');
  });

  it('"always allow" is kept on disk across restarts and can be revoked', async () => {
    t = await startKernel(example());
    t.operator.toolAnswers = ['always'];
    await t.kernel.call({ serverId: 'example', toolName: 'delete_notes', args: {} });
    const dir = t.dir;
    await t.stop();
    t = await startKernel(example(), { dir });
    await t.kernel.call({ serverId: 'example', toolName: 'delete_notes', args: {} });
    assert.equal(t.operator.count('tool'), 0);
    assert.equal(
      await t.kernel.approvals.revoke({
        serverId: 'example',
        toolName: 'delete_notes',
        scope: 'always',
      }),
      true,
    );
    await assert.rejects(
      t.kernel.call({ serverId: 'example', toolName: 'delete_notes', args: {} }),
      (e) => code(e) === 1000,
    );
    assert.equal((await t.ofType('PERMISSION_REVOKED')).length, 1);
  });

  it('holds a lying server to the config: "safe" peek_notes that deletes is refused before anyone is asked, and does nothing', async () => {
    t = await startKernel(
      example(
        `approved_tools = ["write_note"]\n[servers.tools.peek_notes]\nrisk_level = "dangerous"\nside_effects = ["database"]\n`,
      ),
    );
    await t.kernel.call({
      serverId: 'example',
      toolName: 'write_note',
      args: { title: 'precious', body: 'data' },
    });
    const server = t.kernel.manager.get('example');
    const security = t.kernel.securityOf(
      server,
      server.tools.find((tool) => tool.name === 'peek_notes')!,
    );
    assert.deepEqual(
      [security.risk_level, security.sources.risk_level, security.serverClaim],
      ['dangerous', 'config', 'safe'],
    );
    t.operator.toolAnswers = ['once'];
    // It says it is read-only (validator "readonly"), yet config says it writes: the validator refuses it.
    await assert.rejects(
      t.kernel.call({ serverId: 'example', toolName: 'peek_notes', args: {} }),
      (e) => code(e) === 1010 && /side effects database/.test(String(e)),
    );
    assert.equal(
      t.operator.count('tool'),
      0,
      'nobody is asked about a call that is refused anyway',
    );
    assert.match(
      textOf(
        (await t.kernel.call({ serverId: 'example', toolName: 'list_notes', args: {} })).result,
      ),
      /precious/,
    );
  });

  it("a config edit of a tool's security applies to the running server at once, without a restart", async () => {
    t = await startKernel(example());
    const server = t.kernel.manager.get('example');
    const pid = server.liveConnection?.pid;
    const echo = () =>
      t.kernel.securityOf(
        t.kernel.manager.get('example'),
        t.kernel.manager.get('example').tools.find((tool) => tool.name === 'echo')!,
      );
    assert.equal(echo().risk_level, 'safe');
    await t.kernel.apply(
      configOf(t.dir, example('[servers.tools.echo]\nrisk_level = "dangerous"\n')),
    );
    assert.equal(t.kernel.manager.get('example'), server, 'the same server, not a replacement');
    assert.equal(server.liveConnection?.pid, pid, 'not restarted');
    assert.deepEqual([echo().risk_level, echo().sources.risk_level], ['dangerous', 'config']);
    await assert.rejects(
      t.kernel.call({ serverId: 'example', toolName: 'echo', args: { text: 'x' } }),
      (e) => code(e) === 1000,
      'now it needs approval',
    );
  });

  it('validators block a dangerous command before it is forwarded (1010, VALIDATION_FAILED, secrets redacted)', async () => {
    t = await startKernel(
      example(`approved_tools = ["run_command"]\n[servers.env]\nAPI_TOKEN = "\${secret:TOKEN}"\n`),
      { secrets: { TOKEN: 'tok-1234567890-secret' } },
    );
    const completed: string[] = [];
    t.kernel.events.onAny(
      (event) =>
        event.channel === 'tool.completed' &&
        completed.push(String((event.data as { tool?: string }).tool)),
    );
    await assert.rejects(
      t.kernel.call({
        serverId: 'example',
        toolName: 'run_command',
        args: { command: 'rm -rf /tmp/tok-1234567890-secret' },
      }),
      (e) => {
        const data = (e as KernelError).data as { _mgp: { category: string; retryable: boolean } };
        return (
          code(e) === 1010 && data._mgp.category === 'security' && data._mgp.retryable === false
        );
      },
    );
    const failed = await t.ofType('VALIDATION_FAILED');
    assert.equal(failed.length, 1);
    assert.ok(
      !JSON.stringify(await t.records()).includes('tok-1234567890-secret'),
      'the secret value never reaches the audit log',
    );
    assert.ok(!completed.includes('run_command'));
  });

  it('code safety rejects blocked imports with the §7.4 structure as a tool error, and a CODE_REJECTED event', async () => {
    t = await startKernel(example(`approved_tools = ["run_code"]\n`));
    const outcome = await t.kernel.call({
      serverId: 'example',
      toolName: 'run_code',
      args: { code: "const cp = require('child_process'); cp.execSync('id')" },
    });
    assert.equal(outcome.result.isError, true);
    const rejection = outcome.result.structuredContent as {
      status: string;
      violations: string[];
      hints: { blocked_imports?: string[] };
    };
    assert.equal(rejection.status, 'rejected');
    assert.ok(
      rejection.violations.some((v) => /child_process/.test(v)),
      rejection.violations.join('; '),
    );
    assert.ok(rejection.hints.blocked_imports?.includes('child_process'));
    assert.equal((await t.ofType('CODE_REJECTED')).length, 1);
    const fine = await t.kernel.call({
      serverId: 'example',
      toolName: 'run_code',
      args: { code: '1 + 2' },
    });
    assert.notEqual(fine.result.isError, true, textOf(fine.result));
  });

  it('access control: opt-in denies with 1001 until mgp.access.grant, which persists; revoke takes it back (§5)', async () => {
    t = await startKernel(`[kernel]\ndefault_access_policy = "opt-in"\n\n${example()}`);
    const agent = { agentId: 'agent.research', kind: 'agent' as const };
    await assert.rejects(
      t.kernel.call({ serverId: 'example', toolName: 'echo', args: { text: 'x' }, caller: agent }),
      (e) => code(e) === 1001,
    );
    const query = await t.kernel.call({
      serverId: 'mgp',
      toolName: 'mgp.access.query',
      args: { agent_id: 'agent.research', server_id: 'example', tool_name: 'echo' },
    });
    assert.deepEqual(query.result.structuredContent, {
      permission: 'deny',
      source: 'default_policy',
      granted_by: null,
      granted_at: null,
      expires_at: null,
    });
    await assert.rejects(
      t.kernel.call({
        serverId: 'mgp',
        toolName: 'mgp.access.grant',
        args: {
          entry_type: 'server_grant',
          agent_id: 'agent.research',
          server_id: 'example',
          permission: 'allow',
        },
        caller: agent,
      }),
      (e) => code(e) === 1001,
      'agents cannot grant themselves access',
    );
    await t.kernel.call({
      serverId: 'mgp',
      toolName: 'mgp.access.grant',
      args: {
        entry_type: 'server_grant',
        agent_id: 'agent.research',
        server_id: 'example',
        permission: 'allow',
        justification: 'research task',
      },
    });
    await t.kernel.call({
      serverId: 'mgp',
      toolName: 'mgp.access.grant',
      args: {
        entry_type: 'tool_grant',
        agent_id: 'agent.research',
        server_id: 'example',
        tool_name: 'add',
        permission: 'deny',
      },
    });
    assert.match(
      textOf(
        (
          await t.kernel.call({
            serverId: 'example',
            toolName: 'echo',
            args: { text: 'granted' },
            caller: agent,
          })
        ).result,
      ),
      /granted/,
    );
    await assert.rejects(
      t.kernel.call({ serverId: 'example', toolName: 'add', args: { a: 1, b: 2 }, caller: agent }),
      (e) => code(e) === 1001,
      'tool_grant outranks server_grant',
    );
    const dir = t.dir;
    await t.stop();
    t = await startKernel(`[kernel]\ndefault_access_policy = "opt-in"\n\n${example()}`, { dir });
    assert.equal(
      t.kernel.access.query('agent.research', 'example', 'echo').source,
      'server_grant',
      'the grant survived the restart',
    );
    await t.kernel.call({
      serverId: 'mgp',
      toolName: 'mgp.access.revoke',
      args: { entry_type: 'server_grant', agent_id: 'agent.research', server_id: 'example' },
    });
    await assert.rejects(
      t.kernel.call({ serverId: 'example', toolName: 'echo', args: { text: 'x' }, caller: agent }),
      (e) => code(e) === 1001,
    );
    assert.equal((await t.ofType('ACCESS_REVOKED')).length, 1);
  });

  it('expired grants no longer apply', async () => {
    t = await startKernel(`[kernel]\ndefault_access_policy = "opt-in"\n\n${example()}`);
    // An hour ahead, so that no machine is slow enough to see it expire before the first query.
    const expiry = Date.now() + 3_600_000;
    await t.kernel.access.grant(
      {
        entry_type: 'server_grant',
        agent_id: 'a',
        server_id: 'example',
        permission: 'allow',
        expires_at: new Date(expiry).toISOString(),
      },
      'test',
    );
    assert.equal(t.kernel.access.query('a', 'example').permission, 'allow');
    assert.equal(
      t.kernel.access.query('a', 'example', undefined, expiry + 1000).permission,
      'deny',
    );
  });

  it('retries a retryable MGP error per its recovery data, audits each retry, then succeeds (§14.6)', async () => {
    t = await startKernel(example());
    const outcome = await t.kernel.call({
      serverId: 'example',
      toolName: 'flaky',
      args: {
        key: 'k1',
        fail_times: 2,
        retry_strategy: 'fixed_delay',
        retry_after_ms: 30,
        max_retries: 3,
      },
    });
    assert.equal(outcome.attempts, 3);
    const retries = await t.ofType('dev.mgp-kernel.tool_retried');
    assert.deepEqual(
      retries.map((r) => [r.details.attempt, r.details.error_code]),
      [
        [1, 3000],
        [2, 3000],
      ],
    );
    assert.ok(retries.every((r) => r.trace_id === outcome.traceId));
  });

  it('never retries a non-retryable error, and falls back to fallback_tool once retries run out', async () => {
    t = await startKernel(example());
    await assert.rejects(
      t.kernel.call({ serverId: 'example', toolName: 'broken', args: {} }),
      (e) => (e as { code?: number }).code === 5000,
    );
    assert.equal((await t.ofType('dev.mgp-kernel.tool_retried')).length, 0);
    const outcome = await t.kernel.call({
      serverId: 'example',
      toolName: 'flaky',
      args: {
        key: 'k2',
        fail_times: 9,
        retry_strategy: 'immediate',
        max_retries: 1,
        fallback_tool: 'audit_received',
      },
    });
    assert.equal(outcome.toolName, 'audit_received', 'the fallback answered');
    const executed = await t.ofType('TOOL_EXECUTED');
    assert.ok(
      executed.some(
        (r) => r.target.tool_name === 'flaky' && r.details.fallback_tool === 'audit_received',
      ),
      'the failure names the fallback',
    );
    assert.ok(
      executed.some(
        (r) => r.target.tool_name === 'audit_received' && r.trace_id === outcome.traceId,
      ),
      'the fallback ran through the pipeline in the same trace',
    );
  });

  it('forwards audit events to servers that negotiated audit, and the chain verifies (§6)', async () => {
    t = await startKernel(example());
    const outcome = await t.kernel.call({
      serverId: 'example',
      toolName: 'echo',
      args: { text: 'audit me' },
    });
    await t.trail.flush();
    const received = await t.kernel.call({
      serverId: 'example',
      toolName: 'audit_received',
      args: { last: 50 },
    });
    const body = received.result.structuredContent as {
      count: number;
      events: { event_type: string; trace_id: string }[];
    };
    assert.ok(
      body.events.some((e) => e.event_type === 'TOOL_EXECUTED' && e.trace_id === outcome.traceId),
      JSON.stringify(body).slice(0, 400),
    );
    const executed = (await t.ofType('TOOL_EXECUTED')).find((r) => r.trace_id === outcome.traceId);
    assert.deepEqual(
      [executed?.actor, executed?.details.risk_level],
      [{ type: 'operator', id: EDITOR_OPERATOR.agentId }, 'safe'],
    );
    assert.equal((await t.trail.log.verify()).ok, true);
    assert.ok((await t.ofType('SERVER_CONNECTED')).length >= 1);
  });

  it('checks arguments against the input schema before sending (4000), and unknown tools (4001)', async () => {
    t = await startKernel(example());
    await assert.rejects(
      t.kernel.call({ serverId: 'example', toolName: 'add', args: { a: 'one', b: 2 } }),
      (e) => code(e) === 4000 && /\/a: must be a number/.test(String(e)),
    );
    await assert.rejects(
      t.kernel.call({ serverId: 'example', toolName: 'teleport', args: {} }),
      (e) => code(e) === 4001,
    );
  });

  describe("a server's code_safety declaration only adds restrictions (MGP §7.3)", () => {
    const declaring = (security: object, extra = '') =>
      `[[servers]]\nid = "coder"\ncommand = ${node}\nargs = [${fixtureServer('declared-security.js')}, "--security", ${JSON.stringify(JSON.stringify(security))}]\napproved_tools = ["run_code"]\n${extra}`;
    const run = (code: string) =>
      t.kernel.call({ serverId: 'coder', toolName: 'run_code', args: { code } });
    const SPAWN = "require('child_process').execSync('id')";
    /** Code safety answers with a tool error carrying 1011 and the §7.4 rejection, unforwarded. */
    const refused = async (source: string) => {
      const { result } = await run(source);
      assert.equal((result._mgp as { code?: number } | undefined)?.code, 1011, source);
      assert.doesNotMatch(textOf(result), /^ran$/);
    };

    it('level "unrestricted" does not switch the check off: the kernel keeps at least standard', async () => {
      t = await startKernel(
        declaring({
          risk_level: 'moderate',
          validator: 'code_safety',
          code_safety: { level: 'unrestricted', language: 'javascript' },
        }),
      );
      await refused(SPAWN);
      assert.match(textOf((await run('return 1 + 1')).result), /ran/);
    });

    it('declared blocklists are added to the defaults, never replace them; an allowlist only narrows', async () => {
      t = await startKernel(
        declaring({
          risk_level: 'moderate',
          validator: 'code_safety',
          code_safety: {
            level: 'strict',
            language: 'python',
            blocked_imports: ['json'],
            blocked_patterns: ['print('],
            allowed_imports: ['subprocess', 'os', 'json', 'math'],
          },
        }),
      );
      await refused('import subprocess\nsubprocess.run(["id"])');
      await refused('import os\nos.system("id")');
      await refused('import json');
      await refused('x = eval("1")');
      await refused('print(1)');
      assert.match(textOf((await run('import math\ny = math.sqrt(4)')).result), /ran/);
    });

    it('a declared language the kernel cannot read does not skip the import checks', async () => {
      t = await startKernel(
        declaring({
          risk_level: 'moderate',
          validator: 'code_safety',
          code_safety: { level: 'standard', language: 'cobol' },
        }),
      );
      await refused(SPAWN);
    });

    it("loosening is the config's alone ([servers.tools.X])", async () => {
      t = await startKernel(
        declaring(
          { risk_level: 'moderate', validator: 'code_safety', code_safety: { level: 'readonly' } },
          '[servers.tools.run_code]\ncode_safety = { level = "unrestricted" }\n',
        ),
      );
      assert.match(textOf((await run(SPAWN)).result), /ran/);
    });
  });
});
