/** MGP Tier 3 (§17.5): streaming with progress and cancel (§12.3–12.7), driven as a kernel drives it. */
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { ListedTool } from '../../connection/toolResults';
import {
  callableTools,
  callTool,
  type Check,
  describeOutcome,
  exchangeOf,
  fail,
  type Outcome,
  pass,
  request,
  shown,
  skipped,
} from '../context';
import type { Notice, Probe } from '../probe';
import { exchangeOfLast, needs, noticesOf, sameId } from './tier3Shared';

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

export const streaming: Check = {
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
