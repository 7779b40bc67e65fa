import { strict as assert } from 'node:assert';
import { AgentSession, CHAT_AGENT_ID } from '../../client/src/kernel/agent';
import { OpenAiCompatibleProvider } from '../../client/src/kernel/llm/openAiCompatible';
import {
  eventually,
  fixtureServer,
  node,
  startKernel,
  startScriptedModel,
  TestKernel,
} from './support/kernelHarness';
import { MAX_WAITING_QUESTIONS } from '../../client/src/kernel/mcpl/scopes';
import { HANG_MS } from '../support/patience';

// The MCPL host against a server that misbehaves (test/fixtures/servers/mcpl-hostile.js): each
// attack is bounded, answered with a clear reason, and leaves every decision in the audit log.

const SERVER = 'hostile';

function config(args: string[], mcpl = ''): string {
  return `
[[servers]]
id = "${SERVER}"
command = ${node}
args = [${[fixtureServer('mcpl-hostile.js'), ...args.map((a) => JSON.stringify(a))].join(', ')}]
transport = "stdio"
# Floods take as long as the machine needs: only a hang may time a call out.
request_timeout_secs = ${HANG_MS / 1000}

[servers.mcpl]
enabled_feature_sets = ["flood.*", "tagged.*", "elevate.*", "hooks.*"]
inference = "allow"
${mcpl}
`;
}

interface Summary {
  sent: number;
  accepted: number;
  rejected: number;
  errors: number;
  reasons: Record<string, number>;
}

describe('interop: MCPL host against a misbehaving server', function () {
  let t: TestKernel | undefined;
  afterEach(async () => {
    await t?.dispose();
    t = undefined;
  });

  const start = async (args: string[] = [], mcpl = '') => {
    t = await startKernel(config(args, mcpl));
    await eventually(() => t!.kernel.mcpl.list().length === 1, 'the server connected');
    return t;
  };

  const summary = async (toolName: string, args: Record<string, unknown>) =>
    (await t!.kernel.call({ serverId: SERVER, toolName, args })).result
      .structuredContent as unknown as Summary;

  it('10,000 push events at once: a burst is accepted, the rest refused by the rate limit, every one audited', async () => {
    t = await start([], 'push_events_per_second = 10');
    const started = Date.now();
    const result = await summary('flood', { count: 10_000 });
    const seconds = Math.ceil((Date.now() - started) / 1000);
    assert.equal(result.sent, 10_000);
    assert.equal(result.errors, 0);
    // A burst of 20, then 10 a second for as long as the flood lasted.
    const bound = 20 + 10 * seconds;
    assert.ok(
      result.accepted >= 20 && result.accepted <= bound,
      `accepted ${result.accepted} > ${bound}`,
    );
    assert.equal(result.accepted + result.rejected, 10_000);
    assert.ok(Object.keys(result.reasons).some((r) => /rate|per second/i.test(r)));
    const audited = await t.ofType('dev.mgp-kernel.mcpl.push_event');
    assert.equal(audited.length, 10_000);
    const kept = t.kernel.mcpl.pushEvents.recent();
    assert.ok(kept.length <= 500);
    // The Events view shows what was refused too, and why.
    assert.ok(
      kept.some((e) => e.status === 'rejected' && /per second/.test(e.reason ?? '')),
      'a rate-limited event is kept as rejected, with its reason',
    );
  });

  it('an elevation flood: a few questions wait for the user, the rest are refused at once', async () => {
    t = await start();
    t.operator.scopeAnswers = Array.from({ length: 100 }, () => true);
    // The person answers only once the flood is in: the questions pile up as they would.
    let answer = () => undefined as void;
    t.operator.scopeHold = new Promise((resolve) => (answer = resolve));
    const flood = summary('elevate_flood', { count: 100 });
    // All 100 are in: 8 wait for the person, and the kernel has refused the other 92 (audited).
    await eventually(
      async () =>
        t!.operator.count('scope') === MAX_WAITING_QUESTIONS &&
        (await t!.ofType('dev.mgp-kernel.mcpl.scope')).length >= 100 - MAX_WAITING_QUESTIONS,
      'the flood to be in, its questions waiting or refused',
    );
    answer();
    const result = await flood;
    assert.equal(result.sent, 100);
    assert.equal(t.operator.count('scope'), MAX_WAITING_QUESTIONS, 'the rest were not asked');
    assert.equal(result.accepted, MAX_WAITING_QUESTIONS);
    assert.equal(result.rejected, 100 - MAX_WAITING_QUESTIONS);
    assert.ok(Object.keys(result.reasons).some((r) => /waiting for the user/.test(r)));
    assert.equal((await t.ofType('dev.mgp-kernel.mcpl.scope')).length, 100);
  });

  it('a message tagged with a set switched off mid-flight gets -32001; an undeclared one -32003', async () => {
    t = await start();
    assert.equal((await summary('push_tagged', { featureSet: 'tagged.events' })).accepted, 1);
    await t.kernel.mcpl.switchFeatureSets(SERVER, 'tagged.events', false);
    const off = await summary('push_tagged', { featureSet: 'tagged.events' });
    assert.deepEqual(Object.keys(off.reasons), [
      'Feature set not enabled: "tagged.events" is switched off',
    ]);
    const unknown = await summary('push_tagged', { featureSet: 'never.declared' });
    assert.match(Object.keys(unknown.reasons)[0], /^Unknown feature set/);
  });

  describe('context hooks', () => {
    const runAgent = async () => {
      const model = await startScriptedModel({ turns: [{ content: 'The answer.', repeat: true }] });
      try {
        const session = new AgentSession(t!.kernel, { agentId: CHAT_AGENT_ID });
        session.use(t!.kernel.mcpl.contextHooks);
        const record = await session.run({
          model: new OpenAiCompatibleProvider({ baseUrl: model.url, model: 'scripted' }),
          task: 'hello',
        });
        session.close();
        return { record, requests: model.requests };
      } finally {
        await model.close();
      }
    };

    it('hooks that never answer: the inference goes on without them, and fail-closed withholds the answer', async () => {
      t = await start(['--hook', 'never', '--after', 'never'], 'hook_failure = "closed"');
      const { record, requests } = await runAgent();
      assert.equal(requests.length, 1);
      assert.match(record.answer, /withheld.*hook_failure policy is "closed"/);
      const outcomes = (await t.ofType('dev.mgp-kernel.mcpl.context_hook')).map((r) => [
        r.result,
        (r.details as { hook: string }).hook,
      ]);
      assert.deepEqual(outcomes, [
        ['TIMEOUT', 'beforeInference'],
        ['TIMEOUT', 'afterInference'],
      ]);
    });

    it('a 1 MB injection is refused whole and audited; the model never sees it', async () => {
      t = await start(['--hook', 'big']);
      const { record, requests } = await runAgent();
      assert.equal(record.answer, 'The answer.');
      assert.ok(JSON.stringify(requests[0].messages).length < 20_000);
      const [audited] = await t.ofType('dev.mgp-kernel.mcpl.context_hook');
      assert.equal(audited.result, 'REJECTED');
      assert.match(String((audited.details as { reason: string }).reason), /refused whole/);
    });

    it('a hook that asks for inference is refused (loop prevention, §10.7)', async () => {
      t = await start(['--hook', 'infer']);
      const { requests } = await runAgent();
      assert.equal(requests.length, 1);
      assert.match(
        JSON.stringify(requests[0].messages),
        /refused \(.*hooks must not trigger inference/,
      );
      const inference = await t.ofType('dev.mgp-kernel.mcpl.inference');
      assert.equal(inference.length, 1);
      assert.notEqual(inference[0].result, 'SUCCESS');
    });
  });
});
