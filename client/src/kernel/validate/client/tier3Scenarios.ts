/**
 * Client scenarios of MGP Tier 3 (§17.5): the client checks a server's health when asked (§11.3),
 * asks for a stream and cancels it with `mgp/stream/cancel` (§12.3, §12.7), and delivers the
 * events a server pushes with `notifications/mgp.event` (§13.3).
 */
import { randomUUID } from 'node:crypto';
import { fail, pass, shown } from '../context';
import { allCalls, exchangeOf, notOffered, safeTool, sessionsWith, text } from './observe';
import { PROBE_SERVER_ID } from './probeServer';
import type { ClientCheck, ClientScenario } from './scenario';

const health: ClientCheck = {
  id: 'mgp.client.health',
  tier: 3,
  title: 'Health check of a server',
  section: 'MGP §11.3',
  extension: '§11 Lifecycle',
  judge(seen) {
    const absent = notOffered(seen, 'lifecycle', 'offer "lifecycle" and check servers\' health');
    if (absent) return absent;
    const pinged = sessionsWith(seen, 'lifecycle').find((s) => s.requests('ping').length);
    if (!pinged)
      return fail({
        detail: `the client was asked for the health of ${PROBE_SERVER_ID} and sent it no ping`,
        expected: 'a liveness check of the server (MCP ping), answered within 5 s (MGP §11.3)',
        received: `requests: ${seen.sessions.flatMap((s) => s.messages.filter((m) => m.direction === 'in' && 'method' in m.message && 'id' in m.message).map((m) => ('method' in m.message ? m.message.method : ''))).join(', ') || 'none'}`,
      });
    return pass(`the client checked ${PROBE_SERVER_ID}'s health with ping, answered at once`);
  },
};

export const HEALTH_SCENARIO: ClientScenario = {
  name: 'mgp-health',
  context: { ask: 'check the health of the server', server_id: PROBE_SERVER_ID },
  tools: () => [safeTool('echo', 'Echo a fixed text', 'echo')],
  checks: [health],
};

const STREAM_TOOL = 'count_slowly';
const CHUNK_EVERY_MS = 100;
const MOST_CHUNKS = 100;

const streaming: ClientCheck = {
  id: 'mgp.client.streaming',
  tier: 3,
  title: 'Streaming asked for, and cancelled',
  section: 'MGP §12.3, §12.7',
  extension: '§12 Streaming',
  judge(seen) {
    const absent = notOffered(seen, 'streaming', 'offer "streaming", ask with _mgp.stream');
    if (absent) return absent;
    const calls = allCalls(seen, STREAM_TOOL).filter(({ session }) => session.active('streaming'));
    if (!calls.length)
      return fail({
        detail: `the client was asked to call ${STREAM_TOOL} with a stream and did not call it`,
        expected: `tools/call ${STREAM_TOOL} with _mgp: { stream: true }`,
        received: 'no call',
      });
    const streamed = calls.find(
      ({ call }) => (call.params._mgp as { stream?: unknown } | undefined)?.stream === true,
    );
    if (!streamed)
      return fail({
        detail: `the call of ${STREAM_TOOL} did not ask for a stream`,
        expected: '_mgp: { stream: true } in the tools/call params (MGP §12.3)',
        received: shown(calls[0].call.params),
        exchange: exchangeOf(calls[0].session, calls[0].call.id),
      });
    const { session, call } = streamed;
    const chunks = session
      .sentNotifications('notifications/mgp.stream.chunk')
      .filter((chunk) => chunk.params.request_id === call.id);
    const cancel = session
      .requests('mgp/stream/cancel')
      .find((request) => request.params.request_id === call.id);
    if (!cancel) {
      const other = session.requests('mgp/stream/cancel')[0];
      return fail({
        detail: other
          ? `mgp/stream/cancel named request_id ${shown(other.params.request_id)}, not the call's ${shown(call.id)}`
          : `the client received ${chunks.length === 1 ? '1 chunk' : `${chunks.length} chunks`} and never sent mgp/stream/cancel`,
        expected: `mgp/stream/cancel { request_id: ${shown(call.id)} } once the first chunk came (MGP §12.7)`,
        received: other ? shown(other.params) : 'no cancel',
        exchange: exchangeOf(session, (other ?? call).id),
      });
    }
    const before = chunks.filter((chunk) => chunk.at <= cancel.at).length;
    return pass(
      `asked for a stream, got ${before === 1 ? '1 chunk' : `${before} chunks`}, then cancelled it with mgp/stream/cancel naming the call`,
    );
  },
};

export const STREAMING_SCENARIO: ClientScenario = {
  name: 'mgp-streaming-cancel',
  context: {
    ask: `call ${STREAM_TOOL} with a stream and cancel it once the first chunk has come`,
    tool: STREAM_TOOL,
  },
  tools: () => [
    {
      name: STREAM_TOOL,
      description: 'Count slowly; streams each number when asked to (MGP §12)',
      inputSchema: { type: 'object', properties: {} },
      security: { risk_level: 'safe' },
      annotations: { readOnlyHint: true },
      async run({ session, requestId, mgp, notify, signal }) {
        if (mgp.stream !== true) return text('1 2 3');
        const key = String(requestId);
        const parts: string[] = [];
        let cancelled = false;
        const stop = new AbortController();
        session.streams.set(key, {
          cancel: () => {
            cancelled = true;
            stop.abort();
          },
          partial: () => parts.join(''),
        });
        const pause = () =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, CHUNK_EVERY_MS);
            const wake = () => (clearTimeout(timer), resolve());
            stop.signal.addEventListener('abort', wake, { once: true });
            signal.addEventListener('abort', wake, { once: true });
          });
        try {
          for (let index = 0; index < MOST_CHUNKS && !cancelled && !signal.aborted; index++) {
            const part = `${index + 1} `;
            parts.push(part);
            await notify('notifications/mgp.stream.chunk', {
              request_id: requestId,
              index,
              content: { type: 'text', text: part },
              done: false,
            });
            await pause();
          }
        } finally {
          session.streams.delete(key);
        }
        return {
          content: [{ type: 'text', text: parts.join('') }],
          _mgp: { streamed: true, chunks_sent: parts.length, cancelled },
        };
      },
    },
  ],
  checks: [streaming],
};

const EVENT_CHANNEL = 'probe.heartbeat';
const ACK_TOOL = 'acknowledge_event';
const EVENT_EVERY_MS = 200;

const events: ClientCheck = {
  id: 'mgp.client.events',
  tier: 3,
  title: 'Events delivered to a subscriber',
  section: 'MGP §13.2, §13.3',
  extension: '§13 Bidirectional',
  judge(seen) {
    const absent = notOffered(seen, 'bidirectional', 'offer "bidirectional" and deliver events');
    if (absent) return absent;
    const sent = sessionsWith(seen, 'bidirectional').flatMap((s) =>
      s.sentNotifications('notifications/mgp.event'),
    );
    const acks = allCalls(seen, ACK_TOOL);
    const token = seen.facts.token;
    if (!acks.length)
      return fail({
        detail: `the probe pushed ${sent.length} notifications/mgp.event on ${EVENT_CHANNEL} and the client never acknowledged one`,
        expected: `a subscription to ${EVENT_CHANNEL}, then ${ACK_TOOL} called with the event's data.token`,
        received: sent.length ? 'no acknowledgement' : 'no session the probe could push to',
      });
    const right = acks.find(
      ({ call }) => (call.params.arguments as { token?: unknown })?.token === token,
    );
    if (!right)
      return fail({
        detail: `${ACK_TOOL} was called without the token of the event the probe pushed`,
        expected: `token ${shown(token)} from notifications/mgp.event's data`,
        received: shown(acks[0].call.params.arguments),
        exchange: exchangeOf(acks[0].session, acks[0].call.id),
      });
    return pass(
      `an event pushed on ${EVENT_CHANNEL} reached the subscriber, which acknowledged its token`,
    );
  },
};

export const EVENTS_SCENARIO: ClientScenario = {
  name: 'mgp-events',
  context: {
    ask: `subscribe to ${EVENT_CHANNEL}, then call ${ACK_TOOL} with the data.token of the first event`,
    channel: EVENT_CHANNEL,
    tool: ACK_TOOL,
  },
  eventChannels: [EVENT_CHANNEL],
  facts: () => ({ token: randomUUID() }),
  // The probe cannot see a subscription made in the client, so it pushes until the session ends.
  initialized(session, push, facts) {
    if (!session.active('bidirectional')) return;
    const timer = setInterval(() => {
      push('notifications/mgp.event', {
        channel: EVENT_CHANNEL,
        timestamp: new Date().toISOString(),
        severity: 'info',
        data: { token: facts.token },
      }).catch(() => undefined);
    }, EVENT_EVERY_MS);
    session.onClose(() => clearInterval(timer));
  },
  tools: () => [
    {
      name: ACK_TOOL,
      description: 'Acknowledge an event by its token',
      inputSchema: {
        type: 'object',
        properties: { token: { type: 'string' } },
        required: ['token'],
      },
      security: { risk_level: 'safe' },
      annotations: { readOnlyHint: true },
      run: async () => text('acknowledged'),
    },
  ],
  checks: [events],
};
