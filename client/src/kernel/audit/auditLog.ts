/**
 * The durable audit log of one workspace: an append-only, hash-chained JSON Lines log in a directory.
 *
 *     audit-000001.jsonl, audit-000002.jsonl, …   one record per line (chain.ts), rotated by size
 *     chain.json                                  where the retained chain starts, and a checkpoint of its head (anchor.ts)
 *     writer.lock                                 the one process writing (lock.ts)
 *
 * `append` takes events in call order; they are redacted, numbered, chained, hashed, written and
 * fsynced in that order (chainWriter.ts, group commit in groupCommit.ts) by the log's writer thread
 * (workerWriter.ts, auditWorker.ts), or on this thread when there is none, and `append` resolves once
 * the record is on disk. Opening repairs what a crash left (recovery.ts).
 * Retention deletes whole old files (retention.ts), recording in chain.json where the chain now
 * starts, so `verify` (verify.ts) tells pruning from tampering.
 *
 * Every event's `details` pass through a Redactor first: the one given, or by default a fresh one
 * that knows no secret yet but still hides credential-named keys and Bearer/Basic tokens.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fsyncDirectory } from '../store/atomicFile';
import { ChainAnchor, writeAnchor } from './anchor';
import type { AnchorKeyStore, SealKey } from './anchorSeal';
import type { AuditEvent, AuditEventInput, AuditRecord } from './auditEvent';
import type { ChainLink } from './chain';
import type { RecordWriter } from './chainWriter';
import { AuditError } from './errors';
import { checkedInput, completeEvent } from './eventInput';
import { ExportFormat, exportRecords } from './export';
import type { AuditFilter } from './filter';
import { acquireWriterLock, WriterLock } from './lock';
import { openAnchor, sealAnchor } from './openAnchor';
import { pruneSegments } from './pruning';
import { readRecords, tailRecords } from './reader';
import type { RecoveredLog } from './recovery';
import { Redactor } from './redact';
import { KEEP_ALL, RetentionPolicy, retentionProblem } from './retention';
import type { SegmentFileOpener, SegmentFileOpenerModule } from './segmentFile';
import type { Segment } from './segments';
import { startWriter } from './startWriter';
import { verifyAuditLog, VerifyReport } from './verify';

export const DEFAULT_ROTATE_BYTES = 10 * 1024 * 1024;
/**
 * Checkpoints follow the writes, at most one every 250 ms: records cut off the end are detected
 * unless they are that recent (anchor.ts). More often costs throughput (two more fsyncs each).
 */
export const DEFAULT_CHECKPOINT_MS = 250;

export interface AuditLogOptions {
  /** The log's directory (see location.ts for the usual one); created when missing. */
  directory: string;
  /** Start a new file before one would grow past this many bytes; 10 MB by default. */
  rotateBytes?: number;
  retention?: RetentionPolicy;
  redactor?: Redactor;
  /** Milliseconds since the epoch: for default timestamps and retention. Date.now by default. */
  clock?: () => number;
  /** How often at most the head checkpoint in chain.json is refreshed after appends; 250 ms by default. */
  checkpointIntervalMs?: number;
  /** Told of problems in background work (checkpoints, retention) and of failed writes. */
  onProblem?: (message: string) => void;
  /** See GroupCommitter: how long a batch waits for more records before its write+fsync; 0 by default. */
  commitDelayMs?: number;
  /**
   * Where events are redacted, hashed and written: `thread`, the log's own writer thread
   * (workerWriter.ts), or `inline`, the thread calling `append`. By default the writer thread, or
   * inline (with a note) when it cannot start (its script is not next to this code, say); an
   * explicit `thread` that cannot start fails the open. An `openFile` function means inline.
   */
  writer?: 'thread' | 'inline';
  /** For tests: how log files are opened (to inject write faults); a module spec works in the writer thread too. */
  openFile?: SegmentFileOpener | SegmentFileOpenerModule;
  /**
   * Where the host keeps this log's key, which seals chain.json's head (anchorSeal.ts). Without one
   * chain.json is not sealed, and only a head pinned elsewhere vouches for the log's end.
   */
  anchorKeys?: AnchorKeyStore;
}

export interface Disposable {
  dispose(): void;
}

/** mkdir -p, with the new directory entries fsynced (a record in a file whose folder vanishes is not durable). */
async function makeDirectory(dir: string): Promise<void> {
  const created = await mkdir(dir, { recursive: true, mode: 0o700 });
  if (!created) return;
  for (let d = dir; ; d = dirname(d)) {
    await fsyncDirectory(d);
    if (d === dirname(created) || d === dirname(d)) break;
  }
}

const ignoreRecord = (): void => undefined;

export class AuditLog {
  private durable: ChainLink;
  private durableSegment: Segment;
  private readonly listeners = new Set<(record: AuditRecord) => void>();
  private writer!: RecordWriter;
  private readonly redactor: Redactor;
  private readonly openNotes: string[];
  private readonly clock: () => number;
  private maintenance: Promise<unknown> = Promise.resolve();
  private checkpointQueued = false;
  private checkpointTimer: ReturnType<typeof setTimeout> | undefined;
  private lastCheckpoint: number;
  private closed = false;

  /** Opens (or creates) the log in `options.directory`, repairing what a crash left, and applies retention. */
  static async open(options: AuditLogOptions): Promise<AuditLog> {
    const problem = retentionProblem(options.retention ?? KEEP_ALL);
    if (problem) throw new RangeError(problem);
    const dir = options.directory;
    await makeDirectory(dir);
    const lock = await acquireWriterLock(dir);
    try {
      const notes: string[] = [];
      const now = (options.clock ?? Date.now)();
      const { anchor, recovered, key, lossNote } = await openAnchor(
        dir,
        options.anchorKeys,
        notes,
        now,
      );
      if (lossNote) options.onProblem?.(lossNote);
      const log = new AuditLog(options, lock, anchor, key, recovered, [
        ...notes,
        ...recovered.notes,
      ]);
      await log.startWriter(recovered);
      try {
        await log.applyRetention();
      } catch (error) {
        await log.writer.close().catch(() => undefined);
        throw error;
      }
      return log;
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  private constructor(
    private readonly options: AuditLogOptions,
    private readonly lock: WriterLock,
    private anchor: ChainAnchor,
    private readonly key: SealKey | undefined,
    recovered: RecoveredLog,
    notes: string[],
  ) {
    this.durable = recovered.head;
    this.durableSegment = recovered.segment;
    this.openNotes = notes;
    this.redactor = options.redactor ?? new Redactor();
    this.clock = options.clock ?? Date.now;
    this.lastCheckpoint = this.clock();
  }

  /** The writer thread, or an inline writer when the options ask for one or the thread cannot start. */
  private async startWriter(recovered: RecoveredLog): Promise<void> {
    const { directory: dir, openFile, commitDelayMs, writer } = this.options;
    const rotateBytes = this.options.rotateBytes ?? DEFAULT_ROTATE_BYTES;
    this.writer = await startWriter(
      { dir, rotateBytes, commitDelayMs, writer, openFile },
      recovered,
      this.redactor,
      {
        durable: (records, segment) => this.onDurable(records, segment),
        failed: (error) => this.onFailed(error),
      },
      this.openNotes,
    );
  }

  get directory(): string {
    return this.options.directory;
  }

  /** What opening repaired or found, in words (a torn last line cut off, records missing, no writer thread…). */
  get notes(): readonly string[] {
    return this.openNotes;
  }

  /** Where events are redacted, hashed and written: the log's writer thread, or the thread calling `append`. */
  get writerKind(): 'thread' | 'inline' {
    return this.writer.kind;
  }

  /** The last record on disk. */
  get lastDurable(): ChainLink {
    return this.durable;
  }

  /**
   * Appends an event: it is redacted, numbered and chained in call order (with the secrets the
   * Redactor knows at this call), and the promise resolves with its record once it is on disk.
   * Rejects with an AuditError: `InvalidEvent`, `WriteFailed` (the record is not in the log, or the
   * writer thread stopped) or `Closed`.
   */
  append(input: AuditEventInput): Promise<AuditRecord> {
    if (this.closed) return Promise.reject(new AuditError('Closed', 'the audit log is closed'));
    if (this.writer.failure) return Promise.reject(this.writer.failure);
    let event: AuditEvent;
    try {
      event = this.complete(checkedInput(input));
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => this.writer.append(event, { resolve, reject }));
  }

  /**
   * Appends the event `make` returns, made only when the writer gets to it (with the events around
   * it, off the caller's time): numbered in call order among all appends, redacted with the secrets
   * known when it is made. Nothing to wait for; `failed` is told when it cannot be made or recorded.
   * `make` must stamp the event with the time it happened.
   */
  appendLater(make: () => AuditEventInput, failed: (error: Error) => void): void {
    if (this.closed) return failed(new AuditError('Closed', 'the audit log is closed'));
    if (this.writer.failure) return failed(this.writer.failure);
    this.writer.appendLater(() => this.complete(checkedInput(make())), {
      resolve: ignoreRecord,
      reject: failed,
    });
  }

  /** Calls `listener` with each record once it is durable, in seq order. */
  onAppend(listener: (record: AuditRecord) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  /** The durable records that pass `filter`, oldest first. */
  records(filter: AuditFilter = {}): AsyncGenerator<AuditRecord> {
    return readRecords(this.directory, filter, { maxSeq: this.durable.seq });
  }

  /** The last `n` durable records that pass `filter`, oldest first. */
  tail(n: number, filter: AuditFilter = {}): Promise<AuditRecord[]> {
    return tailRecords(this.directory, n, filter, { maxSeq: this.durable.seq });
  }

  export(
    format: ExportFormat,
    write: (chunk: string) => void | Promise<void>,
    filter: AuditFilter = {},
  ): Promise<number> {
    return exportRecords(this.records(filter), format, write);
  }

  /** Verifies the log, and chain.json's seal with this log's key when it has one. */
  async verify(): Promise<VerifyReport> {
    await this.flush();
    const key = this.key;
    return verifyAuditLog(
      this.directory,
      key ? { key: { kind: key.kind, description: key.description, state: 'found', key } } : {},
    );
  }

  /** Resolves when every append made so far is durable (or rejected). */
  flush(): Promise<void> {
    return this.writer.drain();
  }

  /** Resolves when every append made so far is durable and chain.json's checkpoint names it. */
  async settled(): Promise<void> {
    await this.writer.drain();
    this.checkpointNow();
    await this.maintenance;
  }

  /** Applies the retention policy now (it also runs at open and after each rotation); returns the files deleted. */
  applyRetention(): Promise<string[]> {
    return this.queueMaintenance(() => this.prune());
  }

  /** Waits for pending appends, writes a last checkpoint and releases the log. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.writer.close();
    clearTimeout(this.checkpointTimer);
    this.checkpointTimer = undefined;
    await this.maintenance;
    await this.checkpoint().catch((error: unknown) => this.report('checkpoint', error));
    await this.lock.release();
  }

  private complete(input: AuditEventInput): AuditEvent {
    return completeEvent(input, this.clock);
  }

  private onDurable(records: AuditRecord[], segment: Segment): void {
    const last = records[records.length - 1];
    this.durable = { seq: last.seq, hash: last.hash };
    const rotated = segment.index !== this.durableSegment.index;
    this.durableSegment = segment;
    for (const record of records) {
      for (const listener of this.listeners) {
        try {
          listener(record);
        } catch (error) {
          this.report('an onAppend listener', error);
        }
      }
    }
    if (rotated) {
      void this.queueMaintenance(() => this.checkpoint());
      void this.applyRetention();
    } else this.scheduleCheckpoint();
  }

  /**
   * Checkpoints follow the writes: one waits at a time and takes the newest durable record when it
   * runs, at most one every checkpointIntervalMs, and the last one is never skipped (a timer runs it).
   */
  private scheduleCheckpoint(): void {
    if (this.checkpointQueued || this.closed) return;
    this.checkpointQueued = true;
    const interval = this.options.checkpointIntervalMs ?? DEFAULT_CHECKPOINT_MS;
    const wait = this.lastCheckpoint + interval - this.clock();
    if (wait <= 0) void this.queueMaintenance(() => this.checkpoint());
    else {
      this.checkpointTimer = setTimeout(() => {
        this.checkpointTimer = undefined;
        void this.queueMaintenance(() => this.checkpoint());
      }, wait);
      this.checkpointTimer.unref?.();
    }
  }

  /** Runs a checkpoint waiting for its timer now. */
  private checkpointNow(): void {
    if (!this.checkpointTimer) return;
    clearTimeout(this.checkpointTimer);
    this.checkpointTimer = undefined;
    void this.queueMaintenance(() => this.checkpoint());
  }

  private onFailed(error: AuditError): void {
    this.options.onProblem?.(error.message);
  }

  private report(what: string, error: unknown): void {
    this.options.onProblem?.(
      `audit log ${what}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }

  private queueMaintenance<T>(task: () => Promise<T>): Promise<T> {
    const run = this.maintenance.then(task);
    this.maintenance = run.catch((error: unknown) => this.report('maintenance', error));
    return run;
  }

  private async checkpoint(): Promise<void> {
    this.checkpointQueued = false;
    this.lastCheckpoint = this.clock();
    const { seq, hash } = this.durable;
    if (seq === 0 || this.anchor.head?.seq === seq) return;
    await this.saveAnchor({
      ...this.anchor,
      head: { seq, hash, file: this.durableSegment.name, at: new Date(this.clock()).toISOString() },
    });
  }

  /** chain.json, sealed with the log's key when there is one. */
  private saveAnchor(anchor: ChainAnchor): Promise<void> {
    this.anchor = sealAnchor(anchor, this.key);
    return writeAnchor(this.directory, this.anchor);
  }

  private prune(): Promise<string[]> {
    return pruneSegments({
      directory: this.directory,
      policy: this.options.retention ?? KEEP_ALL,
      active: this.writer.segment,
      clock: this.clock,
      durable: () => ({ link: this.durable, segment: this.durableSegment }),
      anchor: () => this.anchor,
      saveAnchor: (anchor) => this.saveAnchor(anchor),
      report: (what, error) => this.report(what, error),
    });
  }
}
