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
import { mkdir, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ChainAnchor, loadAnchor, settleAnchor, writeAnchor } from './anchor';
import { AuditEvent, AuditEventInput, AuditRecord, eventProblem, newTraceId } from './auditEvent';
import type { ChainLink } from './chain';
import { inlineWriter, RecordWriter, WriterHooks } from './chainWriter';
import { AuditError } from './errors';
import { ExportFormat, exportRecords } from './export';
import type { AuditFilter } from './filter';
import { firstCompleteLine, scanTail } from './lines';
import { acquireWriterLock, WriterLock } from './lock';
import { readRecords, tailRecords } from './reader';
import { recoverLog } from './recovery';
import { Redactor } from './redact';
import {
  filesToPrune,
  KEEP_ALL,
  RetentionPolicy,
  retentionProblem,
  SegmentFacts,
} from './retention';
import { loadOpener, SegmentFileOpener, SegmentFileOpenerModule } from './segmentFile';
import { listSegments, Segment, sizeOf } from './segments';
import { verifyAuditLog, VerifyReport } from './verify';
import { WorkerWriter } from './workerWriter';
import { fsyncDirectory } from '../store/atomicFile';

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

/** Timestamp (ms) of the newest record of a closed file, if readable. */
async function newestTimestamp(path: string): Promise<number | undefined> {
  const { last } = await scanTail(path);
  try {
    const ms = last === undefined ? NaN : Date.parse((JSON.parse(last) as AuditRecord).timestamp);
    return Number.isNaN(ms) ? undefined : ms;
  } catch {
    return undefined;
  }
}

const ignoreRecord = (): void => undefined;

/** Names in an event's actor, target and result: at most MAX_FIELD characters, a cut marked. */
const MAX_FIELD = 512;
const shortField = (text: string): string =>
  text.length > MAX_FIELD ? `${text.slice(0, MAX_FIELD)}…[truncated]` : text;

function boundedFields<T extends object>(fields: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields))
    out[key] = typeof value === 'string' ? shortField(value) : value;
  return out as T;
}

/** `input`, or an `InvalidEvent` AuditError saying what is wrong with it. */
function checkedInput(input: AuditEventInput): AuditEventInput {
  const problem = eventProblem(input);
  if (problem)
    throw new AuditError(
      'InvalidEvent',
      `cannot log this event: ${problem}`,
      new TypeError(problem),
    );
  return input;
}

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
      const loaded = await loadAnchor(dir, notes, now);
      const recovered = await recoverLog(dir, loaded.anchor);
      const anchor = await settleAnchor(dir, loaded, recovered.head, recovered.segment, notes, now);
      if (anchor.lost && loaded.missing) options.onProblem?.(notes[notes.length - 1]);
      const log = new AuditLog(options, lock, anchor, recovered.head, recovered.segment, [
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
    head: ChainLink,
    segment: Segment,
    notes: string[],
  ) {
    this.durable = head;
    this.durableSegment = segment;
    this.openNotes = notes;
    this.redactor = options.redactor ?? new Redactor();
    this.clock = options.clock ?? Date.now;
    this.lastCheckpoint = this.clock();
  }

  /** The writer thread, or an inline writer when the options ask for one or the thread cannot start. */
  private async startWriter(recovered: Awaited<ReturnType<typeof recoverLog>>): Promise<void> {
    const { directory: dir, openFile, commitDelayMs } = this.options;
    const rotateBytes = this.options.rotateBytes ?? DEFAULT_ROTATE_BYTES;
    const hooks: WriterHooks = {
      durable: (records, segment) => this.onDurable(records, segment),
      failed: (error) => this.onFailed(error),
    };
    const inline = (): RecordWriter =>
      inlineWriter(
        {
          dir,
          open: loadOpener(openFile),
          rotateBytes,
          commitDelayMs,
          segment: recovered.segment,
          size: recovered.size,
          head: recovered.head,
          redactor: this.redactor,
        },
        hooks,
      );
    const mode = this.options.writer ?? (typeof openFile === 'function' ? 'inline' : undefined);
    if (mode === 'inline') {
      this.writer = inline();
      return;
    }
    if (typeof openFile === 'function')
      throw new TypeError(
        'an openFile function cannot be used by the writer thread: name it by module, or ask for the inline writer',
      );
    try {
      const setup = {
        dir,
        rotateBytes,
        commitDelayMs,
        segment: recovered.segment.index,
        size: recovered.size,
        head: recovered.head,
        openFile,
      };
      this.writer = await WorkerWriter.start(setup, this.redactor, hooks);
    } catch (error) {
      if (mode === 'thread') throw error;
      this.openNotes.push(
        `${error instanceof Error ? error.message : String(error)}; events are written on the calling thread`,
      );
      this.writer = inline();
    }
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

  async verify(): Promise<VerifyReport> {
    await this.flush();
    return verifyAuditLog(this.directory);
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

  /** The event with what the log fills in, its names bounded (a tool name can come from a server); the writer redacts it. */
  private complete(input: AuditEventInput): AuditEvent {
    return {
      timestamp: input.timestamp ?? new Date(this.clock()).toISOString(),
      trace_id: input.trace_id ?? newTraceId(),
      event_type: input.event_type,
      actor: boundedFields(input.actor),
      target: boundedFields(input.target ?? {}),
      result: shortField(input.result),
      details: input.details ?? {},
    };
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
    this.anchor = {
      ...this.anchor,
      head: { seq, hash, file: this.durableSegment.name, at: new Date(this.clock()).toISOString() },
    };
    await writeAnchor(this.directory, this.anchor);
  }

  private async prune(): Promise<string[]> {
    const policy = this.options.retention ?? KEEP_ALL;
    if (policy.policy === 'keep_all') return [];
    const active = this.writer.segment;
    const segments = [
      ...(await listSegments(this.directory)).filter((s) => s.index < active.index),
      active,
    ];
    const facts: SegmentFacts[] = [];
    for (const segment of segments) {
      const newest =
        policy.policy === 'time_based' && segment !== active
          ? await newestTimestamp(segment.path)
          : undefined;
      facts.push({ bytes: await sizeOf(segment.path), newest });
    }
    const count = filesToPrune(facts, policy, this.clock());
    if (count === 0) return [];
    const start = await this.firstRecordFrom(segments.slice(count));
    if (!start) return [];
    const { seq, hash } = this.durable;
    const head =
      seq > 0
        ? { seq, hash, file: this.durableSegment.name, at: new Date(this.clock()).toISOString() }
        : this.anchor.head;
    this.anchor = {
      ...this.anchor,
      start: { ...start, pruned_at: new Date(this.clock()).toISOString() },
      head,
    };
    await writeAnchor(this.directory, this.anchor); // first: a crash after this only leaves files to delete
    const pruned = segments.slice(0, count);
    for (const segment of pruned) await unlink(segment.path);
    await fsyncDirectory(this.directory);
    return pruned.map((s) => s.name);
  }

  /** seq and prev_hash of the first record in `segments`: where the retained chain will start. */
  private async firstRecordFrom(
    segments: Segment[],
  ): Promise<{ seq: number; prev_hash: string; file: string } | undefined> {
    for (const segment of segments) {
      const line = await firstCompleteLine(segment.path);
      if (line === undefined) continue;
      try {
        const record = JSON.parse(line) as AuditRecord;
        if (Number.isSafeInteger(record.seq) && typeof record.prev_hash === 'string')
          return { seq: record.seq, prev_hash: record.prev_hash, file: segment.name };
      } catch {
        // a damaged first line: keep the files (verify reports the damage)
      }
      this.report(
        'retention',
        new Error(`${segment.name} does not start with a record; nothing pruned`),
      );
      return undefined;
    }
    return undefined;
  }
}
