import { newTraceId } from '../audit/auditEvent';
import type { Caller } from '../domain/caller';
import type { ActiveStream, StreamRegistry } from '../streaming/streamRegistry';
import type { ToolCallOutcome, ToolCallRequest } from './types';
import { determinismOf } from '../drafts/determinism';

export type StreamedCallRequest = Omit<ToolCallRequest, 'caller' | 'stream'> & { caller?: Caller };

type Call = (
  request: Omit<ToolCallRequest, 'caller'> & { caller?: Caller },
) => Promise<ToolCallOutcome>;

/**
 * A call whose output streams (MGP §12): chunks, progress and the end go through `streams`, and
 * `streams.cancel(stream.id)` stops it, keeping the partial result.
 */
export function streamedCall(
  streams: StreamRegistry,
  call: Call,
  request: StreamedCallRequest,
): { stream: ActiveStream; outcome: Promise<ToolCallOutcome> } {
  const traceId = request.traceId ?? newTraceId();
  const stream = streams.begin(request.serverId, request.toolName, traceId);
  const signal = request.signal
    ? AbortSignal.any([request.signal, stream.abort.signal])
    : stream.abort.signal;
  const outcome = call({
    ...request,
    traceId,
    signal,
    stream: { requestId: (id) => streams.bind(stream, id) },
    onProgress: (progress) => {
      streams.mcpProgress(stream, progress);
      request.onProgress?.(progress);
    },
  }).then(
    (result) => ended(streams, stream, result),
    (error: unknown) => {
      if (stream.state === 'cancelled') return cancelled(stream, request, traceId);
      streams.end(stream, 'error', error instanceof Error ? error.message : String(error));
      throw error;
    },
  );
  return { stream, outcome };
}

/** The call answered: a result that did not stream is shown whole, then the stream ends. */
function ended(
  streams: StreamRegistry,
  stream: ActiveStream,
  result: ToolCallOutcome,
): ToolCallOutcome {
  const finalText = (result.result.content ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('');
  if (!stream.assembler.text && finalText)
    streams.emit('text', { id: stream.id, appended: finalText, chunks: 0 });
  const mgp = (result.result as { _mgp?: { streamed?: boolean; cancelled?: boolean } })._mgp;
  stream.resultDeterminism = determinismOf(result.result);
  streams.end(stream, mgp?.cancelled ? 'cancelled' : 'done', undefined, mgp?.streamed === true);
  return result;
}

/** Cancelled by the person: the partial text is the result. */
function cancelled(
  stream: ActiveStream,
  request: StreamedCallRequest,
  traceId: string,
): ToolCallOutcome {
  const text = stream.assembler.text;
  return {
    result: { content: [{ type: 'text' as const, text }], _mgp: { cancelled: true } },
    traceId,
    serverId: request.serverId,
    toolName: request.toolName,
    attempts: 1,
    durationMs: Date.now() - stream.startedAt,
  };
}
