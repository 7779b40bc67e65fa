/**
 * MGP Tier 3 (§17.5): health and lifecycle (§11), streaming with progress and cancel (§12), events
 * and callbacks (§13), and the server's advertisement for discovery (§15.3). Tier 4: dynamic tool
 * discovery (§16), where the server takes part.
 */
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { SERVER_ID } from '@shared/schemas/vocabulary';
import type { ListedTool } from '../../connection/toolResults';
import {
  callableTools,
  callTool,
  type Check,
  type CheckContext,
  describeOutcome,
  exchangeOf,
  fail,
  missing,
  type Outcome,
  pass,
  request,
  shown,
  skipped,
} from '../context';
import type { Notice, Probe } from '../probe';
import { PLAIN_MCP } from './tier1';

function needs(context: CheckContext, extension: string, advice: string) {
  if (!context.serverMgp) return missing(PLAIN_MCP);
  if (!context.negotiated.has(extension))
    return missing(`the server does not list the "${extension}" extension`, advice);
  return undefined;
}

const STATES = [
  'registered',
  'connecting',
  'connected',
  'draining',
  'disconnected',
  'error',
  'restarting',
];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)$/;
const HEALTH_MS = 5000;

const sameId = (a: unknown, b: RequestId | undefined) => b !== undefined && String(a) === String(b);

function noticesOf(probe: Probe, method: string): Notice[] {
  return probe.notices.filter((notice) => notice.method === method);
}

const lifecycle: Check = {
  id: 'mgp.lifecycle',
  tier: 3,
  title: 'Health and lifecycle',
  section: 'MGP §11.3, §11.5',
  extension: '§11 Lifecycle',
  timeoutMs: HEALTH_MS + 2000,
  async run(context) {
    const absent = needs(
      context,
      'lifecycle',
      'list "lifecycle", answer ping within 5 s, announce state changes',
    );
    if (absent) return absent;
    const mgp = context.mgp!;
    const started = Date.now();
    const ping = await request(mgp, 'ping', {}, HEALTH_MS);
    if (ping.kind !== 'result')
      return fail({
        detail: `the health check (ping) was not answered within ${HEALTH_MS / 1000} s`,
        expected:
          "an answer within 5 seconds: mgp.health.ping is the kernel's ping of the server (§11.3 MUST)",
        received: describeOutcome(ping),
        exchange: exchangeOf(mgp, ping.id),
      });
    const problems: string[] = [];
    for (const { params } of noticesOf(mgp, 'notifications/mgp.lifecycle')) {
      if (!STATES.includes(params.new_state as string))
        problems.push(`new_state ${shown(params.new_state)} is not a §11.2 state`);
      if (params.previous_state !== undefined && !STATES.includes(params.previous_state as string))
        problems.push(`previous_state ${shown(params.previous_state)} is not a §11.2 state`);
      if (typeof params.timestamp !== 'string' || !ISO.test(params.timestamp))
        problems.push(`timestamp ${shown(params.timestamp)} is not ISO 8601`);
    }
    if (problems.length)
      return fail({
        detail: 'a notifications/mgp.lifecycle is malformed',
        expected:
          '{ server_id, previous_state, new_state, reason, timestamp } with §11.2 states (§11.5)',
        received: problems.slice(0, 4).join('; '),
      });
    const seen = noticesOf(mgp, 'notifications/mgp.lifecycle').length;
    return pass(
      `answers the health check in ${Date.now() - started} ms${seen ? `; ${seen} lifecycle notification${seen === 1 ? '' : 's'} well formed` : ''}`,
    );
  },
};

interface Streamed {
  outcome: Outcome;
  chunks: Notice[];
}

async function streamCall(
  mgp: Probe,
  tool: ListedTool,
  args: Record<string, unknown>,
  timeoutMs: number,
): Promise<Streamed> {
  const from = mgp.notices.length;
  const outcome = await callTool(mgp, tool, args, { mgp: { stream: true }, timeoutMs });
  const chunks = mgp.notices
    .slice(from)
    .filter(
      (notice) =>
        notice.method === 'notifications/mgp.stream.chunk' &&
        sameId(notice.params.request_id, outcome.id),
    );
  return { outcome, chunks };
}

function chunkProblems({ outcome, chunks }: Streamed): string[] {
  const problems: string[] = [];
  const indices = new Set<number>();
  for (const { params } of chunks) {
    const index = params.index;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0)
      problems.push(`chunk index ${shown(index)} is not an integer ≥ 0`);
    else indices.add(index);
    const content = params.content as { type?: unknown } | undefined;
    if (typeof content !== 'object' || content === null || typeof content.type !== 'string')
      problems.push(`chunk content ${shown(content)} is not a content block`);
    if (params.done !== undefined && typeof params.done !== 'boolean')
      problems.push(`chunk done ${shown(params.done)} is not a boolean`);
  }
  for (let i = 0; i < indices.size; i++)
    if (!indices.has(i)) {
      problems.push(`chunk indices ${[...indices].sort((a, b) => a - b).join(', ')} skip ${i}`);
      break;
    }
  if (outcome.kind === 'result') {
    const meta = (outcome.result as { _mgp?: Record<string, unknown> })._mgp;
    if (meta?.streamed !== true)
      problems.push(`the final result's _mgp is ${shown(meta)}, without streamed: true (§12.5)`);
    else if (meta.chunks_sent !== undefined && meta.chunks_sent !== indices.size)
      problems.push(
        `_mgp.chunks_sent is ${shown(meta.chunks_sent)} but ${indices.size} chunks came`,
      );
  }
  return problems;
}

/** Chunks first: tools whose words say they stream are tried before the others. */
function streamingFirst(tools: { tool: ListedTool; args: Record<string, unknown> }[]) {
  const says = (tool: ListedTool) =>
    /stream|chunk|progress|long/i.test(`${tool.name} ${tool.description ?? ''}`);
  return [...tools].sort((a, b) => Number(says(b.tool)) - Number(says(a.tool)));
}

const MAX_TRIED = 6;

async function cancelCheck(
  mgp: Probe,
  tool: ListedTool,
  args: Record<string, unknown>,
  timeoutMs: number,
): Promise<{ problem?: string; outcome?: Outcome; note: string }> {
  let sentId: RequestId | undefined;
  let idKnown!: (id: RequestId) => void;
  const known = new Promise<RequestId>((resolve) => (idKnown = resolve));
  const call = callTool(mgp, tool, args, { mgp: { stream: true }, timeoutMs }, (id) => {
    sentId = id;
    idKnown(id);
  });
  const id = await known;
  const first = await mgp.waitFor(
    (notice) =>
      notice.method === 'notifications/mgp.stream.chunk' && sameId(notice.params.request_id, id),
    timeoutMs,
  );
  if (!first) return { note: 'no chunk came to cancel after' };
  const cancelled = await request(
    mgp,
    'mgp/stream/cancel',
    { request_id: sentId, reason: 'user_cancelled' },
    timeoutMs,
  );
  const ended = await call;
  if (cancelled.kind !== 'result')
    return {
      problem: `mgp/stream/cancel was answered with ${describeOutcome(cancelled)}`,
      outcome: cancelled,
      note: '',
    };
  const flag = (cancelled.result as { cancelled?: unknown }).cancelled;
  if (typeof flag !== 'boolean')
    return {
      problem: `mgp/stream/cancel answered ${shown(cancelled.result)}, without cancelled: true|false`,
      outcome: cancelled,
      note: '',
    };
  if (flag && ended.kind === 'timeout')
    return { problem: 'the cancelled call never ended', outcome: ended, note: '' };
  return {
    note: flag ? 'a cancel mid-stream ended the call' : 'the call had finished before the cancel',
  };
}

const streaming: Check = {
  id: 'mgp.streaming',
  tier: 3,
  title: 'Streaming with progress and cancel',
  section: 'MGP §12.3–12.7',
  extension: '§12 Streaming',
  async run(context) {
    const absent = needs(
      context,
      'streaming',
      'list "streaming" and send notifications/mgp.stream.chunk when a call asks for a stream',
    );
    if (absent) return absent;
    const mgp = context.mgp!;
    const timeoutMs = context.options.checkTimeoutMs;
    const { callable, left } = callableTools(context, context.mgpTools ?? []);
    const ordered = streamingFirst(callable).slice(0, MAX_TRIED);
    for (const { tool, args } of ordered) {
      const streamed = await streamCall(mgp, tool, args, timeoutMs);
      if (!streamed.chunks.length) continue;
      const problems = chunkProblems(streamed);
      if (problems.length)
        return fail({
          detail: `${tool.name} streamed, but not as §12.4–12.5 say`,
          expected:
            'chunks { request_id, index 0.., content, done } and a final result with _mgp.streamed: true and chunks_sent',
          received: problems.slice(0, 4).join('; '),
          exchange: exchangeOf(mgp, streamed.outcome.id),
        });
      const progress = noticesOf(mgp, 'notifications/mgp.stream.progress').filter(
        ({ params }) =>
          typeof params.progress !== 'number' || params.progress < 0 || params.progress > 1,
      );
      if (progress.length)
        return fail({
          detail: 'a notifications/mgp.stream.progress has a progress outside 0..1',
          expected: 'progress a fraction from 0 to 1 (§12.6)',
          received: shown(progress[0].params),
        });
      const cancel = await cancelCheck(mgp, tool, args, timeoutMs);
      if (cancel.problem)
        return fail({
          detail: `mgp/stream/cancel of a streaming ${tool.name} call did not work`,
          expected: 'a result { cancelled: true, partial_result } and the call ending (§12.7)',
          received: cancel.problem,
          exchange: cancel.outcome && exchangeOf(mgp, cancel.outcome.id),
        });
      return pass(`${tool.name} streamed ${streamed.chunks.length} chunks; ${cancel.note}`);
    }
    if (ordered.length < (context.mgpTools ?? []).length)
      return skipped(
        `none of the ${ordered.length} tools tried streamed; the others were not tried (${left.slice(0, 3).join('; ')}${ordered.length === MAX_TRIED ? `; only ${MAX_TRIED} are tried` : ''})`,
        'run with --allow-dangerous to let the validator call more tools',
      );
    return fail({
      detail:
        'the server lists the streaming extension, but no tool streamed when the call asked for it',
      expected:
        'notifications/mgp.stream.chunk for a tools/call with _mgp.stream: true (§12.3–12.4)',
      received: `no chunk from ${ordered.map(({ tool }) => tool.name).join(', ') || 'any tool'}`,
      exchange: ordered.length
        ? context.mgp && exchangeOfLast(context.mgp, 'tools/call')
        : undefined,
      advice: 'stream at least one tool, or stop listing "streaming"',
    });
  },
};

function exchangeOfLast(probe: Probe, method: string) {
  const sent = probe.lastSent(method);
  return sent && 'id' in sent ? exchangeOf(probe, sent.id) : undefined;
}

const CALLBACK_TYPES = ['confirmation', 'input', 'selection', 'notification', 'llm_completion'];
const CHANNEL_PATTERNS = /^(model|system|tool|security)\./;

const bidirectional: Check = {
  id: 'mgp.bidirectional',
  tier: 3,
  title: 'Events and callbacks',
  section: 'MGP §13.3–13.5',
  extension: '§13 Bidirectional',
  async run(context) {
    const absent = needs(
      context,
      'bidirectional',
      'list "bidirectional" and publish events as notifications/mgp.event',
    );
    if (absent) return absent;
    const mgp = context.mgp!;
    const events = noticesOf(mgp, 'notifications/mgp.event');
    const callbacks = noticesOf(mgp, 'notifications/mgp.callback.request');
    const problems: string[] = [];
    for (const { params } of events) {
      if (typeof params.channel !== 'string' || !CHANNEL_PATTERNS.test(params.channel))
        problems.push(
          `event channel ${shown(params.channel)} is not within model.*, system.*, tool.* or security.* (§13.5)`,
        );
      if (typeof params.timestamp !== 'string' || !ISO.test(params.timestamp))
        problems.push(`event timestamp ${shown(params.timestamp)} is not ISO 8601`);
      if (typeof params.data !== 'object' || params.data === null)
        problems.push(`event data ${shown(params.data)} is not an object`);
    }
    for (const { params } of callbacks) {
      if (typeof params.callback_id !== 'string')
        problems.push(`callback_id ${shown(params.callback_id)} is not a string`);
      if (!CALLBACK_TYPES.includes(params.type as string))
        problems.push(
          `callback type ${shown(params.type)} is not one of ${CALLBACK_TYPES.join(', ')}`,
        );
    }
    if (problems.length)
      return fail({
        detail: 'an event or callback the server sent is malformed',
        expected:
          'notifications/mgp.event { channel, timestamp, data } and callback requests { callback_id, type } (§13.3, §13.4)',
        received: problems.slice(0, 4).join('; '),
      });
    if (!events.length && !callbacks.length)
      return skipped(
        'the server lists bidirectional, but sent no event or callback during the run: nothing to judge',
      );
    return pass(
      `${events.length} event${events.length === 1 ? '' : 's'} (${[...new Set(events.map((e) => String(e.params.channel)))].join(', ') || 'none'}) and ${callbacks.length} callback${callbacks.length === 1 ? '' : 's'} well formed`,
    );
  },
};

const discovery: Check = {
  id: 'mgp.discovery',
  tier: 3,
  title: 'Advertised for discovery',
  section: 'MGP §15.3, §2.3',
  extension: '§15 Discovery',
  async run(context) {
    if (!context.serverMgp) return missing(PLAIN_MCP);
    const id = context.serverMgp.server_id;
    if (id === undefined)
      return missing(
        "capabilities.mgp has no server_id: the registry (§15.4) has no id of the server's own to list it under",
        'give server_id in capabilities.mgp (with the server kit: enableMgp(server, { serverId }))',
      );
    if (typeof id !== 'string' || !SERVER_ID.test(id))
      return fail({
        detail: 'server_id is not an id',
        expected: 'a string of letters, digits, ".", "_" and "-" (§2.3, §15.2)',
        received: shown(id),
      });
    return pass(`advertises itself as "${id}" with its extensions and permissions at initialize`);
  },
};

const toolDiscovery: Check = {
  id: 'mgp.tool-discovery',
  tier: 4,
  title: 'Tools described for dynamic discovery',
  section: 'MGP §16.2, §16.4',
  extension: '§16 Tool Discovery',
  async run(context) {
    const absent = needs(
      context,
      'tool_discovery',
      'list "tool_discovery" and describe every tool so the kernel\'s index finds it',
    );
    if (absent) return absent;
    const problems: string[] = [];
    for (const tool of context.mgpTools ?? []) {
      if (!tool.description?.trim()) problems.push(`${tool.name} has no description to search`);
      const extra = tool as Record<string, unknown>;
      for (const field of ['categories', 'keywords'])
        if (
          extra[field] !== undefined &&
          !(
            Array.isArray(extra[field]) &&
            (extra[field] as unknown[]).every((x) => typeof x === 'string')
          )
        )
          problems.push(`${tool.name}: ${field} is not a list of words`);
      if (
        extra.embedding !== undefined &&
        !(
          Array.isArray(extra.embedding) &&
          (extra.embedding as unknown[]).every((x) => typeof x === 'number')
        )
      )
        problems.push(`${tool.name}: embedding is not a list of numbers`);
    }
    if (problems.length)
      return fail({
        detail: "tools are not described so that the kernel's tool index can find them",
        expected:
          'a description on every tool; categories and keywords lists of words; embedding numbers (§16.4)',
        received: problems.slice(0, 6).join('; '),
      });
    return pass(
      `${(context.mgpTools ?? []).length} tools described for keyword and category search`,
    );
  },
};

export const TIER3_CHECKS: readonly Check[] = [lifecycle, streaming, bidirectional, discovery];
export const TIER4_CHECKS: readonly Check[] = [toolDiscovery];
