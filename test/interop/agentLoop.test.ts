import { strict as assert } from 'node:assert';
import {
  AgentSession,
  CHAT_AGENT_ID,
  getPromptAs,
  readResourceAs,
  type AgentRunRecord,
} from '../../client/src/kernel/agent';
import { toolTokens } from '../../client/src/kernel/discovery';
import { OpenAiCompatibleProvider } from '../../client/src/kernel/llm/openAiCompatible';
import {
  configOf,
  eventually,
  exampleServer,
  node,
  startKernel,
  startScriptedModel,
  type ScriptedModel,
  type ScriptedModelRequest,
  type TestKernel,
} from './support/kernelHarness';

// The agent loop (kernel/agent) against the example server as a real child process, its model the
// scripted one over loopback HTTP through the OpenAI-compatible provider (streamed, with tools).

const EXAMPLE = `[[servers]]\nid = "example"\ncommand = ${node}\nargs = [${exampleServer}]\n`;

const offeredNames = (request: ScriptedModelRequest) =>
  (request.tools ?? []).map((t) => t.function.name);
const toolMessages = (request: ScriptedModelRequest) =>
  request.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
const lastToolMessage = (request: ScriptedModelRequest) => toolMessages(request).at(-1) ?? '';
/** The run ended with the model's answer (a failed check inside a scripted turn shows as its message). */
const assertAnswered = (record: AgentRunRecord) =>
  assert.equal(`${record.stop.reason}: ${record.stop.message}`, 'answered: The model answered.');

describe('interop: the agent loop with a scripted model and real servers', function () {
  let k: TestKernel;
  let model: ScriptedModel | undefined;
  let session: AgentSession | undefined;

  beforeEach(async () => {
    k = await startKernel(EXAMPLE);
  });
  afterEach(async () => {
    session?.close();
    session = undefined;
    await model?.close();
    model = undefined;
    await k.dispose();
  });

  const run = async (
    turns: Parameters<typeof startScriptedModel>[0]['turns'],
    options: Partial<Parameters<AgentSession['run']>[0]> = {},
  ): Promise<AgentRunRecord> => {
    model = await startScriptedModel({ turns });
    session ??= new AgentSession(k.kernel, { agentId: CHAT_AGENT_ID });
    return session.run({
      model: new OpenAiCompatibleProvider({ baseUrl: model.url, model: 'scripted' }),
      task: 'Delete my note called groceries.',
      ...options,
    });
  };

  it('Stop pressed as the model answers: none of the calls in that answer starts', async () => {
    model = await startScriptedModel({
      turns: [{ tool_calls: [{ name: 'mgp_tools_discover', arguments: { query: 'list notes' } }] }],
    });
    session = new AgentSession(k.kernel, { agentId: CHAT_AGENT_ID });
    const stop = new AbortController();
    const provider = new OpenAiCompatibleProvider({ baseUrl: model.url, model: 'scripted' });
    // The model's answer has arrived whole when the person presses Stop, before its calls run.
    const answeredAsStopped: typeof provider = Object.assign(Object.create(provider), {
      chat: async (...args: Parameters<typeof provider.chat>) => {
        const turn = await provider.chat(...args);
        stop.abort();
        return turn;
      },
    });
    const record = await session.run({
      model: answeredAsStopped,
      task: 'List my notes.',
      signal: stop.signal,
    });
    assert.equal(record.stop.reason, 'cancelled');
    assert.deepEqual(
      record.steps.flatMap((step) => step.tool_calls.map((call) => call.decision)),
      ['not_run'],
    );
    assert.equal(model.requests.length, 1, 'the model is not asked again');
  });

  it('discovers a tool it was not given, calls it after approval under its own identity, and answers', async () => {
    k.operator.toolAnswers = ['once', 'once'];
    await k.kernel.call({
      serverId: 'example',
      toolName: 'write_note',
      args: { title: 'groceries', body: 'milk' },
    });
    k.operator.asked.length = 0;
    const record = await run([
      { tool_calls: [{ name: 'mgp_tools_discover', arguments: { query: 'delete a note' } }] },
      (request) => {
        assert.ok(
          offeredNames(request).includes('example_delete_notes'),
          'discovered tool offered',
        );
        return {
          tool_calls: [{ name: 'example_delete_notes', arguments: { title: 'groceries' } }],
        };
      },
      { content: 'I deleted the note "groceries".' },
    ]);
    assertAnswered(record);
    assert.equal(record.answer, 'I deleted the note "groceries".');
    assert.equal(record.agent_id, 'agent.chat');
    // L2 first: the model starts with the two meta-tools only.
    assert.deepEqual(record.steps[0].offered, ['mgp_tools_discover', 'mgp_tools_request']);
    assert.ok(record.steps[1].offered.includes('example_delete_notes'));
    const call = record.steps[1].tool_calls[0];
    assert.equal(call.decision, 'ran');
    assert.equal(call.approval, 'once');
    assert.equal(call.server_id, 'example');
    assert.equal(call.tool_name, 'delete_notes');
    assert.match(call.result, /Deleted 1 note/);
    assert.match(lastToolMessage(model!.requests[2]), /Deleted 1 note/);
    // The operator was asked, about this agent's call; the audit log holds it under the agent's id.
    assert.equal(k.operator.count('tool'), 1);
    const asked = k.operator.asked[0].detail as { agentId: string; traceId: string };
    assert.equal(asked.agentId, 'agent.chat');
    assert.equal(asked.traceId, call.trace_id);
    await eventually(async () =>
      (await k.ofType('TOOL_EXECUTED')).some((r) => r.trace_id === call.trace_id),
    );
    const executed = (await k.ofType('TOOL_EXECUTED')).find((r) => r.trace_id === call.trace_id)!;
    assert.deepEqual(executed.actor, { type: 'agent', id: 'agent.chat' });
    assert.deepEqual(executed.target, { server_id: 'example', tool_name: 'delete_notes' });
    assert.equal(executed.details.cancelled, undefined, 'a call that ran is not marked cancelled');
    const granted = (await k.ofType('PERMISSION_GRANTED')).find(
      (r) => r.trace_id === call.trace_id,
    )!;
    assert.equal(granted.details.requested_by, 'agent.chat');
    const discovery = (await k.ofType('TOOL_EXECUTED')).find(
      (r) => r.target.tool_name === 'mgp.tools.discover',
    )!;
    assert.deepEqual(discovery.actor, { type: 'agent', id: 'agent.chat' });
  });

  it('gives a denied call back to the model as a refusal it can explain, and goes on', async () => {
    k.operator.toolAnswers = ['deny'];
    const record = await run([
      { tool_calls: [{ name: 'mgp_tools_discover', arguments: { query: 'delete notes' } }] },
      { tool_calls: [{ name: 'example_delete_notes', arguments: {} }] },
      (request) => {
        const refusal = JSON.parse(lastToolMessage(request));
        assert.equal(refusal.status, 'rejected');
        assert.equal(refusal.code, 1000);
        assert.match(refusal.hints.next_step, /not approved/);
        return { content: 'You declined, so nothing was deleted.' };
      },
    ]);
    assertAnswered(record);
    const call = record.steps[1].tool_calls[0];
    assert.equal(call.decision, 'refused');
    assert.equal(call.code, 1000);
    assert.equal(call.is_error, true);
  });

  it('stops at the loop guard: the same tool with the same arguments three times in a row', async () => {
    const record = await run(
      [
        {
          tool_calls: [{ name: 'mgp_tools_discover', arguments: { query: 'notes' } }],
          repeat: true,
        },
      ],
      { maxSteps: 10 },
    );
    assert.equal(record.stop.reason, 'loop_guard');
    assert.match(
      record.stop.message,
      /mgp_tools_discover with the same arguments 3 times in a row/,
    );
    assert.equal(record.steps.length, 3);
    assert.deepEqual(
      record.steps.map((s) => s.tool_calls[0].decision),
      ['ran', 'ran', 'not_run'],
    );
    await k.trail.flush();
    const discovered = (await k.ofType('TOOL_EXECUTED')).filter(
      (r) => r.target.tool_name === 'mgp.tools.discover',
    );
    assert.equal(discovered.length, 2, 'the third identical call is not made');
  });

  it('stops at the step limit without a final answer', async () => {
    const record = await run(
      Array.from({ length: 5 }, (_, i) => ({
        tool_calls: [{ name: 'mgp_tools_discover', arguments: { query: `notes ${i}` } }],
      })),
      { maxSteps: 3 },
    );
    assert.equal(record.stop.reason, 'max_steps');
    assert.equal(record.steps.length, 3);
    assert.equal(model!.requests.length, 3);
  });

  it('answers malformed calls with errors the model corrects from, and never offers administrative tools', async () => {
    k.operator.toolAnswers = ['once'];
    const record = await run([
      { tool_calls: [{ name: 'mgp_access_grant', arguments: { agent_id: 'agent.chat' } }] },
      (request) => {
        const refusal = JSON.parse(lastToolMessage(request));
        assert.equal(refusal.reason, 'Unknown tool');
        assert.deepEqual(refusal.hints.available_tools, [
          'mgp_tools_discover',
          'mgp_tools_request',
        ]);
        return { tool_calls: [{ name: 'mgp_tools_discover', arguments: '{"query": "write a no' }] };
      },
      (request) => {
        const refusal = JSON.parse(lastToolMessage(request));
        assert.equal(refusal.reason, 'Arguments are not a JSON object');
        assert.match(refusal.violations[0], /not valid JSON/);
        assert.deepEqual(refusal.hints.expected_schema.required, ['query']);
        return { tool_calls: [{ name: 'mgp_tools_discover', arguments: '["write a note"]' }] };
      },
      { tool_calls: [{ name: 'mgp_tools_discover', arguments: { query: 'write a note' } }] },
      { tool_calls: [{ name: 'example_write_note', arguments: { title: 7 } }] },
      (request) => {
        const refusal = JSON.parse(lastToolMessage(request));
        assert.equal(refusal.reason, 'Arguments do not match the input schema');
        assert.equal(refusal.code, 4000);
        assert.deepEqual(refusal.hints.expected_schema.required, ['title', 'body']);
        return {
          tool_calls: [
            { name: 'example_write_note', arguments: { title: 'plan', body: 'ship it' } },
          ],
        };
      },
      { content: 'Saved the note "plan".' },
    ]);
    assertAnswered(record);
    assert.deepEqual(
      record.steps.flatMap((s) => s.tool_calls.map((c) => c.decision)),
      ['unknown_tool', 'invalid', 'invalid', 'ran', 'invalid', 'ran'],
    );
    assert.match(record.steps[5].tool_calls[0].result, /Stored note "plan"/);
    for (const request of model!.requests)
      assert.ok(
        !offeredNames(request).some((n) =>
          /^mgp_(access|health|lifecycle|events|discovery)/.test(n),
        ),
        offeredNames(request).join(', '),
      );
  });

  it('cancels a streaming tool mid-stream with mgp/stream/cancel and keeps what it sent', async () => {
    await k.dispose();
    const sent: string[] = [];
    k = await startKernel(EXAMPLE, {
      trace: () => true,
      configure: (kernel) =>
        kernel.manager.bus.on('trace', (line) => {
          const method = (line.message as { method?: string }).method;
          if (line.direction === 'send' && method) sent.push(method);
        }),
    });
    const controller = new AbortController();
    let streamedText = '';
    const record = await run(
      [
        {
          tool_calls: [
            { name: 'mgp_tools_discover', arguments: { query: 'stream text word by word' } },
          ],
        },
        { tool_calls: [{ name: 'example_stream_text', arguments: { words: 400, delay_ms: 25 } }] },
        { content: 'unreachable' },
      ],
      {
        signal: controller.signal,
        observer: {
          onToolOutput: (_call, appended) => {
            streamedText += appended;
            if (streamedText.split(' ').length > 5) controller.abort();
          },
        },
      },
    );
    assert.equal(record.stop.reason, 'cancelled');
    const call = record.steps[1].tool_calls[0];
    assert.equal(call.decision, 'cancelled');
    assert.ok(call.result.length > 0, 'the partial output is kept');
    assert.ok(call.result.split(' ').length < 400, 'the stream stopped early');
    assert.ok(sent.includes('mgp/stream/cancel'), sent.join(', '));
    assert.equal(model!.requests.length, 2, 'no inference after the cancellation');
    // The server answered the cancel (MGP §12.7): its record says the call was cancelled.
    await eventually(async () =>
      (await k.ofType('TOOL_EXECUTED')).some((r) => r.trace_id === call.trace_id),
    );
    const executed = (await k.ofType('TOOL_EXECUTED')).find((r) => r.trace_id === call.trace_id)!;
    assert.deepEqual(executed.actor, { type: 'agent', id: 'agent.chat' });
    assert.equal(executed.details.cancelled, true);
  });

  it("cancels the model's own streamed answer", async () => {
    const controller = new AbortController();
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const record = await run([{ content: words, chunkDelayMs: 50 }], {
      signal: controller.signal,
      observer: { onText: () => controller.abort() },
    });
    assert.equal(record.stop.reason, 'cancelled');
    await eventually(() => model!.aborted === 1, 'the model saw the hang-up');
  });

  it('evicts the least recently used tool when the session cache is over its budget', async () => {
    const index = k.kernel.discovery.index;
    const cost = (id: string) => toolTokens(index.get(id)!);
    const limit = Math.max(cost('example.list_notes'), cost('example.write_note')) + 5;
    await k.kernel.apply(
      configOf(
        k.dir,
        `${EXAMPLE}[kernel.tool_context_budget]\nmax_tokens = 8000\npinned_reserve = 0\ndiscovery_reserve = 3000\ncache_limit = ${limit}\n`,
      ),
    );
    k.operator.toolAnswers = ['once'];
    const record = await run([
      {
        tool_calls: [{ name: 'mgp_tools_discover', arguments: { query: 'notes', max_results: 8 } }],
      },
      { tool_calls: [{ name: 'example_list_notes', arguments: {} }] },
      (request) => {
        assert.ok(offeredNames(request).includes('example_list_notes'), 'a used tool stays loaded');
        return {
          tool_calls: [{ name: 'mgp_tools_discover', arguments: { query: 'write a note' } }],
        };
      },
      { tool_calls: [{ name: 'example_write_note', arguments: { title: 'a', body: 'b' } }] },
      (request) => {
        assert.ok(offeredNames(request).includes('example_write_note'));
        assert.ok(!offeredNames(request).includes('example_list_notes'), 'evicted');
        return { content: 'done' };
      },
    ]);
    assertAnswered(record);
    assert.deepEqual(record.steps[3].tool_calls[0].evicted, ['example.list_notes']);
    assert.deepEqual(session!.tools.session.cache.snapshot().cached, ['example.write_note']);
    assert.ok(record.peak_context_tokens > record.steps[0].context_tokens);
  });

  it('injects context before each inference, delivers pushed events between turns, and lets a hook rewrite the answer', async () => {
    session = new AgentSession(k.kernel, {
      agentId: CHAT_AGENT_ID,
      hooks: [
        {
          beforeInference: async (info) => [
            { namespace: 'memory', position: 'system', content: `turn ${info.turnIndex}` },
          ],
          afterInference: async (info) =>
            info.assistantMessage.includes('SECRET')
              ? { modifiedResponse: info.assistantMessage.replace('SECRET', '[REDACTED]') }
              : undefined,
        },
      ],
    });
    assert.deepEqual(session.push({ eventId: 'e1', source: 'example', text: 'a build failed' }), {
      accepted: true,
    });
    assert.equal(
      session.push({ eventId: 'e1', source: 'example', text: 'a build failed' }).accepted,
      false,
    );
    const record = await run([{ content: 'The key is SECRET.' }]);
    const request = model!.requests[0];
    assert.match(String(request.messages[0].content), /<memory>\nturn 0\n<\/memory>/);
    assert.ok(
      request.messages.some(
        (m) => m.role === 'user' && /event from example.*a build failed/.test(String(m.content)),
      ),
    );
    assert.equal(record.answer, 'The key is [REDACTED].');
  });

  it('gives the model the events of its own subscription before its next inference (MGP §13.3)', async () => {
    session = new AgentSession(k.kernel, { agentId: CHAT_AGENT_ID });
    // mgp.events.* are administrative (MGP §16.8): an agent subscribes with a grant.
    await k.kernel.access.grant(
      {
        entry_type: 'tool_grant',
        agent_id: CHAT_AGENT_ID,
        server_id: 'mgp',
        tool_name: 'mgp.events.subscribe',
        permission: 'allow',
      },
      'test',
    );
    const subscribed = await k.kernel.call({
      serverId: 'mgp',
      toolName: 'mgp.events.subscribe',
      args: { channels: ['security.*'] },
      caller: session.caller,
    });
    const id = (subscribed.result.structuredContent as { subscription_id: string }).subscription_id;
    let delivered = false;
    k.kernel.events.listen(id, () => (delivered = true));
    await k.kernel.call({
      serverId: 'example',
      toolName: 'emit_event',
      args: { channel: 'security.alert', severity: 'error', data: { door: 'open' } },
    });
    await eventually(() => delivered, 'the event');
    assertAnswered(await run([{ content: 'Noted.' }]));
    const said = model!.requests[0].messages.map((m) => String(m.content)).join('\n');
    assert.match(said, /\[event from example.*not from the user\].*security\.alert.*"door":"open"/);
    session.close();
    assert.equal(k.kernel.events.unsubscribe(id), false, 'closing the session ended it');
  });
});

describe('interop: resources, prompts and approvals for agents', function () {
  this.timeout(60000);
  let k: TestKernel;
  beforeEach(async () => (k = await startKernel(EXAMPLE)));
  afterEach(async () => k.dispose());

  it('reads resources and prompts as the agent, audited, and refuses an agent without access', async () => {
    const agent = { agentId: CHAT_AGENT_ID, kind: 'agent' as const };
    const about = await readResourceAs(k.kernel, agent, 'example', 'mgp-example://about');
    assert.ok(about.contents.length > 0);
    const prompt = await getPromptAs(k.kernel, agent, 'example', 'summarize-notes', {});
    assert.ok(prompt.messages.length > 0);
    await k.kernel.call({
      serverId: 'mgp',
      toolName: 'mgp.access.grant',
      args: {
        entry_type: 'server_grant',
        agent_id: CHAT_AGENT_ID,
        server_id: 'example',
        permission: 'deny',
      },
    });
    await assert.rejects(
      readResourceAs(k.kernel, agent, 'example', 'mgp-example://about'),
      /agent\.chat has no access to example/,
    );
    const records = [
      ...(await k.ofType('dev.mgp-kernel.resource_read')),
      ...(await k.ofType('dev.mgp-kernel.prompt_get')),
    ];
    assert.deepEqual(records.map((r) => [r.event_type, r.actor.id, r.result]).sort(), [
      ['dev.mgp-kernel.prompt_get', 'agent.chat', 'SUCCESS'],
      ['dev.mgp-kernel.resource_read', 'agent.chat', 'DENIED'],
      ['dev.mgp-kernel.resource_read', 'agent.chat', 'SUCCESS'],
    ]);
  });

  it('says what the policy would do with a call, and records a grant given ahead of it', async () => {
    assert.equal(k.kernel.approvalVerdict('example', 'delete_notes')?.kind, 'ask');
    assert.equal(k.kernel.approvalVerdict('example', 'echo')?.kind, 'allow');
    assert.equal(k.kernel.approvalVerdict('example', 'no_such_tool'), undefined);
    assert.equal(
      await k.kernel.grantApproval('example', 'delete_notes', 'session', 'agent.copilot'),
      true,
    );
    assert.deepEqual(k.kernel.approvalVerdict('example', 'delete_notes'), {
      kind: 'allow',
      basis: 'session_grant',
    });
    const [granted] = (await k.ofType('PERMISSION_GRANTED')).filter(
      (r) => r.details.kind === 'tool_call',
    );
    assert.equal(granted.details.scope, 'session');
    assert.equal(granted.details.requested_by, 'agent.copilot');
    assert.equal(k.operator.count('tool'), 0);
  });
});
