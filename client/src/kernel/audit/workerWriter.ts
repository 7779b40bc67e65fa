/**
 * The AuditLog's side of its writer thread (auditWorker.ts): a RecordWriter whose numbering,
 * hashing, writes and fsyncs happen on another thread, so that they use the core this one leaves
 * idle while it waits for a server's answer.
 *
 * Here an append costs the redaction (so an event is redacted with exactly the secrets the Redactor
 * knows when it is appended) and a JSON.stringify (its canonical form, cut where the chain fields go:
 * chain.ts's recordParts). An appendLater costs nothing until its batch is sent: its event is then
 * made, redacted and cut, with the others of the batch, in one tight loop (which costs a caller making
 * calls one after another far less than the same work done a call at a time).
 * Events are sent to the thread in batches: those of one turn of the event loop (at most MAX_BATCH),
 * or, with a commit delay, those of the delay (the thread then writes each batch at once). Waking
 * another thread costs more than anything else here on a busy machine, so it happens once a batch,
 * not once an event. The thread reports back, per write+fsync, which events are durable, with their
 * seqs and hashes; only then is each append resolved with its record and the log's onAppend listeners
 * told, in seq order. So an event still counts as recorded only once it is on disk.
 *
 * If the thread dies (an uncaught error, out of memory, terminated), every append not yet settled is
 * rejected, the log's problem handler is told, and later appends are rejected: what the thread had
 * written may or may not be on disk, so the log is repaired by reopening it (recovery.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AuditEvent, AuditRecord } from './auditEvent';
import { chainedRecord, recordParts } from './chain';
import type { RecordWriter, Settle, WriterHooks } from './chainWriter';
import { AuditError, asInvalidEvent } from './errors';
import type { Redactor } from './redact';
import { Segment, segmentAt } from './segments';
import { AUDIT_WORKER_FILE, FromWriter, ToWriter, WireError, WriterSetup } from './workerProtocol';

/**
 * The writer thread's script: `dist/auditWorker.js` next to the bundles (esbuild.mjs builds it), or
 * the transpiled auditWorker.js next to this module in the unbundled test build.
 */
export function writerScript(): string | undefined {
  const path = join(__dirname, AUDIT_WORKER_FILE);
  return existsSync(path) ? path : undefined;
}

const asError = (error: WireError): AuditError => new AuditError(error.code, error.message);

/** An event redacted, and cut into the three strings of chain.ts's recordParts. */
type Prepared = { event: AuditEvent; parts: [string, string, string] };

/** An append not yet sent: prepared already, or to be made and prepared when it is sent (appendLater). */
type Queued = (Prepared & { settle: Settle }) | { settle: Settle; make: () => AuditEvent };

/**
 * Without a commit delay, a burst of appends goes out in messages of at most this many events: the
 * thread then writes the first ones while this thread prepares the next, rather than the two taking
 * turns; bench/audit-append.mjs shows the difference.
 */
const MAX_BATCH = 128;

export class WorkerWriter implements RecordWriter {
  readonly kind = 'thread';
  private readonly dir: string;
  private readonly commitDelayMs: number;
  /** Appends sent or about to be sent and not yet settled, with their redacted events, by id (the thread numbers events in arrival order). */
  private readonly pending = new Map<number, { settle: Settle; event: AuditEvent }>();
  private nextId = 0;
  /** Appends not yet sent to the thread, in append order. */
  private queue: Queued[] = [];
  /** Cancels the timer that will send the queue, while one is set. */
  private cancelBatch: (() => void) | undefined;
  private segmentNow: Segment;
  private broken: AuditError | undefined;
  private stopped = false;
  private closing: Promise<void> | undefined;
  private whenClosed: ((error?: WireError) => void) | undefined;
  private readonly drains: { upTo: number; resolve: () => void }[] = [];
  private readonly started: Promise<void>;

  /** Starts the thread on the log described by `setup` and resolves once it runs; rejects when it cannot start. */
  static async start(
    setup: WriterSetup,
    redactor: Redactor,
    hooks: WriterHooks,
    script = writerScript(),
  ): Promise<WorkerWriter> {
    if (!script) throw new Error(`no ${AUDIT_WORKER_FILE} next to ${__filename}`);
    // The commit delay is waited here, before a batch is sent; the thread writes what it gets at once.
    const writer = new WorkerWriter(
      new Worker(script, { workerData: { ...setup, commitDelayMs: 0 } satisfies WriterSetup }),
      setup,
      redactor,
      hooks,
    );
    try {
      await writer.started;
    } catch (error) {
      await writer.worker.terminate();
      throw error;
    }
    return writer;
  }

  private constructor(
    private readonly worker: Worker,
    setup: WriterSetup,
    private readonly redactor: Redactor,
    private readonly hooks: WriterHooks,
  ) {
    this.dir = setup.dir;
    this.commitDelayMs = setup.commitDelayMs ?? 0;
    this.segmentNow = segmentAt(setup.dir, setup.segment);
    this.started = new Promise<void>((resolve, reject) => {
      const failed = (error: Error): void =>
        reject(new Error(`the audit log's writer thread did not start: ${error.message}`));
      worker.once('error', failed);
      worker.once('exit', (code) => failed(new Error(`it exited with code ${code}`)));
      worker.once('message', () => {
        worker.off('error', failed);
        worker.removeAllListeners('exit');
        resolve();
      });
    }).then(() => {
      worker.on('message', (message: FromWriter) => this.receive(message));
      worker.on('error', (error) => this.stop(error.message));
      worker.on('messageerror', (error) =>
        this.stop(`a message could not be read: ${error.message}`),
      );
      worker.on('exit', (code) => this.stop(`it exited with code ${code}`));
      worker.unref(); // held only while appends are pending
    });
  }

  get segment(): Segment {
    return this.segmentNow;
  }

  get failure(): AuditError | undefined {
    return this.broken;
  }

  append(event: AuditEvent, settle: Settle): void {
    if (this.broken) return settle.reject(this.broken);
    let prepared: Prepared;
    try {
      prepared = this.prepare(event);
    } catch (error) {
      return settle.reject(asInvalidEvent(error));
    }
    this.enqueue({ settle, ...prepared });
  }

  appendLater(make: () => AuditEvent, settle: Settle): void {
    if (this.broken) return settle.reject(this.broken);
    this.enqueue({ settle, make });
  }

  drain(): Promise<void> {
    this.sendBatch();
    const upTo = this.nextId;
    if (this.settledUpTo(upTo)) return Promise.resolve();
    return new Promise((resolve) => this.drains.push({ upTo, resolve }));
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.sendBatch();
    if (this.stopped) return;
    this.worker.ref();
    const closed = new Promise<WireError | undefined>((resolve) => (this.whenClosed = resolve));
    this.post({ type: 'close' });
    const error = await closed;
    this.stopped = true; // the exit that follows is expected
    await this.worker.terminate();
    if (error) throw asError(error);
  }

  private post(message: ToWriter): void {
    if (!this.stopped) this.worker.postMessage(message);
  }

  private readonly scheduledBatch = (): void => this.sendBatch();

  private enqueue(entry: Queued): void {
    if (this.pending.size === 0 && this.queue.length === 0) this.worker.ref();
    this.queue.push(entry);
    if (this.commitDelayMs === 0 && this.queue.length >= MAX_BATCH) return this.sendBatch();
    if (this.cancelBatch) return;
    if (this.commitDelayMs > 0) {
      const timer = setTimeout(this.scheduledBatch, this.commitDelayMs);
      this.cancelBatch = () => clearTimeout(timer);
    } else {
      const immediate = setImmediate(this.scheduledBatch);
      this.cancelBatch = () => clearImmediate(immediate);
    }
  }

  /** Throws when the event has no JSON form. */
  private prepare(event: AuditEvent): Prepared {
    const redacted = this.redactor.redactEvent(event);
    return { event: redacted, parts: recordParts(redacted) };
  }

  /** Sends what is queued, making the events of appendLater first; the thread numbers them in this order. */
  private sendBatch(): void {
    this.cancelBatch?.();
    this.cancelBatch = undefined;
    if (this.queue.length === 0) return;
    const entries = this.queue;
    this.queue = [];
    const parts: string[] = [];
    for (const entry of entries) {
      let prepared: Prepared;
      try {
        prepared = 'make' in entry ? this.prepare(entry.make()) : entry;
      } catch (error) {
        entry.settle.reject(asInvalidEvent(error));
        continue;
      }
      this.pending.set(this.nextId++, { settle: entry.settle, event: prepared.event });
      parts.push(prepared.parts[0], prepared.parts[1], prepared.parts[2]);
    }
    if (parts.length > 0) this.post({ type: 'append', parts });
    else this.settled();
  }

  private receive(message: FromWriter): void {
    switch (message.type) {
      case 'durable':
        return this.durable(message);
      case 'rejected': {
        const error = asError(message.error);
        if (message.failed?.broken) this.broken = asError(message.failed.broken);
        for (const id of message.ids) this.take(id)?.settle.reject(error);
        if (message.failed) this.hooks.failed(error);
        return this.settled();
      }
      case 'closed':
        return this.whenClosed?.(message.error);
      case 'ready':
        return;
    }
  }

  /** Resolves the appends now on disk with their records (as sealRecord makes them), after telling the log. */
  private durable({
    ids,
    seq,
    prevHash,
    hashes,
    segment,
  }: Extract<FromWriter, { type: 'durable' }>): void {
    const records: AuditRecord[] = [];
    const settles: Settle[] = [];
    let previous = { seq: seq - 1, hash: prevHash };
    for (let i = 0; i < ids.length; i++) {
      const pending = this.take(ids[i]);
      if (pending) {
        records.push({ ...chainedRecord(pending.event, previous), hash: hashes[i] });
        settles.push(pending.settle);
      }
      previous = { seq: previous.seq + 1, hash: hashes[i] };
    }
    if (segment !== this.segmentNow.index) this.segmentNow = segmentAt(this.dir, segment);
    if (records.length) this.hooks.durable(records, this.segmentNow);
    for (let i = 0; i < settles.length; i++) settles[i].resolve(records[i]);
    this.settled();
  }

  private take(id: number): { settle: Settle; event: AuditEvent } | undefined {
    const settle = this.pending.get(id);
    this.pending.delete(id);
    return settle;
  }

  /** True when every append numbered below `upTo` is settled. */
  private settledUpTo(upTo: number): boolean {
    if (this.pending.size === 0) return true;
    return (this.pending.keys().next().value as number) >= upTo;
  }

  private settled(): void {
    if (this.pending.size === 0 && this.queue.length === 0 && !this.closing) this.worker.unref();
    while (this.drains.length && this.settledUpTo(this.drains[0].upTo))
      this.drains.shift()?.resolve();
  }

  /** The thread is gone without being closed: nothing pending can be settled any more. */
  private stop(reason: string): void {
    if (this.stopped) return;
    this.stopped = true;
    const error = new AuditError(
      'WriteFailed',
      `the audit log's writer thread stopped (${reason}); appends not yet acknowledged may or may not be on disk, and nothing more can be written until the log is reopened`,
    );
    this.broken = error;
    this.cancelBatch?.();
    this.cancelBatch = undefined;
    const unsettled = [...this.pending.values(), ...this.queue];
    this.pending.clear();
    this.queue = [];
    for (const { settle } of unsettled) settle.reject(error);
    this.settled();
    this.hooks.failed(error);
    this.whenClosed?.();
  }
}
