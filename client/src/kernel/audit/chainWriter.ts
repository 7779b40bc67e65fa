/**
 * The writing end of the log: redacts, numbers and hashes each event in the order given, and hands the
 * records to the group committer (groupCommit.ts), which writes and fsyncs them in batches.
 *
 * It runs on whichever thread owns the log files: the log's writer thread (auditWorker.ts, driven by
 * workerWriter.ts) or, when there is none, the thread of the AuditLog itself (`inlineWriter`).
 * Either way the AuditLog sees a RecordWriter.
 */
import type { AuditEvent, AuditRecord } from './auditEvent';
import { ChainLink, sealRecord } from './chain';
import { AuditError } from './errors';
import { GroupCommitter, PendingAppend } from './groupCommit';
import type { Redactor } from './redact';
import type { SegmentFileOpener } from './segmentFile';
import type { Segment } from './segments';

/** How an append is settled: with its record once durable, or with an AuditError. */
export interface Settle {
  resolve(record: AuditRecord): void;
  reject(error: Error): void;
}

/** What the AuditLog is told by its writer. */
export interface WriterHooks {
  /** `records` are on disk, in seq order, in `segment` (told before their appends resolve). */
  durable(records: AuditRecord[], segment: Segment): void;
  /** A write failed; every record not yet durable was rejected with `error`. */
  failed(error: AuditError): void;
}

/** The AuditLog's writer: in this thread (`inlineWriter`) or in the log's writer thread (workerWriter.ts). */
export interface RecordWriter {
  readonly kind: 'thread' | 'inline';
  /**
   * Takes a complete, not yet redacted event: it is redacted, numbered and chained after every event
   * given before, and `settle` is called once, when its record is durable or cannot be. An event that
   * cannot be logged is rejected at once (AuditError `InvalidEvent`), without using a seq.
   */
  append(event: AuditEvent, settle: Settle): void;
  /** The file being appended to (as far as this thread knows: never behind the durable records). */
  readonly segment: Segment;
  /** Set when nothing more can be written until the log is reopened. */
  readonly failure: AuditError | undefined;
  /** Resolves when every append made so far is settled. */
  drain(): Promise<void>;
  /** Drains, closes the file and stops. */
  close(): Promise<void>;
}

export interface ChainWriterOptions<P extends PendingAppend> {
  dir: string;
  open: SegmentFileOpener;
  rotateBytes: number;
  commitDelayMs?: number;
  /** The file to append to, its size, and the last record of the chain (recovery.ts). */
  segment: Segment;
  size: number;
  head: ChainLink;
  redactor: Redactor;
  hooks: {
    durable(batch: readonly P[], segment: Segment): void;
    failed(error: AuditError): void;
  };
}

export class ChainWriter<P extends PendingAppend> {
  private head: ChainLink;
  private durable: ChainLink;
  private readonly committer: GroupCommitter<P>;
  private readonly redactor: Redactor;

  constructor(options: ChainWriterOptions<P>) {
    this.head = options.head;
    this.durable = options.head;
    this.redactor = options.redactor;
    this.committer = new GroupCommitter<P>({
      dir: options.dir,
      open: options.open,
      rotateBytes: options.rotateBytes,
      commitDelayMs: options.commitDelayMs,
      segment: options.segment,
      size: options.size,
      hooks: {
        durable: (batch, segment) => {
          const last = batch[batch.length - 1].sealed.record;
          this.durable = { seq: last.seq, hash: last.hash };
          options.hooks.durable(batch, segment);
        },
        failed: (error) => {
          this.head = this.durable; // every record after it was rejected
          options.hooks.failed(error);
        },
      },
    });
  }

  get segment(): Segment {
    return this.committer.segment;
  }

  get failure(): AuditError | undefined {
    return this.committer.failure;
  }

  /**
   * Redacts `event` (unless `redacted`), numbers and chains it after the head, and queues it for the
   * next write. `pending` is settled once: rejected at once when the event has no JSON form or
   * nothing can be written any more.
   */
  append(event: AuditEvent, pending: Omit<P, 'sealed' | 'bytes'>, redacted = false): void {
    if (this.committer.failure) return pending.reject(this.committer.failure);
    let sealed;
    try {
      sealed = sealRecord(redacted ? event : this.redactor.redactEvent(event), this.head);
    } catch (error) {
      return pending.reject(new AuditError('InvalidEvent', `cannot log this event: ${error instanceof Error ? error.message : String(error)}`, error));
    }
    this.head = { seq: sealed.record.seq, hash: sealed.record.hash };
    this.committer.enqueue({ ...pending, sealed, bytes: Buffer.byteLength(sealed.line) } as P);
  }

  drain(): Promise<void> {
    return this.committer.drain();
  }

  close(): Promise<void> {
    return this.committer.close();
  }
}

/** A RecordWriter that redacts, seals, writes and fsyncs on the calling thread. */
export function inlineWriter(options: Omit<ChainWriterOptions<PendingAppend>, 'hooks'>, hooks: WriterHooks): RecordWriter {
  const writer = new ChainWriter<PendingAppend>({
    ...options,
    hooks: {
      durable: (batch, segment) => hooks.durable(batch.map((p) => p.sealed.record), segment),
      failed: (error) => hooks.failed(error),
    },
  });
  return {
    kind: 'inline',
    append: (event, settle) => writer.append(event, settle),
    get segment() {
      return writer.segment;
    },
    get failure() {
      return writer.failure;
    },
    drain: () => writer.drain(),
    close: () => writer.close(),
  };
}
