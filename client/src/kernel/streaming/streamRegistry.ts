/**
 * MGP streaming (§12), client side: a call made with `_mgp.stream: true` is tracked by the JSON-RPC id
 * it went out with; `notifications/mgp.stream.chunk` are assembled by index, `…stream.progress` and
 * MCP progress update its progress, and `mgp/stream/cancel` stops it and keeps the partial result.
 * `…stream.progress` of a call not started as a stream (§12.6) goes to that call's progress listener.
 * The job events of the MCP draft (§4) a streamed call hears are kept with it, each id once.
 * Views follow the registry's events; they never see connections.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { ConnectionService, ServerSession } from '../connection/service';
import type { Determinism } from '../drafts/determinism';
import {
  JOB_EVENT_METHOD,
  type JobEvent,
  JobEventLog,
  jobEventRequest,
  parseJobEvent,
  type Phase,
} from '../drafts/jobEvents';
import type { MgpSessions } from '../mgp/mgpSessions';
import { ChunkAssembler, ChunkContent } from './chunkAssembler';

export type StreamState = 'running' | 'done' | 'cancelled' | 'error';

export interface StreamProgress {
  /** 0..1 when known. */
  fraction?: number;
  message?: string;
  estimatedRemainingMs?: number;
}

export interface StreamSnapshot {
  id: string;
  serverId: string;
  toolName: string;
  traceId: string;
  requestId?: RequestId;
  state: StreamState;
  startedAt: number;
  endedAt?: number;
  chunks: number;
  duplicates: number;
  outOfOrder: number;
  text: string;
  progress?: StreamProgress;
  error?: string;
  /** The server marked its final response `_mgp.streamed` (MGP §12.5). */
  confirmedStreamed?: boolean;
  /** MCP draft §4: the job events heard (the newest kept), counted by phase; replays dropped. */
  jobs?: {
    events: JobEvent[];
    phases: Record<Phase | 'none', number>;
    duplicates: number;
  };
  /** MCP draft §2: what the result (or else the newest event) says of its seed. */
  determinism?: Determinism;
}

export interface StreamEvents {
  started: [StreamSnapshot];
  text: [{ id: string; appended: string; chunks: number }];
  progress: [{ id: string; progress: StreamProgress }];
  ended: [StreamSnapshot];
  jobEvent: [{ id: string; event: JobEvent }];
}

export class ActiveStream {
  readonly assembler = new ChunkAssembler();
  readonly jobs = new JobEventLog();
  /** The result's §2 metadata, once it came. */
  resultDeterminism?: Determinism;
  requestId?: RequestId;
  state: StreamState = 'running';
  progress?: StreamProgress;
  error?: string;
  endedAt?: number;
  confirmedStreamed?: boolean;
  readonly startedAt = Date.now();
  /** Aborts the call itself (MCP notifications/cancelled) when the server cannot cancel a stream. */
  readonly abort = new AbortController();

  constructor(
    readonly id: string,
    readonly serverId: string,
    readonly toolName: string,
    readonly traceId: string,
  ) {}

  snapshot(): StreamSnapshot {
    const a = this.assembler;
    return {
      id: this.id,
      serverId: this.serverId,
      toolName: this.toolName,
      traceId: this.traceId,
      requestId: this.requestId,
      state: this.state,
      startedAt: this.startedAt,
      endedAt: this.endedAt,
      chunks: a.contiguous,
      duplicates: a.duplicates,
      outOfOrder: a.outOfOrder,
      text: a.text,
      progress: this.progress,
      error: this.error,
      confirmedStreamed: this.confirmedStreamed,
      ...(this.jobs.accepted || this.jobs.duplicates
        ? {
            jobs: {
              events: [...this.jobs.events],
              phases: { ...this.jobs.byPhase },
              duplicates: this.jobs.duplicates,
            },
          }
        : {}),
      ...(this.determinism ? { determinism: this.determinism } : {}),
    };
  }

  get determinism(): Determinism | undefined {
    return this.resultDeterminism ?? this.jobs.determinism;
  }
}

const RETAINED = 50;

/** MCP progress, as a caller of a plain call hears it. */
export type ProgressListener = (progress: {
  progress: number;
  total?: number;
  message?: string;
}) => void;

const requestKey = (serverId: string, requestId: unknown) =>
  `${serverId}\u0000${String(requestId)}`;

export class StreamRegistry extends EventEmitter<StreamEvents> {
  private readonly byRequest = new Map<string, ActiveStream>();
  /** Progress listeners of plain (not streamed) calls in flight, by server and request id. */
  private readonly plainCalls = new Map<string, ProgressListener>();
  private readonly streams = new Map<string, ActiveStream>();

  /** Takes the job events of the MCP draft (§4) off each connection. */
  readonly jobEventService: ConnectionService = {
    notification: (session, method, params) => {
      if (method !== JOB_EVENT_METHOD) return false;
      this.onJobEvent(session, params);
      return true;
    },
  };

  constructor(
    private readonly mgp: MgpSessions,
    private readonly session: (serverId: string) => ServerSession | undefined,
  ) {
    super();
    mgp.on('notifications/mgp.stream.chunk', (s, params) => this.onChunk(s.id, params));
    mgp.on('notifications/mgp.stream.progress', (s, params) => this.onProgress(s.id, params));
  }

  begin(serverId: string, toolName: string, traceId: string): ActiveStream {
    const stream = new ActiveStream(randomUUID(), serverId, toolName, traceId);
    this.streams.set(stream.id, stream);
    this.prune();
    this.emit('started', stream.snapshot());
    return stream;
  }

  /** Called as the tools/call is sent: chunks name this id as their request_id. */
  bind(stream: ActiveStream, requestId: RequestId): void {
    stream.requestId = requestId;
    this.byRequest.set(requestKey(stream.serverId, requestId), stream);
  }

  /** MGP §12.6: a plain call's progress, reported by request id, reaches its caller until released. */
  watchProgress(serverId: string, requestId: RequestId, listener: ProgressListener): () => void {
    const key = requestKey(serverId, requestId);
    this.plainCalls.set(key, listener);
    return () => {
      if (this.plainCalls.get(key) === listener) this.plainCalls.delete(key);
    };
  }

  get(id: string): ActiveStream | undefined {
    return this.streams.get(id);
  }

  list(): StreamSnapshot[] {
    return [...this.streams.values()].map((s) => s.snapshot());
  }

  private find(serverId: string, requestId: unknown): ActiveStream | undefined {
    return this.byRequest.get(requestKey(serverId, requestId));
  }

  private onChunk(serverId: string, params: Record<string, unknown>): void {
    const stream = this.find(serverId, params.request_id);
    if (!stream || stream.state !== 'running') return;
    const content = (
      typeof params.content === 'object' && params.content !== null
        ? params.content
        : { type: 'text', text: String(params.content ?? '') }
    ) as ChunkContent;
    try {
      const accepted = stream.assembler.accept(Number(params.index), content, params.done === true);
      if (accepted.appended)
        this.emit('text', {
          id: stream.id,
          appended: accepted.appended,
          chunks: stream.assembler.contiguous,
        });
    } catch (error) {
      this.session(serverId)?.log(
        'warning',
        `ignored a stream chunk: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** An event of a streamed call; one of a call that is not streamed, or has ended, is let go. */
  private onJobEvent(session: ServerSession, params: Record<string, unknown>): void {
    const stream = this.find(session.id, jobEventRequest(params));
    if (!stream || stream.state !== 'running') return;
    const event = parseJobEvent(params);
    if (typeof event === 'string') {
      session.log('warning', `ignored a job event: ${event}`);
      return;
    }
    if (stream.jobs.accept(event)) this.emit('jobEvent', { id: stream.id, event });
  }

  private onProgress(serverId: string, params: Record<string, unknown>): void {
    const fraction =
      typeof params.progress === 'number' && Number.isFinite(params.progress)
        ? Math.max(0, Math.min(1, params.progress))
        : undefined;
    const message = typeof params.message === 'string' ? params.message : undefined;
    const stream = this.find(serverId, params.request_id);
    if (!stream) {
      const listener = this.plainCalls.get(requestKey(serverId, params.request_id));
      if (listener && fraction !== undefined)
        listener({ progress: fraction, total: 1, ...(message ? { message } : {}) });
      return;
    }
    if (stream.state !== 'running') return;
    this.setProgress(stream, {
      fraction,
      message,
      estimatedRemainingMs:
        typeof params.estimated_remaining_ms === 'number'
          ? params.estimated_remaining_ms
          : undefined,
    });
  }

  /** MCP notifications/progress for the same call (progress/total), merged with the MGP kind. */
  mcpProgress(
    stream: ActiveStream,
    progress: { progress: number; total?: number; message?: string },
  ): void {
    const fraction = progress.total ? progress.progress / progress.total : undefined;
    const elapsed = Date.now() - stream.startedAt;
    const estimate =
      fraction && fraction > 0 && fraction < 1
        ? Math.round((elapsed / fraction) * (1 - fraction))
        : undefined;
    this.setProgress(stream, {
      fraction,
      message: progress.message,
      estimatedRemainingMs: stream.progress?.estimatedRemainingMs ?? estimate,
    });
  }

  private setProgress(stream: ActiveStream, progress: StreamProgress): void {
    stream.progress = {
      ...stream.progress,
      ...Object.fromEntries(Object.entries(progress).filter(([, v]) => v !== undefined)),
    };
    this.emit('progress', { id: stream.id, progress: stream.progress });
  }

  /**
   * `mgp/stream/cancel` (MGP §12.7): the server stops and returns what it had. Servers without
   * streaming get MCP's notifications/cancelled instead, and the text received so far is kept.
   */
  async cancel(
    id: string,
    reason = 'user_cancelled',
  ): Promise<{ cancelled: boolean; partial: string }> {
    const stream = this.streams.get(id);
    if (!stream || stream.state !== 'running')
      return { cancelled: false, partial: stream?.assembler.text ?? '' };
    const session = this.session(stream.serverId);
    let partial = stream.assembler.text;
    if (
      session &&
      stream.requestId !== undefined &&
      this.mgp.active(stream.serverId, 'streaming')
    ) {
      const answer = await session.connection
        .request('mgp/stream/cancel', { request_id: stream.requestId, reason })
        .catch(() => undefined);
      const content =
        (answer?.partial_result as { content?: ChunkContent[] } | undefined)?.content ?? [];
      const text = content
        .filter((c) => c.type === 'text')
        .map((c) => c.text ?? '')
        .join('');
      if (text.length > partial.length) partial = text;
      if (answer?.cancelled !== true) stream.abort.abort(new Error('cancelled by the user'));
    } else {
      stream.abort.abort(new Error('cancelled by the user'));
    }
    this.end(stream, 'cancelled');
    return { cancelled: true, partial };
  }

  end(stream: ActiveStream, state: StreamState, error?: string, confirmedStreamed?: boolean): void {
    if (stream.state !== 'running') return;
    stream.state = state;
    stream.error = error;
    stream.endedAt = Date.now();
    stream.confirmedStreamed = confirmedStreamed;
    if (stream.requestId !== undefined)
      this.byRequest.delete(`${stream.serverId}\u0000${String(stream.requestId)}`);
    this.emit('ended', stream.snapshot());
  }

  private prune(): void {
    const ended = [...this.streams.values()].filter((s) => s.state !== 'running');
    for (const stream of ended.slice(0, Math.max(0, ended.length - RETAINED)))
      this.streams.delete(stream.id);
  }
}
