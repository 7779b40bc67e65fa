import { strict as assert } from 'node:assert';
import {
  ALL_EXTENSIONS,
  type Json,
  type Peer,
  mgpPeer,
  call,
  request,
  text,
  of,
  waitFor,
  callId,
  mcpProgress,
} from './support/mgpPeer';

// The example server's streaming, cancellation, callbacks and events (MGP §12, §13), driven by the
// official SDK client over stdio (support/mgpPeer.ts).

describe('interop: example server, streaming (§12)', () => {
  let peer: Peer;
  before(async () => (peer = await mgpPeer()));
  after(async () => peer?.client.close());
  const TEXT = 'one two  three four five';
  const chunksOf = (id: number | undefined) =>
    of(peer, 'stream.chunk').filter((c) => c.request_id === id) as Json[];

  it('streams chunks in order under the id of the tools/call, then the whole text with _mgp (§12.4, §12.5)', async () => {
    const result = await call(
      peer,
      'stream_text',
      { text: TEXT, delay_ms: 5 },
      { _mgp: { stream: true } },
    );
    const chunks = chunksOf(callId(peer, 'stream_text'));
    assert.deepEqual(
      chunks.map((c) => c.index),
      [0, 1, 2, 3, 4],
    );
    assert.deepEqual(
      chunks.map((c) => c.done),
      [false, false, false, false, true],
    );
    assert.equal(chunks.map((c) => c.content.text).join(''), TEXT);
    assert.ok(chunks.every((c) => c.content.type === 'text'));
    assert.equal(text(result), TEXT);
    assert.equal(result._mgp.streamed, true);
    assert.equal(result._mgp.chunks_sent, 5);
    assert.equal(typeof result._mgp.duration_ms, 'number');
    const progress = of(peer, 'stream.progress').filter(
      (p) => p.request_id === callId(peer, 'stream_text'),
    );
    assert.deepEqual(
      progress.map((p) => p.progress),
      [0.2, 0.4, 0.6, 0.8, 1],
    );
    assert.equal(progress[0].estimated_remaining_ms, 20);
  });

  it('just returns the result when the call does not ask for a stream', async () => {
    const before = peer.notifications.length;
    const result = await call(peer, 'stream_text', { words: 3, delay_ms: 0 });
    assert.equal(text(result), 'lorem ipsum dolor');
    assert.equal(result._mgp, undefined);
    assert.equal(
      peer.notifications
        .slice(before)
        .filter((n) => n.method.startsWith('notifications/mgp.stream')).length,
      0,
    );
  });

  it('with shuffle and duplicate sends pairs swapped and even chunks twice, reassembling to the same text', async () => {
    const result = await call(
      peer,
      'stream_text',
      { text: TEXT, delay_ms: 0, shuffle: true, duplicate: true },
      { _mgp: { stream: true } },
    );
    const chunks = chunksOf(callId(peer, 'stream_text'));
    assert.deepEqual(
      chunks.map((c) => c.index),
      [1, 0, 0, 3, 2, 2, 4, 4],
    );
    const byIndex = new Map(chunks.map((c) => [c.index as number, c.content.text as string]));
    assert.equal(
      [...byIndex.keys()]
        .sort()
        .map((i) => byIndex.get(i))
        .join(''),
      TEXT,
    );
    assert.equal(text(result), TEXT);
    assert.equal(result._mgp.chunks_sent, 5);
  });

  it('sends MCP progress too when the request carries a progress token', async () => {
    await call(
      peer,
      'stream_text',
      { words: 4, delay_ms: 0 },
      { _mgp: { stream: true } },
      () => undefined,
    );
    const progress = mcpProgress(peer, callId(peer, 'stream_text'));
    assert.deepEqual(
      progress.map((p) => [p.progress, p.total]),
      [
        [1, 4],
        [2, 4],
        [3, 4],
        [4, 4],
      ],
    );
  });

  it('reports long_task progress as MGP progress and MCP progress', async () => {
    const result = await call(peer, 'long_task', { steps: 3, delay_ms: 10 }, {}, () => undefined);
    assert.equal(text(result), 'Step 1/3 done\nStep 2/3 done\nStep 3/3 done\n');
    assert.equal(result._mgp, undefined);
    const progress = of(peer, 'stream.progress').filter(
      (p) => p.request_id === callId(peer, 'long_task'),
    );
    assert.deepEqual(
      progress.map((p) => [p.progress, p.message, p.estimated_remaining_ms]),
      [
        [1 / 3, 'Step 1 of 3', 20],
        [2 / 3, 'Step 2 of 3', 10],
        [1, 'Step 3 of 3', 0],
      ],
    );
    assert.deepEqual(
      mcpProgress(peer, callId(peer, 'long_task')).map((p) => p.progress),
      [1, 2, 3],
    );
  });

  it('does not stream when streaming was not negotiated', async () => {
    const plain = await mgpPeer(['security']);
    try {
      const result = await call(
        plain,
        'stream_text',
        { text: TEXT, delay_ms: 0 },
        { _mgp: { stream: true } },
      );
      assert.equal(text(result), TEXT);
      assert.equal(result._mgp, undefined);
      assert.equal(plain.notifications.length, 0);
    } finally {
      await plain.client.close();
    }
  });
});

describe('interop: example server, cancellation (§12.7)', () => {
  let peer: Peer;
  before(async () => (peer = await mgpPeer()));
  after(async () => peer?.client.close());

  it('stops a stream, answers with the partial result, then answers the call with it', async () => {
    const pending = call(
      peer,
      'stream_text',
      { words: 500, delay_ms: 20 },
      { _mgp: { stream: true } },
    );
    const id = await waitFor(() => callId(peer, 'stream_text'), 'the tools/call id');
    await waitFor(() => of(peer, 'stream.chunk').length >= 3, 'three chunks');
    const cancel = await request(peer, 'mgp/stream/cancel', {
      request_id: id,
      reason: 'user_cancelled',
    });
    const result = await pending;
    assert.equal(cancel.cancelled, true);
    const partial = cancel.partial_result.content[0].text as string;
    assert.ok(partial.startsWith('lorem ipsum dolor'), partial);
    assert.equal(text(result), partial);
    assert.equal(result._mgp.streamed, true);
    assert.equal(result._mgp.cancelled, true);
    assert.equal(result._mgp.chunks_sent, of(peer, 'stream.chunk').length);
    assert.ok(result._mgp.chunks_sent < 500);
    const responses = peer.transport.received
      .filter((m) => 'id' in m && 'result' in m)
      .map((m) => (m as { id: number }).id);
    assert.ok(
      responses.indexOf(id) > responses.length - 2,
      'the call is answered after the cancel',
    );
  });

  it('cancels a long_task that does not stream', async () => {
    const pending = call(peer, 'long_task', { steps: 100, delay_ms: 20 });
    const id = await waitFor(() => callId(peer, 'long_task'), 'the tools/call id');
    await waitFor(
      () =>
        of(peer, 'stream.progress').some(
          (p) => p.request_id === id && (p.progress as number) >= 0.02,
        ),
      'two steps',
    );
    const cancel = await request(peer, 'mgp/stream/cancel', { request_id: id, reason: 'timeout' });
    const result = await pending;
    assert.match(cancel.partial_result.content[0].text, /^Step 1\/100 done\nStep 2\/100 done\n/);
    assert.deepEqual(
      [result._mgp.streamed, result._mgp.cancelled, result._mgp.chunks_sent],
      [false, true, 0],
    );
    assert.equal(text(result), cancel.partial_result.content[0].text);
  });

  it('answers { cancelled: false } for an unknown or finished request', async () => {
    assert.deepEqual(
      await request(peer, 'mgp/stream/cancel', { request_id: 987654, reason: 'user_cancelled' }),
      { cancelled: false },
    );
    await call(peer, 'echo', { text: 'done' });
    assert.deepEqual(
      await request(peer, 'mgp/stream/cancel', { request_id: callId(peer, 'echo') as number }),
      { cancelled: false },
    );
  });
});

describe('interop: example server, callbacks (§13.4)', () => {
  let peer: Peer;
  before(async () => (peer = await mgpPeer()));
  after(async () => peer?.client.close());
  const lastRequest = () => of(peer, 'callback.request').at(-1) as Json;

  it('asks for a confirmation and returns the answer', async () => {
    peer.answer = () => 'confirm';
    const result = await call(peer, 'ask_user', {
      type: 'confirmation',
      message: 'Delete 15 files?',
      timeout_ms: 5000,
    });
    assert.deepEqual(result.structuredContent, { response: 'confirm' });
    const sent = lastRequest();
    assert.deepEqual(sent, {
      callback_id: sent.callback_id,
      request_id: callId(peer, 'ask_user'),
      type: 'confirmation',
      message: 'Delete 15 files?',
      options: ['confirm', 'cancel'],
      timeout_ms: 5000,
    });
    assert.deepEqual(peer.respondAcks.at(-1), { acknowledged: true });
  });

  it('asks for input and for a selection', async () => {
    peer.answer = (req) => (req.type === 'input' ? 'typed text' : (req.options as string[])[1]);
    assert.deepEqual(
      (await call(peer, 'ask_user', { type: 'input', message: 'Name?' })).structuredContent,
      { response: 'typed text' },
    );
    assert.equal(lastRequest().timeout_ms, 60000);
    const selected = await call(peer, 'ask_user', {
      type: 'selection',
      message: 'Pick',
      options: ['red', 'blue'],
    });
    assert.deepEqual(selected.structuredContent, { response: 'blue' });
    assert.deepEqual(lastRequest().options, ['red', 'blue']);
    assert.equal(
      (await call(peer, 'ask_user', { type: 'selection', message: 'Pick' })).isError,
      true,
    );
  });

  it('sends a notification and returns at once, expecting no answer', async () => {
    peer.answer = () => assert.fail('a notification needs no answer');
    const result = await call(peer, 'ask_user', { type: 'notification', message: 'FYI' });
    assert.equal(result.structuredContent.notified, true);
    assert.deepEqual(Object.keys(lastRequest()).sort(), [
      'callback_id',
      'message',
      'request_id',
      'type',
    ]);
  });

  it('asks for an llm_completion with messages, model hints and no tools, and reports token usage', async () => {
    const answer = {
      content: 'Paris',
      model: 'test-model',
      usage: { prompt_tokens: 12, completion_tokens: 1 },
      tool_calls: [],
    };
    peer.answer = () => answer;
    const result = await call(peer, 'ask_user', {
      type: 'llm_completion',
      message: 'Capital of France?',
      model_hints: { speed_priority: 0.7 },
    });
    assert.equal(text(result), 'Paris');
    assert.deepEqual(result.structuredContent, { response: answer });
    const sent = lastRequest();
    assert.deepEqual(
      [sent.messages, sent.model_hints, sent.tools, sent.timeout_ms],
      [[{ role: 'user', content: 'Capital of France?' }], { speed_priority: 0.7 }, [], 120000],
    );
    const usage = of(peer, 'event').find((e) => e.channel === 'model.token_usage') as Json;
    assert.deepEqual(usage.data, {
      prompt_tokens: 12,
      completion_tokens: 1,
      model: 'test-model',
      callback_id: sent.callback_id,
    });
  });

  it('says it timed out when no answer comes, and does not acknowledge a late one', async () => {
    peer.answer = undefined;
    const result = await call(peer, 'ask_user', {
      type: 'confirmation',
      message: 'Anyone?',
      timeout_ms: 100,
    });
    assert.equal(result.isError, undefined);
    assert.deepEqual(result.structuredContent, { timed_out: true });
    const late = await request(peer, 'mgp/callback/respond', {
      callback_id: lastRequest().callback_id,
      response: 'confirm',
    });
    assert.deepEqual(late, { acknowledged: false });
  });

  it('refuses when the client did not negotiate bidirectional', async () => {
    const other = await mgpPeer(['security']);
    try {
      const result = await call(other, 'ask_user', { type: 'confirmation', message: 'x' });
      assert.equal(result.isError, true);
      assert.match(text(result), /bidirectional/);
      assert.equal(other.notifications.length, 0);
    } finally {
      await other.client.close();
    }
  });
});

describe('interop: example server, events (§13.3) and audit intake (§6.3)', () => {
  let peer: Peer;
  before(async () => (peer = await mgpPeer(ALL_EXTENSIONS, ['--heartbeat-ms', '50'])));
  after(async () => peer?.client.close());

  it('emits an event on demand, without a subscription id', async () => {
    await call(peer, 'emit_event', {
      channel: 'security.alert',
      severity: 'error',
      data: { reason: 'test' },
    });
    const event = of(peer, 'event').find((e) => e.channel === 'security.alert') as Json;
    assert.deepEqual(Object.keys(event).sort(), ['channel', 'data', 'severity', 'timestamp']);
    assert.deepEqual([event.severity, event.data], ['error', { reason: 'test' }]);
    assert.ok(!Number.isNaN(Date.parse(event.timestamp)));
  });

  it('emits tool.completed after each call, before its answer', async () => {
    await call(peer, 'echo', { text: 'x' });
    const done = of(peer, 'event')
      .filter((e) => e.channel === 'tool.completed')
      .at(-1) as Json;
    assert.equal(done.severity, 'info');
    assert.deepEqual(
      [done.data.tool, done.data.request_id, done.data.is_error],
      ['echo', callId(peer, 'echo'), false],
    );
    await call(peer, 'broken').catch(() => undefined);
    const failed = of(peer, 'event')
      .filter((e) => e.channel === 'tool.completed')
      .at(-1) as Json;
    assert.deepEqual(
      [failed.severity, failed.data.tool, failed.data.error_code],
      ['warning', 'broken', 5000],
    );
  });

  it('beats system.heartbeat with --heartbeat-ms', async () => {
    const beats = await waitFor(() => {
      const found = of(peer, 'event').filter((e) => e.channel === 'system.heartbeat');
      return found.length >= 2 && found;
    }, 'two heartbeats');
    assert.deepEqual([(beats[0].data as Json).beat, (beats[1].data as Json).beat], [1, 2]);
  });

  it('keeps the audit events the client sends and shows them with audit_received', async () => {
    for (let i = 1; i <= 3; i += 1) {
      await peer.client.notification({
        method: 'notifications/mgp.audit',
        params: {
          timestamp: new Date().toISOString(),
          trace_id: `t-${i}`,
          event_type: 'TOOL_EXECUTED',
          result: 'SUCCESS',
        },
      });
    }
    const result = await call(peer, 'audit_received', { last: 2 });
    assert.equal(result.structuredContent.received, 3);
    assert.equal(result.structuredContent.audit_negotiated, true);
    assert.deepEqual(
      result.structuredContent.events.map((e: Json) => e.trace_id),
      ['t-2', 't-3'],
    );
  });

  it('keeps only the last 1,000 audit events', async () => {
    for (let i = 4; i <= 1005; i += 1)
      await peer.client.notification({
        method: 'notifications/mgp.audit',
        params: { trace_id: `t-${i}` },
      });
    const result = await call(peer, 'audit_received', { last: 1000 });
    assert.deepEqual(
      [result.structuredContent.received, result.structuredContent.kept],
      [1005, 1000],
    );
    assert.deepEqual(
      [
        result.structuredContent.events[0].trace_id,
        result.structuredContent.events.at(-1).trace_id,
      ],
      ['t-6', 't-1005'],
    );
  });

  it('sends no events without bidirectional', async () => {
    const quiet = await mgpPeer(['audit'], ['--heartbeat-ms', '20']);
    try {
      await call(quiet, 'echo', { text: 'x' });
      assert.equal((await call(quiet, 'emit_event', { channel: 'tool.completed' })).isError, true);
      // A task that waits 80 ms on the server's own timer: the 20 ms heartbeat timer, due earlier,
      // runs first, so any beat it sent arrives before this answer.
      await call(quiet, 'long_task', { steps: 1, delay_ms: 80 });
      assert.equal(of(quiet, 'event').length, 0);
    } finally {
      await quiet.client.close();
    }
  });
});
