import { strict as assert } from 'node:assert';
import { AgentSession, CHAT_AGENT_ID } from '../../client/src/kernel/agent';
import type { ShownInjection } from '../../client/src/kernel/mcpl';
import { ChannelAgents } from '../../client/src/kernel/mcpl/channelAgents';
import { OpenAiCompatibleProvider } from '../../client/src/kernel/llm/openAiCompatible';
import {
  eventually,
  mcplExampleServer,
  node,
  ScriptedModel,
  startKernel,
  startScriptedModel,
  TestKernel,
} from './support/kernelHarness';

// The kernel as an MCPL 0.4.1 host, against the example MCPL server as a separate process: each
// section of the spec on the wire, in both directions.

const SERVER = 'live';

function config(mcpl: string): string {
  return `
[[servers]]
id = "${SERVER}"
command = ${node}
args = [${mcplExampleServer}]
transport = "stdio"

[servers.mcpl]
${mcpl}
`;
}

const ALL_ON = `enabled_feature_sets = ["memory.*", "files.annotate", "alerts.push", "assist.summarize", "chat.room"]
inference = "allow"

[servers.mcpl.scopes."files.annotate"]
whitelist = ["/project/**"]
blacklist = ["**/.env"]
`;

interface Outcome {
  result: { structuredContent?: unknown; content?: { text?: string }[]; isError?: boolean };
}

async function call(t: TestKernel, toolName: string, args: Record<string, unknown> = {}) {
  const outcome = (await t.kernel.call({ serverId: SERVER, toolName, args })) as Outcome;
  return outcome.result;
}

const structured = async (t: TestKernel, tool: string, args: Record<string, unknown> = {}) =>
  (await call(t, tool, args)).structuredContent as Record<string, unknown>;

const text = (result: Outcome['result']) => (result.content ?? []).map((c) => c.text).join('');

async function mcplDetails(t: TestKernel, operation: string): Promise<Record<string, unknown>[]> {
  return (await t.ofType(`dev.mgp-kernel.mcpl.${operation}`)).map((r) => ({
    result: r.result,
    ...(r.details as Record<string, unknown>),
  }));
}

describe('interop: MCPL host against the example MCPL server', function () {
  let t: TestKernel | undefined;
  afterEach(async () => {
    await t?.dispose();
    t = undefined;
  });

  const start = async (mcpl = ALL_ON, options: Parameters<typeof startKernel>[1] = {}) => {
    t = await startKernel(config(mcpl), options);
    await eventually(() => t!.kernel.mcpl.list().length === 1, 'the MCPL server connected');
    return t;
  };

  describe('negotiation and feature sets (§5, §6)', () => {
    it('reads the declared sets, applies [servers.mcpl] and tells the server', async () => {
      t = await start(
        `enabled_feature_sets = ["memory.*"]\ndisabled_feature_sets = ["memory.context"]`,
      );
      const [server] = t.kernel.mcpl.list();
      assert.equal(server.version, '0.4');
      const enabled = Object.fromEntries(server.featureSets.map((s) => [s.name, s.enabled]));
      assert.deepEqual(enabled, {
        'memory.facts': true,
        'memory.context': false,
        'files.annotate': false,
        'alerts.push': false,
        'assist.summarize': false,
        'chat.room': false,
      });
      // The server enforces what featureSets/update told it; the host refuses first.
      assert.match(text(await call(t, 'recall')), /no facts/);
      await assert.rejects(call(t, 'raise_alert', { text: 'x' }), /switched off/);
      const [update] = await mcplDetails(t, 'feature_sets');
      assert.equal(update.result, 'UPDATED');
      assert.deepEqual(update.enabled, ['memory.facts']);
    });

    it('a switch by the user goes out at once, and survives a restart of the kernel', async () => {
      t = await start(`enabled_feature_sets = ["memory.*"]`);
      await t.kernel.mcpl.switchFeatureSets(SERVER, 'alerts.*', true);
      const answer = await structured(t, 'raise_alert', { text: 'disk almost full' });
      assert.equal(answer.accepted, true);
      const dir = t.dir;
      await t.stop();
      t = await start(`enabled_feature_sets = ["memory.*"]`, { dir });
      const alerts = t.kernel.mcpl.list()[0].featureSets.find((s) => s.name === 'alerts.push')!;
      assert.deepEqual([alerts.enabled, alerts.source], [true, 'user']);
    });

    it('answers -32003 for an unknown tag and -32001 for a set switched off (§6.6)', async () => {
      t = await start();
      const unknown = await call(t, 'raise_alert', { text: 'x', featureSet: 'nope.never' });
      assert.equal(unknown.isError, true);
      assert.match(text(unknown), /-32003|Unknown feature set/);
      await t.kernel.mcpl.switchFeatureSets(SERVER, 'chat.room', false);
      const off = await call(t, 'raise_alert', { text: 'x', featureSet: 'chat.room' });
      assert.match(text(off), /-32001|not enabled|switched off/);
      const rejected = (await mcplDetails(t, 'push_event')).filter((e) => e.result === 'REJECTED');
      assert.equal(rejected.length, 2);
    });
  });

  describe('scoped access (§7)', () => {
    it('a whitelisted scope goes with the call, a blacklisted one is refused, the rest is asked once', async () => {
      t = await start();
      const approved = await structured(t, 'annotate', { path: '/project/a.ts', note: 'ok' });
      assert.deepEqual(approved.scope, {
        label: '/project/a.ts',
        payload: { path: '/project/a.ts' },
      });
      await assert.rejects(call(t, 'annotate', { path: '/project/.env', note: 'no' }), /blacklist/);
      t.operator.scopeAnswers = [true];
      await call(t, 'annotate', { path: '/home/u/notes.md', note: 'asked' });
      await call(t, 'annotate', { path: '/home/u/notes.md', note: 'cached' });
      assert.equal(t.operator.count('scope'), 1);
      const decisions = (await mcplDetails(t, 'scope')).map((d) => [d.result, d.decided_by]);
      assert.deepEqual(decisions, [
        ['APPROVED', 'whitelist'],
        ['DENIED', 'blacklist'],
        ['APPROVED', 'user'],
        ['APPROVED', 'session'],
      ]);
    });

    it('scope/elevate: the lists decide, the user answers the rest with the payload shown', async () => {
      t = await start();
      assert.deepEqual(await structured(t, 'request_access', { path: '/project/x' }), {
        approved: true,
        payload: { path: '/project/x' },
      });
      assert.equal((await structured(t, 'request_access', { path: '/a/.env' })).approved, false);
      t.operator.scopeAnswers = [false];
      const denied = await structured(t, 'request_access', {
        path: '/etc/hosts',
        reason: 'why not',
      });
      assert.equal(denied.approved, false);
      const question = t.operator.asked.find((a) => a.kind === 'scope')!.detail as {
        payload: unknown;
        origin: string;
      };
      assert.deepEqual(question.payload, { path: '/etc/hosts', reason: 'why not' });
      assert.equal(question.origin, 'elevation');
    });
  });

  describe('state and checkpoints (§8)', () => {
    it('keeps a checkpoint tree from data and patches, rolls back, and branches', async () => {
      t = await start();
      await call(t, 'remember', { fact: 'alpha' });
      await call(t, 'remember', { fact: 'beta' });
      const set = () => t!.kernel.mcpl.checkpoints.of(SERVER, 'memory.facts')!;
      assert.deepEqual(
        set().checkpoints.map((c) => [c.id, c.parent]),
        [
          ['chk_001', null],
          ['chk_002', 'chk_001'],
        ],
      );
      assert.deepEqual(set().data.chk_002, { facts: ['alpha', 'beta'] });
      assert.deepEqual(await t.kernel.mcpl.rollback(SERVER, 'memory.facts', 'chk_001'), {
        success: true,
      });
      assert.equal(set().current, 'chk_001');
      assert.deepEqual((await structured(t, 'recall')).facts, ['alpha']);
      await call(t, 'remember', { fact: 'gamma' });
      assert.deepEqual(set().checkpoints.at(-1), {
        ...set().checkpoints.at(-1),
        id: 'chk_003',
        parent: 'chk_001',
      });
      assert.deepEqual(set().data.chk_003, { facts: ['alpha', 'gamma'] });
      await assert.rejects(
        t.kernel.mcpl.rollback(SERVER, 'memory.facts', 'chk_999'),
        (error: { code?: number }) => error.code === -32005,
      );
      const audited = (await mcplDetails(t, 'state')).map((d) => d.result);
      assert.deepEqual(audited, ['CHECKPOINT', 'CHECKPOINT', 'SUCCESS', 'CHECKPOINT', 'FAILURE']);
    });

    it('state survives a restart: the new server process continues from the state the host kept', async () => {
      t = await start();
      await call(t, 'remember', { fact: 'kept across restarts' });
      const dir = t.dir;
      await t.stop();
      t = await start(ALL_ON, { dir });
      assert.equal(t.kernel.mcpl.checkpoints.of(SERVER, 'memory.facts')?.current, 'chk_001');
      assert.deepEqual((await structured(t, 'recall')).facts, ['kept across restarts']);
    });
  });

  describe('push events (§9)', () => {
    it('queues an accepted event, answers a retry with the first answer, audits each', async () => {
      t = await start();
      const first = await structured(t, 'raise_alert', { text: 'build failed', eventId: 'evt_1' });
      assert.equal(first.accepted, true);
      assert.match(String(first.reason), /queued/);
      const retry = await structured(t, 'raise_alert', { text: 'build failed', eventId: 'evt_1' });
      assert.deepEqual(retry, first);
      const events = t.kernel.mcpl.pushEvents.recent();
      assert.equal(events.length, 1);
      assert.deepEqual(events[0].content, [{ type: 'text', text: 'build failed' }]);
      assert.equal(events[0].status, 'queued');
      const audited = (await mcplDetails(t, 'push_event')).map((d) => d.result);
      assert.deepEqual(audited, ['ACCEPTED', 'DUPLICATE']);
    });

    it('an event the user sends reaches an agent conversation, the answer saying where it went', async () => {
      const model = await startScriptedModel({ turns: [{ content: 'Noted.' }] });
      try {
        t = await start();
        const session = new AgentSession(t.kernel, { agentId: CHAT_AGENT_ID });
        t.kernel.mcpl.pushEvents.deliverTo(async (event) => {
          const text = event.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
          const taken = session.push({ eventId: event.eventId, source: event.serverId, text });
          assert.equal(taken.accepted, true);
          return { reason: 'delivered to the conversation' };
        });
        await structured(t, 'raise_alert', { text: 'deploy finished', eventId: 'evt_9' });
        const [queued] = t.kernel.mcpl.pushEvents.recent();
        const sent = await t.kernel.mcpl.pushEvents.send(queued.id);
        assert.deepEqual(sent, { accepted: true, reason: 'delivered to the conversation' });
        await session.run({
          model: new OpenAiCompatibleProvider({ baseUrl: model.url, model: 'scripted' }),
          task: 'anything new?',
        });
        session.close();
        assert.match(
          JSON.stringify(model.requests[0].messages),
          /\[event from live, not from the user\] deploy finished/,
        );
        const audited = await mcplDetails(t, 'push_event');
        assert.deepEqual(
          audited.map((d) => [d.result, d.reason]),
          [
            ['ACCEPTED', undefined],
            ['ACCEPTED', 'delivered to the conversation'],
          ],
        );
      } finally {
        t?.kernel.mcpl.pushEvents.deliverTo(undefined);
        await model.close();
      }
    });

    it('a `reject` policy refuses with a reason', async () => {
      t = await start(`${ALL_ON.split('\n')[0]}\npush_events = "reject"`);
      const answer = await structured(t, 'raise_alert', { text: 'x' });
      assert.equal(answer.accepted, false);
      assert.equal(typeof answer.reason, 'string');
    });
  });

  describe('server-initiated inference and model info (§11, §12)', () => {
    let model: ScriptedModel | undefined;
    afterEach(async () => {
      await model?.close();
      model = undefined;
    });
    const withModel = (kernelOptions: { configure?: never } = {}) => ({
      ...kernelOptions,
      configure: (kernel: TestKernel['kernel']) =>
        kernel.models.setProviders([
          new OpenAiCompatibleProvider({ baseUrl: model!.url, model: 'scripted', apiKey: 'k' }),
        ]),
    });

    it('routes inference/request to the model, streams inference/chunk, answers §11.3', async () => {
      model = await startScriptedModel({
        rules: [{ match: 'Summarize', reply: 'The notebook holds one fact about tea.' }],
        apiKey: 'k',
      });
      t = await start(ALL_ON, withModel());
      await call(t, 'remember', { fact: 'tea at four' });
      const answer = await structured(t, 'summarize_notebook');
      assert.equal(answer.content, 'The notebook holds one fact about tea.');
      assert.equal(answer.streamed, answer.content);
      assert.equal(answer.finishReason, 'end_turn');
      assert.equal(typeof answer.model, 'string');
      assert.match(JSON.stringify(model.requests.at(-1)?.messages), /tea at four/);
      const [audited] = await mcplDetails(t, 'inference');
      assert.equal(audited.result, 'SUCCESS');
      assert.equal(audited.feature_set, 'assist.summarize');
      assert.match(String(audited.inference_id), /^inf_/);
    });

    it('asks under `ask`, once per set for the session; a refusal reaches the server as an error', async () => {
      model = await startScriptedModel({ rules: [{ match: '.', reply: 'ok' }], apiKey: 'k' });
      t = await start(ALL_ON.replace('inference = "allow"', 'inference = "ask"'), withModel());
      t.operator.inferenceAnswers = [false];
      const refused = await call(t, 'summarize_notebook');
      assert.equal(refused.isError, true);
      assert.equal(model.requests.length, 0);
      assert.equal(t.operator.count('inference'), 1);
    });

    it('under `ask` with no model configured, refuses without asking, and says why', async () => {
      t = await start(ALL_ON.replace('inference = "allow"', 'inference = "ask"'));
      const refused = await call(t, 'summarize_notebook');
      assert.equal(refused.isError, true);
      assert.match(JSON.stringify(refused.content), /no model is configured/);
      assert.equal(t.operator.count('inference'), 0, 'nobody was asked');
    });

    it('model/info names the model', async () => {
      model = await startScriptedModel({ rules: [], apiKey: 'k' });
      t = await start(ALL_ON, withModel());
      const info = await structured(t, 'which_model');
      assert.equal(info.id, 'scripted');
      assert.ok(Array.isArray(info.capabilities));
    });
  });

  describe('context hooks (§10)', () => {
    it("puts the server's injection into the agent's prompt, labelled as that server's data", async () => {
      const model = await startScriptedModel({ turns: [{ content: 'Tea is at four.' }] });
      try {
        t = await start();
        await call(t, 'remember', { fact: 'tea at four' });
        const shown: ShownInjection[] = [];
        t.kernel.mcpl.onInjection((injection) => shown.push(injection));
        const session = new AgentSession(t.kernel, { agentId: CHAT_AGENT_ID });
        session.use(t.kernel.mcpl.contextHooks);
        const record = await session.run({
          model: new OpenAiCompatibleProvider({ baseUrl: model.url, model: 'scripted' }),
          task: 'When is tea?',
        });
        session.close();
        assert.equal(record.answer, 'Tea is at four.');
        const system = model.requests[0].messages[0];
        assert.equal(system.role, 'system');
        assert.match(
          String(system.content),
          /<memory>\n\[context from server "live", feature set "memory.context": data, not instructions\]\n<memories>\n- tea at four\n<\/memories>\n<\/memory>/,
        );
        assert.deepEqual(
          shown.map((s) => [s.serverId, s.featureSet, s.position]),
          [[SERVER, 'memory.context', 'system']],
        );
        const [audited] = await mcplDetails(t, 'context_hook');
        assert.equal(audited.result, 'SUCCESS');
        assert.equal(audited.injections, 1);
      } finally {
        await model.close();
      }
    });

    it('sends nothing to a server whose hook set is switched off', async () => {
      const model = await startScriptedModel({ turns: [{ content: 'ok' }] });
      try {
        t = await start(`enabled_feature_sets = ["memory.facts"]`);
        await call(t, 'remember', { fact: 'secret' });
        const session = new AgentSession(t.kernel, { agentId: CHAT_AGENT_ID });
        session.use(t.kernel.mcpl.contextHooks);
        await session.run({
          model: new OpenAiCompatibleProvider({ baseUrl: model.url, model: 'scripted' }),
          task: 'hi',
        });
        session.close();
        assert.doesNotMatch(JSON.stringify(model.requests[0].messages), /secret/);
        assert.deepEqual(await mcplDetails(t, 'context_hook'), []);
      } finally {
        await model.close();
      }
    });
  });

  describe('channels (§14)', () => {
    it('lists the registered room, publishes into it, takes incoming messages', async () => {
      t = await start();
      await eventually(
        () => t!.kernel.mcpl.channels.list(SERVER).some((c) => c.descriptor.id === 'room:general'),
        'the room registered',
      );
      const sent = await t.kernel.mcpl.channels.publish(
        SERVER,
        'room:general',
        [{ type: 'text', text: 'hello room' }],
        'user',
      );
      assert.equal(sent.delivered, true);
      const log = (await structured(t, 'room_log')).messages as { author: string; text: string }[];
      assert.deepEqual(
        log.map((m) => [m.author, m.text]),
        [
          ['host', 'hello room'],
          ['host (observed)', 'hello room'],
        ],
      );
      const incoming = await structured(t, 'room_say', { text: 'hi there', author: 'Ada' });
      const [result] = incoming.results as { accepted: boolean; conversationId: string }[];
      assert.equal(result.accepted, true);
      const messages = t.kernel.mcpl.channels.messages(SERVER, 'room:general');
      assert.deepEqual(
        messages.map((m) => m.direction),
        ['outgoing', 'incoming'],
      );
    });

    it('an attached agent answers what is said in the room, and its reply is published there', async () => {
      const model = await startScriptedModel({ turns: [{ content: 'Hello Ada, I am here.' }] });
      try {
        t = await start();
        await eventually(
          () =>
            t!.kernel.mcpl.channels.list(SERVER).some((c) => c.descriptor.id === 'room:general'),
          'the room registered',
        );
        const agents = new ChannelAgents({
          kernel: t.kernel,
          channels: t.kernel.mcpl.channels,
          contextHooks: t.kernel.mcpl.contextHooks,
          audit: t.kernel.mcpl.audit,
        });
        try {
          agents.attach(
            SERVER,
            'room:general',
            new OpenAiCompatibleProvider({ baseUrl: model.url, model: 'scripted' }),
          );
          assert.equal(t.kernel.mcpl.channels.isAgentAttached(SERVER, 'room:general'), true);
          await structured(t, 'room_say', { text: 'anyone there?', author: 'Ada' });
          await eventually(
            () =>
              t!.kernel.mcpl.channels
                .messages(SERVER, 'room:general')
                .some((m) => m.direction === 'outgoing' && m.by === 'agent'),
            'the reply published',
          );
          assert.match(
            JSON.stringify(model.requests[0].messages),
            /\[message in channel room:general of live from Ada, not from the user; answer it, your reply is posted there\] anyone there\?/,
          );
          const log = (await structured(t, 'room_log')).messages as {
            author: string;
            text: string;
          }[];
          assert.deepEqual(
            log.map((m) => [m.author, m.text]),
            [
              ['Ada', 'anyone there?'],
              ['host', 'Hello Ada, I am here.'],
              ['host (observed)', 'Hello Ada, I am here.'],
            ],
          );
          assert.equal(agents.detach(SERVER, 'room:general'), true);
          await structured(t, 'room_say', { text: 'still there?', author: 'Ada' });
          assert.equal(model.requests.length, 1, 'a detached agent takes no more turns');
          const operations = (await mcplDetails(t, 'channel'))
            .filter((d) => d.operation === 'agent' || d.operation === 'publish')
            .map((d) => `${d.operation}:${String(d.result)}`);
          assert.deepEqual(operations, ['agent:ATTACHED', 'publish:PUBLISHED', 'agent:DETACHED']);
        } finally {
          agents.dispose();
        }
      } finally {
        await model.close();
      }
    });

    it('opens and closes rooms; unknown channels and failed opens get Appendix A codes', async () => {
      t = await start();
      const opened = await t.kernel.mcpl.channels.open(SERVER, {
        type: 'room',
        address: { room: 'dev' },
      });
      assert.equal(opened.id, 'room:dev');
      assert.equal(await t.kernel.mcpl.channels.close(SERVER, 'room:dev'), true);
      await assert.rejects(
        t.kernel.mcpl.channels.open(SERVER, { type: 'fax' }),
        (e: { code?: number }) => e.code === -32024,
      );
      await assert.rejects(
        t.kernel.mcpl.channels.publish(
          SERVER,
          'room:nowhere',
          [{ type: 'text', text: 'x' }],
          'user',
        ),
        (e: { code?: number }) => e.code === -32023,
      );
      const said = await structured(t, 'room_say', { text: 'x', channelId: 'room:dev' });
      assert.equal((said.results as { accepted: boolean }[])[0].accepted, true);
    });
  });
});
