import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentRunRecord } from '../../client/src/kernel/agent';
import { repoRoot } from '../repoRoot';
import { type Ran, runProcess } from './support/childRun';
import { startScriptedModel, type ScriptedModel, type ScriptedTurn } from './support/kernelHarness';

// `mgp agent` as a person runs it: the built CLI as a child process, the example server as its child,
// the scripted model over loopback HTTP as MGP_MODEL_URL.

const root = repoRoot();
const cli = join(root, 'dist/cli.js');

const DELETE_TURNS: ScriptedTurn[] = [
  { tool_calls: [{ name: 'mgp_tools_discover', arguments: { query: 'delete notes' } }] },
  { tool_calls: [{ name: 'example_delete_notes', arguments: {} }] },
  { content: 'Done.' },
];

describe('mgp agent (the built CLI, a real server, the scripted model)', function () {
  let dir: string;
  let config: string;
  let model: ScriptedModel | undefined;
  let env: Record<string, string | undefined>;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-cli-agent-'));
    config = join(dir, 'mgp.toml');
    const example = JSON.stringify(join(root, 'examples/servers/dist/mgp-example-server.js'));
    writeFileSync(
      config,
      `[[servers]]\nid = "example"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${example}]\n`,
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(async () => {
    await model?.close();
    model = undefined;
  });

  const agent = async (turns: ScriptedTurn[], args: string[], input = ''): Promise<Ran> => {
    await model?.close();
    model = await startScriptedModel({ turns });
    env = {
      ...process.env,
      XDG_STATE_HOME: join(dir, 'state'),
      MGP_MODEL_URL: model.url,
      MGP_MODEL: 'scripted',
    };
    return runProcess(process.execPath, [cli, 'agent', ...args, '--config', config], env, input);
  };

  it('without a terminal or --approve, the policy decides: the dangerous call is refused and the transcript says so', async () => {
    const ran = await agent(DELETE_TURNS, ['Delete all my notes', '--json']);
    assert.equal(ran.code, 3, 'an answer after a refused call exits 3');
    const record = JSON.parse(ran.out) as AgentRunRecord;
    assert.equal(record.agent_id, 'agent.cli');
    assert.equal(record.stop.reason, 'answered');
    assert.equal(record.answer, 'Done.');
    const [discover] = record.steps[0].tool_calls;
    assert.equal(discover.decision, 'ran');
    assert.match(discover.trace_id ?? '', /^[0-9a-f-]{36}$/);
    const [call] = record.steps[1].tool_calls;
    assert.equal(call.server_id, 'example');
    assert.equal(call.tool_name, 'delete_notes');
    assert.equal(call.decision, 'refused');
    assert.equal(call.code, 1000);
    assert.match(ran.err, /no terminal to ask on/);
    // The audit log holds the refusal under the agent's identity and the call's trace id.
    const tail = await runProcess(
      process.execPath,
      [cli, 'audit', 'tail', '--json', '--cwd', dir, '--trace', call.trace_id ?? ''],
      env,
    );
    const records = tail.out
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { event_type: string; trace_id?: string; actor: unknown });
    const blocked = records.find(
      (r) => r.trace_id === call.trace_id && r.event_type === 'TOOL_BLOCKED',
    );
    assert.ok(blocked, tail.out + tail.err);
    assert.deepEqual(blocked.actor, { type: 'agent', id: 'agent.cli' });
  });

  it('with --approve once the call runs, and the answer streams to stdout', async () => {
    const ran = await agent(DELETE_TURNS, ['Delete all my notes', '--approve', 'once']);
    assert.equal(ran.code, 0, ran.err);
    assert.equal(ran.out.trim(), 'Done.');
    assert.match(ran.err, /→ mgp\.tools\.discover \{"query":"delete notes"\}/);
    assert.match(ran.err, /→ example\.delete_notes \{\}/);
    assert.match(ran.err, /ran · approval once · trace [0-9a-f-]{36}\n {2}Deleted 0 notes/);
  });

  it('asks the operator on a terminal (a real pty), naming the agent', async () => {
    const command = [process.execPath, cli, 'agent', 'Delete all my notes', '--config', config]
      .map((part) => JSON.stringify(part))
      .join(' ');
    model = await startScriptedModel({ turns: DELETE_TURNS });
    const ran = await runProcess(
      'script',
      ['-qfec', command, '/dev/null'],
      {
        ...process.env,
        XDG_STATE_HOME: join(dir, 'state'),
        MGP_MODEL_URL: model.url,
        MGP_MODEL: 'scripted',
      },
      // The example server's four permissions (MGP §3), then the call itself: once.
      'y\ny\ny\ny\no\n',
    );
    assert.equal(ran.code, 0, ran.out);
    assert.match(ran.out, /example wants to run delete_notes \(requested by agent\.cli\)/);
    assert.match(ran.out, /risk: dangerous/);
    assert.match(ran.out, /ran · approval once/);
    assert.match(ran.out, /Done\./);
  });

  it('exits 4 when a limit stops it before an answer, saying why', async () => {
    const ran = await agent(
      [{ tool_calls: [{ name: 'mgp_tools_discover', arguments: { query: 'x' } }], repeat: true }],
      ['Loop forever', '--max-steps', '5', '--loop-guard', '2'],
    );
    assert.equal(ran.code, 4);
    assert.match(
      ran.err,
      /mgp agent: Stopped: the model called mgp_tools_discover with the same arguments 2 times in a row/,
    );
    const steps = await agent(
      Array.from({ length: 3 }, (_, i) => ({
        tool_calls: [{ name: 'mgp_tools_discover', arguments: { query: `x${i}` } }],
      })),
      ['Loop', '--max-steps', '2'],
    );
    assert.equal(steps.code, 4);
    assert.match(steps.err, /Stopped after 2 steps without a final answer/);
  });

  it('refuses bad usage with exit 2 and a clear message', async () => {
    const noTask = await runProcess(process.execPath, [cli, 'agent'], process.env);
    assert.equal(noTask.code, 2);
    assert.match(noTask.err, /say what the agent should do/);
    const noModel = await runProcess(
      process.execPath,
      [cli, 'agent', 'hello', '--config', config],
      {
        ...process.env,
        MGP_MODEL_URL: '',
      },
    );
    assert.equal(noModel.code, 2);
    assert.match(noModel.err, /no model: set MGP_MODEL_URL/);
    const badSteps = await runProcess(
      process.execPath,
      [cli, 'agent', 'hello', '--max-steps', '0'],
      process.env,
    );
    assert.equal(badSteps.code, 2);
    assert.match(badSteps.err, /--max-steps takes a whole number of at least 1, not "0"/);
  });
});
