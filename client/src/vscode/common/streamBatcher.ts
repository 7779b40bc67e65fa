/**
 * Batches stream events for a webview: a stream can send 10,000 chunks a second, a webview paints 60
 * frames. Text is accumulated per stream and progress keeps its latest value; the batch goes out at
 * most once per `intervalMs` (a frame). The first event after a quiet spell goes out on the next turn
 * of the event loop, so a slow stream is not delayed; a stream's start and end go out at once, after
 * what came before them. Pure: no `vscode`, timers injectable (tests, the benchmark's browser worker).
 */
import type { ProgressView } from '@shared/toolPanelMessages';
import type { JobEventView } from '@shared/draftViews';
import type { StreamUpdate, StreamView } from '@shared/streamMessages';

export interface BatcherClock {
  now(): number;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export const FRAME_MS = 16;

const realClock: BatcherClock = {
  now: () => performance.now(),
  setTimer: (callback, ms) => setTimeout(callback, ms),
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

type PendingText = { kind: 'text'; id: string; parts: string[]; chunks: number };
type Pending = Exclude<StreamUpdate, { kind: 'text' }> | PendingText;

export interface StreamBatcherOptions {
  intervalMs?: number;
  clock?: BatcherClock;
}

export class StreamBatcher {
  private pending: Pending[] = [];
  private readonly texts = new Map<string, PendingText>();
  private readonly progress = new Map<
    string,
    { kind: 'progress'; id: string; progress: ProgressView }
  >();
  private timer: unknown;
  private lastFlush = Number.NEGATIVE_INFINITY;
  private readonly intervalMs: number;
  private readonly clock: BatcherClock;
  /** Batches delivered and events taken in: for the benchmark and tests. */
  readonly stats = { batches: 0, events: 0 };

  constructor(
    private readonly deliver: (updates: StreamUpdate[]) => void,
    options: StreamBatcherOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? FRAME_MS;
    this.clock = options.clock ?? realClock;
  }

  started(stream: StreamView): void {
    this.stats.events += 1;
    this.pending.push({ kind: 'started', stream });
    this.flush();
  }

  text(id: string, appended: string, chunks: number): void {
    this.stats.events += 1;
    let entry = this.texts.get(id);
    if (!entry) {
      entry = { kind: 'text', id, parts: [], chunks };
      this.texts.set(id, entry);
      this.pending.push(entry);
    }
    entry.parts.push(appended);
    entry.chunks = chunks;
    this.schedule();
  }

  setProgress(id: string, progress: ProgressView): void {
    this.stats.events += 1;
    const entry = this.progress.get(id);
    if (entry) entry.progress = progress;
    else {
      const created = { kind: 'progress' as const, id, progress };
      this.progress.set(id, created);
      this.pending.push(created);
    }
    this.schedule();
  }

  /** A job event of the MCP draft (§4): each goes out, in order, with the next batch. */
  jobEvent(id: string, event: JobEventView): void {
    this.stats.events += 1;
    this.pending.push({ kind: 'jobEvent', id, event });
    this.schedule();
  }

  ended(stream: StreamView): void {
    this.stats.events += 1;
    this.pending.push({ kind: 'ended', stream });
    this.flush();
  }

  /** Sends what is pending now (also before a result that must follow the stream's last text). */
  flush(): void {
    if (this.timer !== undefined) {
      this.clock.clearTimer(this.timer);
      this.timer = undefined;
    }
    if (this.pending.length === 0) return;
    const updates = this.pending.map((p): StreamUpdate =>
      p.kind === 'text'
        ? { kind: 'text', id: p.id, appended: p.parts.join(''), chunks: p.chunks }
        : p,
    );
    this.pending = [];
    this.texts.clear();
    this.progress.clear();
    this.lastFlush = this.clock.now();
    this.stats.batches += 1;
    this.deliver(updates);
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    const wait = Math.max(0, this.lastFlush + this.intervalMs - this.clock.now());
    this.timer = this.clock.setTimer(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
  }

  /** Drops what is pending (the receiver is about to get the whole state instead). */
  discard(): void {
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.pending = [];
    this.texts.clear();
    this.progress.clear();
  }

  dispose(): void {
    this.discard();
  }
}
