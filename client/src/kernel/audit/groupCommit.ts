/**
 * Group commit: records are written and fsynced in batches, and each append is acknowledged only
 * once the batch holding it is on disk.
 *
 * While one write+fsync is in flight, new appends queue up; when it completes, the whole queue goes
 * out as the next single write+fsync. One producer therefore pays one fsync per record, and a
 * thousand concurrent producers share one fsync per batch, yet every acknowledgement still means
 * "durable".
 *
 * A failed write (disk full, permission, I/O error) is rolled back: the file is truncated to where
 * the last durable record ends, so no half line is left in the chain. Every record not yet durable
 * is rejected (the queued ones were chained to the failed ones), and the owner continues the chain
 * from the last durable record. When even the rollback fails, the writer stays failed and rejects
 * every later append; the next open repairs the file (see recovery.ts).
 */
import type { SealedLine } from './chain';
import { AuditError } from './errors';
import { fsyncDirectory } from '../store/atomicFile';
import { Segment, segmentAt } from './segments';
import type { SegmentFile, SegmentFileOpener } from './segmentFile';

export interface PendingAppend<S extends SealedLine = SealedLine> {
  sealed: S;
  /** UTF-8 length of the line. */
  bytes: number;
  resolve(sealed: S): void;
  reject(error: Error): void;
}

export interface CommitterHooks<P extends PendingAppend = PendingAppend> {
  /** The records of `batch` are on disk, in seq order, in `segment` (called before their `resolve`). */
  durable(batch: readonly P[], segment: Segment): void;
  /** A write failed; every record not yet durable was rejected with `error`. */
  failed(error: AuditError): void;
}

export interface CommitterOptions<P extends PendingAppend = PendingAppend> {
  dir: string;
  open: SegmentFileOpener;
  rotateBytes: number;
  /** The file to append to, and its size. */
  segment: Segment;
  size: number;
  hooks: CommitterHooks<P>;
  /**
   * How long a batch waits for more records before it is written, in ms (0: the next turn of the
   * event loop), and the least time between two write+fsyncs. A few ms lets one caller making calls
   * one after another share an fsync too, at the price of acknowledging each record that much later.
   */
  commitDelayMs?: number;
}

export class GroupCommitter<P extends PendingAppend = PendingAppend> {
  private queue: P[] = [];
  private running = false;
  private file: SegmentFile | undefined;
  private fileSynced = false;
  private broken: AuditError | undefined;
  private idle: (() => void)[] = [];
  private segmentNow: Segment;
  private size: number;

  constructor(private readonly options: CommitterOptions<P>) {
    this.segmentNow = options.segment;
    this.size = options.size;
  }

  /** The file being appended to. */
  get segment(): Segment {
    return this.segmentNow;
  }

  /** Set when a failed write could not be rolled back: nothing more can be written. */
  get failure(): AuditError | undefined {
    return this.broken;
  }

  enqueue(pending: P): void {
    if (this.broken) return pending.reject(this.broken);
    this.queue.push(pending);
    if (this.running) return;
    this.running = true;
    // Start on the next turn of the event loop (or after the commit delay), so that appends made
    // meanwhile share the first batch.
    const delay = this.options.commitDelayMs ?? 0;
    if (delay > 0) setTimeout(() => void this.run(), delay);
    else setImmediate(() => void this.run());
  }

  /** Resolves when every record enqueued so far is durable (or rejected). */
  drain(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  async close(): Promise<void> {
    await this.drain();
    await this.file?.close();
    this.file = undefined;
  }

  private async run(): Promise<void> {
    const delay = this.options.commitDelayMs ?? 0;
    while (this.queue.length) {
      const batch = this.queue;
      this.queue = [];
      await this.commit(batch);
      // With a commit delay, at most one write+fsync per delay: what arrives meanwhile waits for the next.
      if (delay > 0 && this.queue.length)
        await new Promise((resolve) => setTimeout(resolve, delay));
    }
    this.running = false;
    for (const resolve of this.idle.splice(0)) resolve();
  }

  private async commit(batch: P[]): Promise<void> {
    let done = 0;
    try {
      while (done < batch.length) {
        const file = await this.fileFor(batch[done].bytes);
        const end = this.fitting(batch, done);
        let text = '';
        for (let i = done; i < end; i++) text += batch[i].sealed.line;
        const data = Buffer.from(text, 'utf8');
        await file.write(data);
        await file.sync();
        this.size += data.length;
        this.options.hooks.durable(batch.slice(done, end), this.segmentNow);
        for (let i = done; i < end; i++) batch[i].resolve(batch[i].sealed);
        done = end;
      }
    } catch (error) {
      await this.fail(error, batch.slice(done));
    }
  }

  /** The end of the run of records from `start` that fits in the current file (at least one). */
  private fitting(batch: P[], start: number): number {
    let bytes = this.size + batch[start].bytes;
    let end = start + 1;
    while (end < batch.length && bytes + batch[end].bytes <= this.options.rotateBytes)
      bytes += batch[end++].bytes;
    return end;
  }

  private async fileFor(bytes: number): Promise<SegmentFile> {
    if (this.size > 0 && this.size + bytes > this.options.rotateBytes) {
      // Rotate: the chain simply continues in the next file.
      const file = this.file;
      this.file = undefined;
      await file?.close();
      this.segmentNow = segmentAt(this.options.dir, this.segmentNow.index + 1);
      this.size = 0;
      this.fileSynced = false;
    }
    this.file ??= await this.options.open(this.segmentNow.path);
    if (!this.fileSynced) {
      // The file's directory entry must be durable before any record in it is acknowledged.
      await fsyncDirectory(this.options.dir);
      this.fileSynced = true;
    }
    return this.file;
  }

  private async fail(cause: unknown, unsettled: P[]): Promise<void> {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const first = unsettled[0]?.sealed.seq;
    const error = new AuditError(
      'WriteFailed',
      `audit record seq ${first} and later were not written to ${this.segmentNow.path}: ${reason}`,
      cause,
    );
    try {
      if (this.file) {
        await this.file.truncate(this.size);
        await this.file.sync();
      }
    } catch (rollback) {
      const why = rollback instanceof Error ? rollback.message : String(rollback);
      this.broken = new AuditError(
        'WriteFailed',
        `the audit log cannot be written since a failed write could not be rolled back (${why}); reopen it to repair the file`,
        rollback,
      );
    }
    const rejected = unsettled.concat(this.queue.splice(0));
    for (const pending of rejected) pending.reject(error);
    this.options.hooks.failed(error);
  }
}
