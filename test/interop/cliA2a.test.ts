import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../repoRoot';
import { runProcess } from './support/childRun';
import { startScriptedModel, type ScriptedModel } from './support/kernelHarness';

// `mgp a2a …` and `mgp agent` delegating, as a person runs them: the built CLI as a child process,
// an agent on the official A2A SDK's server classes and one that speaks OpenFang's dialect.

const root = repoRoot();
const cli = join(root, 'dist/cli.js');

interface SdkAgent {
  url: string;
  messages: { text: string; taskId: string }[];
  cancelled: string[];
  close(): Promise<void>;
}
interface OpenFangAgent {
  url: string;
  close(): Promise<void>;
}

/* eslint-disable @typescript-eslint/no-require-imports */
const { startSdkAgent } = require(join(root, 'test/fixtures/a2a/sdkAgent.js')) as {
  startSdkAgent(options: { behaviour?: string; protocol?: string }): Promise<SdkAgent>;
};
const { startOpenFangAgent } = require(join(root, 'test/fixtures/a2a/openfangAgent.js')) as {
  startOpenFangAgent(options: { behaviour?: string }): Promise<OpenFangAgent>;
};
/* eslint-enable @typescript-eslint/no-require-imports */

describe('mgp a2a and mgp agent (the built CLI, real agents)', function () {
  let dir: string;
  let config: string;
  let sdk: SdkAgent;
  let asker: SdkAgent;
  let openfang: OpenFangAgent;
  let env: Record<string, string | undefined>;
  let model: ScriptedModel | undefined;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-cli-a2a-'));
    sdk = await startSdkAgent({ behaviour: 'echo', protocol: '0.3' });
    asker = await startSdkAgent({ behaviour: 'ask' });
    openfang = await startOpenFangAgent({ behaviour: 'echo' });
    config = join(dir, 'mgp.toml');
    writeFileSync(
      config,
      [
        ['helper', sdk.url],
        ['asker', asker.url],
        ['reviewer', openfang.url],
      ]
        .map(([name, url]) => `[[a2a.external_agents]]\nname = "${name}"\nurl = "${url}"\n`)
        .join('\n'),
    );
    env = { ...process.env, XDG_STATE_HOME: join(dir, 'state') };
  });
  after(async () => {
    await Promise.all([sdk.close(), asker.close(), openfang.close()]);
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await model?.close();
    model = undefined;
  });

  const mgp = (args: string[], input = '') =>
    runProcess(process.execPath, [cli, ...args, '--config', config], env, input);

  it('mgp a2a agents lists each agent with its dialect and skills, the card as its words', async () => {
    const json = await mgp(['a2a', 'agents', '--json']);
    assert.equal(json.code, 0, json.err);
    const rows = JSON.parse(json.out) as {
      name: string;
      state: string;
      card: { dialect: string; skills: { name: string }[] };
    }[];
    assert.deepEqual(
      rows.map((r) => [r.name, r.state, r.card.dialect]),
      [
        ['helper', 'connected', 'a2a-0.3'],
        ['asker', 'connected', 'a2a-1.0'],
        ['reviewer', 'connected', 'openfang'],
      ],
    );
    assert.deepEqual(
      rows[2].card.skills.map((s) => s.name),
      ['file read'],
    );
    const text = await mgp(['a2a', 'agents']);
    assert.match(text.out, /speaks OpenFang's A2A at http:\/\/127\.0\.0\.1:\d+\/a2a, polled/);
    assert.match(text.out, /its card says \(the agent's words\): "code-reviewer"/);
  });

  it('mgp a2a card URL reads a card with no config', async () => {
    const ran = await runProcess(
      process.execPath,
      [cli, 'a2a', 'card', openfang.url, '--json'],
      env,
    );
    assert.equal(ran.code, 0, ran.err);
    const { summary, card } = JSON.parse(ran.out) as {
      summary: { dialect: string; cardUrl: string };
      card: { name: string };
    };
    assert.equal(summary.dialect, 'openfang');
    assert.match(summary.cardUrl, /\/\.well-known\/agent\.json$/);
    assert.equal(card.name, 'code-reviewer');
  });

  it('mgp a2a send, task and cancel go through the kernel: refused without a yes, then done', async () => {
    const refused = await mgp(['a2a', 'send', 'helper', 'hello']);
    assert.equal(refused.code, 3, refused.err);
    assert.match(refused.err, /needs approval/);
    assert.equal(sdk.messages.length, 0, 'nothing was sent');

    const sent = await mgp(['a2a', 'send', 'helper', 'hello', '--approve', 'once', '--json']);
    assert.equal(sent.code, 0, sent.err);
    const result = JSON.parse(sent.out) as { _kernel: { a2a: { task_id: string; state: string } } };
    assert.equal(result._kernel.a2a.state, 'completed');
    assert.equal(result._kernel.a2a.task_id, sdk.messages[0].taskId);

    const task = await mgp(['a2a', 'task', 'helper', result._kernel.a2a.task_id]);
    assert.equal(task.code, 0, task.err);
    assert.match(task.out, /echo: hello/);

    const asked = await mgp(['a2a', 'send', 'asker', 'weather', '--approve', 'once', '--stream']);
    assert.equal(asked.code, 0, asked.err);
    assert.match(asked.out, /Which city\?/);
    assert.match(asked.err, /: input-required/);
    const taskId = asker.messages[0].taskId;
    const cancelled = await mgp(['a2a', 'cancel', 'asker', taskId, '--approve', 'once']);
    assert.equal(cancelled.code, 1, cancelled.err);
    assert.match(cancelled.out, /ended canceled/, cancelled.err);
    assert.deepEqual(asker.cancelled, [taskId]);
  });

  it('bad usage exits 2 and names the flags the action takes', async () => {
    const missing = await mgp(['a2a', 'send', 'helper']);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /name an agent and the text to send/);
    const unknown = await mgp(['a2a', 'send', 'helper', 'x', '--bogus']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /unknown option --bogus; mgp a2a send takes --stream, --task-id ID/);
    const action = await mgp(['a2a', 'frobnicate']);
    assert.equal(action.code, 2);
    assert.match(action.err, /unknown action "frobnicate": agents, card, send, task or cancel/);
  });

  it('mgp agent delegates on a terminal: the person is asked, the audit record holds the task id', async () => {
    model = await startScriptedModel({
      turns: [
        {
          tool_calls: [
            { name: 'mgp_tools_discover', arguments: { query: 'delegate reviewer agent' } },
          ],
        },
        {
          tool_calls: [
            { name: 'a2a_reviewer_delegate', arguments: { message: 'review my patch' } },
          ],
        },
        { content: 'The reviewer is done.' },
      ],
    });
    const command = [process.execPath, cli, 'agent', 'Have my patch reviewed', '--config', config]
      .map((part) => JSON.stringify(part))
      .join(' ');
    const ran = await runProcess(
      'script',
      ['-qfec', command, '/dev/null'],
      { ...env, MGP_MODEL_URL: model.url, MGP_MODEL: 'scripted' },
      'o\n',
    );
    assert.equal(ran.code, 0, ran.out);
    assert.match(ran.out, /a2a\.reviewer wants to run delegate \(requested by agent\.cli\)/);
    assert.match(ran.out, /ran · approval once/);
    assert.match(ran.out, /The reviewer is done\./);
    const tail = await runProcess(
      process.execPath,
      [cli, 'audit', 'tail', '--json', '--cwd', dir],
      env,
    );
    const executed = tail.out
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            event_type: string;
            actor: unknown;
            details: { a2a?: { task_id?: string; agent?: string } };
          },
      )
      .filter((r) => r.event_type === 'TOOL_EXECUTED' && r.details.a2a?.agent === 'reviewer');
    assert.equal(executed.length, 1, tail.out + tail.err);
    assert.deepEqual(executed[0].actor, { type: 'agent', id: 'agent.cli' });
    assert.match(executed[0].details.a2a?.task_id ?? '', /^[0-9a-f-]{36}$/);
  });
});
