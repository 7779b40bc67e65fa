/**
 * The writing end of the log: numbers and hashes each record in the order given, and hands them to
 * the group committer (groupCommit.ts), which writes and fsyncs them in batches.
 *
 * It runs on whichever thread owns the log files: the log's writer thread (auditWorker.ts, driven by
 * workerWriter.ts) or, when there is none, the thread of the AuditLog itself (`inlineWriter`).
 * Either way the AuditLog sees a RecordWriter.
 */
import type { AuditEvent, AuditRecord } from './auditEvent';
import { ChainLink, SealedRecord, sealRecord } from './chain';
import { AuditError, asInvalidEvent } from './errors';
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
  /**
   * As `append`, for an event made by `make` only when the writer gets to it (at the latest when the
   * records around it are written): it is redacted then, with the secrets known then. If `make`
   * throws, or its event cannot be logged, `settle` is rejected and no seq is used.
   */
  appendLater(make: () => AuditEvent, settle: Settle): void;
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
  hooks: {
    durable(batch: readonly P[], segment: Segment): void;
    failed(error: AuditError): void;
  };
}

/** Numbers records after the head of the chain and hands them to the group committer. */
export class ChainWriter<P extends PendingAppend> {
  private head: ChainLink;
  private durable: ChainLink;
  private readonly committer: GroupCommitter<P>;

  constructor(options: ChainWriterOptions<P>) {
    this.head = options.head;
    this.durable = options.head;
    this.committer = new GroupCommitter<P>({
      dir: options.dir,
      open: options.open,
      rotateBytes: options.rotateBytes,
      commitDelayMs: options.commitDelayMs,
      segment: options.segment,
      size: options.size,
      hooks: {
        durable: (batch, segment) => {
          const { seq, hash } = batch[batch.length - 1].sealed;
          this.durable = { seq, hash };
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
   * Seals a record after the head (`seal` numbers, chains and hashes it) and queues it for the next
   * write. `pending` is settled once: rejected at once when `seal` throws (the event has no JSON form)
   * or nothing can be written any more.
   */
  append(seal: (previous: ChainLink) => P['sealed'], pending: Omit<P, 'sealed' | 'bytes'>): void {
    if (this.committer.failure) return pending.reject(this.committer.failure);
    let sealed: P['sealed'];
    try {
      sealed = seal(this.head);
    } catch (error) {
      return pending.reject(asInvalidEvent(error));
    }
    this.head = { seq: sealed.seq, hash: sealed.hash };
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
export function inlineWriter(
  options: Omit<ChainWriterOptions<PendingAppend<SealedRecord>>, 'hooks'> & { redactor: Redactor },
  hooks: WriterHooks,
): RecordWriter {
  const { redactor } = options;
  const writer = new ChainWriter<PendingAppend<SealedRecord>>({
    ...options,
    hooks: {
      durable: (batch, segment) =>
        hooks.durable(
          batch.map((p) => p.sealed.record),
          segment,
        ),
      failed: (error) => hooks.failed(error),
    },
  });
  const append = (event: AuditEvent, settle: Settle): void =>
    writer.append((previous) => sealRecord(redactor.redactEvent(event), previous), {
      resolve: (sealed) => settle.resolve(sealed.record),
      reject: (error) => settle.reject(error),
    });
  return {
    kind: 'inline',
    append,
    appendLater: (make, settle) => {
      let event: AuditEvent;
      try {
        event = make();
      } catch (error) {
        return settle.reject(asInvalidEvent(error));
      }
      append(event, settle);
    },
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
