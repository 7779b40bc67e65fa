import { strict as assert } from 'node:assert';
import { agentCaller } from '../../client/src/kernel/agent/identity';
import type { AuditRecord } from '../../client/src/kernel/audit/auditEvent';
import { KernelError, TOOL_DISABLED } from '../../client/src/kernel/domain/errors';
import {
  eventually,
  mcplExampleServer,
  node,
  startKernel,
  TestKernel,
} from './support/kernelHarness';

// MCPL's checks (feature sets §6.6, scopes §7.7) as stages of the one call path, against the
// example MCPL server as a separate process: every one of them runs before the approval question,
// so nobody approves a call MCPL then refuses, and a refusal is audited as a block naming its check.
// `annotate` (set files.annotate, scoped by its path) is made dangerous here, so every call of it
// that reaches the approval stage puts a question to the operator.

const SERVER = 'live';

function config(mcpl: string, kernel = ''): string {
  return `${kernel}
[[servers]]
id = "${SERVER}"
command = ${node}
args = [${mcplExampleServer}]

[servers.tools.annotate]
risk_level = "dangerous"

[servers.mcpl]
${mcpl}
`;
}

const SCOPED = `enabled_feature_sets = ["files.annotate"]

[servers.mcpl.scopes."files.annotate"]
whitelist = ["/project/**"]
blacklist = ["**/.env"]
`;

async function refusal(call: Promise<unknown>): Promise<KernelError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof KernelError) return error;
    throw error;
  }
  assert.fail('the call was not refused');
}

describe('MCPL checks run in the pipeline, before anyone is asked to approve', function () {
  this.timeout(60_000);
  let t: TestKernel | undefined;
  afterEach(async () => {
    await t?.dispose();
    t = undefined;
  });

  const start = async (mcpl: string, kernel = '') => {
    t = await startKernel(config(mcpl, kernel));
    await eventually(() => t!.kernel.mcpl.list().length === 1, 'the MCPL server connected');
    return t;
  };
  const annotate = (k: TestKernel, path: string) =>
    k.kernel.call({ serverId: SERVER, toolName: 'annotate', args: { path, note: 'n' } });
  const ofCall = async (k: TestKernel, traceIdOf: (r: AuditRecord) => boolean) =>
    (await k.records()).filter((r) => r.target.tool_name === 'annotate' && traceIdOf(r));

  it('a call whose feature set is switched off never asks the operator; its record is a block', async () => {
    const k = await start(`disabled_feature_sets = ["files.annotate"]`);
    const error = await refusal(annotate(k, '/project/a.ts'));
    assert.match(
      error.message,
      /feature set "files\.annotate", which is switched off \(MCPL §6\.6\)/,
    );
    assert.equal(error.wireCode, -32001);
    assert.equal(k.operator.count('tool'), 0, 'nobody was asked to approve it');
    const records = await ofCall(k, () => true);
    assert.deepEqual(
      records.map((r) => [r.event_type, r.result, r.details.check, r.details.feature_set]),
      [['TOOL_BLOCKED', 'DISABLED', 'mcpl.feature_set', 'files.annotate']],
    );
  });

  it('a call on a blacklisted scope never asks the operator; its record is a block', async () => {
    const k = await start(SCOPED);
    const error = await refusal(annotate(k, '/project/.env'));
    assert.match(error.message, /may not act on "\/project\/\.env": .*blacklist/);
    assert.equal(k.operator.count('tool'), 0, 'nobody was asked to approve it');
    assert.equal(k.operator.count('scope'), 0);
    const records = await ofCall(k, () => true);
    assert.deepEqual(
      records.map((r) => [r.event_type, r.result, r.details.check, r.details.scope]),
      [['TOOL_BLOCKED', 'DENIED', 'mcpl.scope', '/project/.env']],
    );
  });

  it('a scope the user refuses ends the call there: the approval question never comes', async () => {
    const k = await start(SCOPED);
    k.operator.scopeAnswers = [false];
    await refusal(annotate(k, '/home/u/notes.md'));
    assert.deepEqual([k.operator.count('scope'), k.operator.count('tool')], [1, 0]);
    const blocked = (await ofCall(k, () => true)).map((r) => [r.event_type, r.details.check]);
    assert.deepEqual(blocked, [['TOOL_BLOCKED', 'mcpl.scope']]);
  });

  it('a call every check lets through is asked about once, and carries its scope', async () => {
    const k = await start(SCOPED);
    k.operator.toolAnswers = ['once'];
    const outcome = await annotate(k, '/project/a.ts');
    assert.deepEqual(outcome.result.structuredContent, {
      scope: { label: '/project/a.ts', payload: { path: '/project/a.ts' } },
    });
    assert.equal(k.operator.count('tool'), 1);
    const records = await ofCall(k, (r) => r.trace_id === outcome.traceId);
    assert.deepEqual(
      records.map((r) => [r.event_type, r.result]),
      [
        ['PERMISSION_GRANTED', 'GRANTED'],
        ['TOOL_EXECUTED', 'SUCCESS'],
      ],
    );
  });

  it('a turned-off tool is refused before access control (4002, not 1001)', async () => {
    const k = await start(SCOPED, `[kernel]\ndefault_access_policy = "opt-in"\n`);
    await k.kernel.switchboard.setTool(SERVER, 'annotate', false);
    const error = await refusal(
      k.kernel.call({
        serverId: SERVER,
        toolName: 'annotate',
        args: { path: '/project/a.ts', note: 'n' },
        caller: agentCaller('agent.research'),
      }),
    );
    assert.equal(error.wireCode, TOOL_DISABLED);
    const records = await ofCall(k, (r) => r.event_type === 'TOOL_BLOCKED');
    assert.deepEqual(
      records.map((r) => r.details.reason),
      ['tool_turned_off'],
    );
  });
});
