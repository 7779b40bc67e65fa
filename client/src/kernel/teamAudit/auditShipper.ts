/**
 * Ships a workspace's audit log to the team's PostgreSQL table, record by record with its hash
 * chain: at least once, never twice. The local log is the spool (shipCursor.ts): a record is on disk
 * before it is shipped, the cursor moves only after the database acknowledged, and while the
 * database is away records wait in the log and go out, in seq order, when it returns. A replay
 * writes nothing twice: rows are keyed by (machine, chain, seq); a different record at a seq the
 * table already holds is kept apart as a fork for `mgp audit verify --postgres` to report.
 */
import { relative, sep } from 'node:path';
import type { AuditRecord } from '../audit/auditEvent';
import { readRecords } from '../audit/reader';
import { databaseProblem, ensureSchema, openTeamDatabase, TeamDatabase } from './database';
import { insertRecords } from './insertRecords';
import { machineIdentity, MachineIdentity } from './machineIdentity';
import { ShipCursor } from './shipCursor';

const BATCH = 500;
/** How long a record made alone waits for others to share its INSERT (one per tool call costs). */
const LINGER_MS = 50;
const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 30_000;

export interface ShipperOptions {
  /** The database URL, `${secret:…}` already resolved. */
  url: string;
  /** The log's directory: its records past the cursor are read from there. */
  logDirectory: string;
  /** `$XDG_STATE_HOME/mgp`: where the machine's id is kept, and what the chain's name is relative to. */
  stateRoot: string;
  /** Subscribes to each record once it is durable, in seq order; returns the unsubscribe. */
  onRecord(listener: (record: AuditRecord) => void): () => void;
  /** Told when the database goes away (once per outage) and when it is back. */
  onProblem?(message: string): void;
}

export interface ShipperStatus {
  database: string;
  machine: string;
  chain: string;
  shipped: number;
  /** Why records are waiting, while the database is away. */
  problem?: string;
}

export class AuditShipper {
  private pending: AuditRecord[] = [];
  private running: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private lingerTimer: NodeJS.Timeout | undefined;
  private retryMs = FIRST_RETRY_MS;
  private problem: string | undefined;
  private schemaReady = false;
  private closed = false;
  private unsubscribe: () => void = () => undefined;
  private readonly waiters = new Set<() => void>();
  /** The highest seq this shipper has seen appended (the log's own records may be higher). */
  private highest = 0;

  private constructor(
    private readonly options: ShipperOptions,
    private readonly db: TeamDatabase,
    private readonly machine: MachineIdentity,
    readonly chain: string,
    private readonly cursor: ShipCursor,
  ) {}

  /** Starts shipping: the backlog first, then each record as it becomes durable. */
  static async start(options: ShipperOptions): Promise<AuditShipper> {
    const db = openTeamDatabase(options.url);
    const machine = await machineIdentity(options.stateRoot);
    const chain = relative(options.stateRoot, options.logDirectory).split(sep).join('/');
    const cursor = new ShipCursor(options.logDirectory, db.shown);
    await cursor.load();
    const shipper = new AuditShipper(options, db, machine, chain, cursor);
    shipper.unsubscribe = options.onRecord((record) => shipper.enqueue(record));
    shipper.kick();
    return shipper;
  }

  status(): ShipperStatus {
    return {
      database: this.db.shown,
      machine: this.machine.id,
      chain: this.chain,
      shipped: this.cursor.seq,
      ...(this.problem ? { problem: this.problem } : {}),
    };
  }

  private enqueue(record: AuditRecord): void {
    this.highest = Math.max(this.highest, record.seq);
    if (record.seq > this.cursor.seq) this.pending.push(record);
    if (this.pending.length >= BATCH) return this.kick();
    this.lingerTimer ??= setTimeout(() => {
      this.lingerTimer = undefined;
      this.kick();
    }, LINGER_MS);
  }

  private kick(): void {
    if (this.running || this.retryTimer || this.closed) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
      // Records that came while the last batch was in flight.
      if (this.pending.length && !this.problem) this.kick();
    });
  }

  private async drain(): Promise<void> {
    try {
      if (!this.schemaReady) {
        await ensureSchema(this.db);
        this.schemaReady = true;
      }
      for (let batch = await this.nextBatch(); batch.length; batch = await this.nextBatch()) {
        await insertRecords(this.db.pool, this.machine, this.chain, batch);
        // Said before anyone waiting for these records hears they arrived.
        this.reachedAgain();
        this.cursor.advance(batch[batch.length - 1].seq);
        this.pending = this.pending.filter((record) => record.seq > this.cursor.seq);
        this.wake();
      }
      this.reachedAgain();
    } catch (error) {
      if (this.closed) return;
      const problem = `audit records wait in the local log: ${this.db.shown} cannot take them (${databaseProblem(error)})`;
      if (!this.problem) this.options.onProblem?.(problem);
      this.problem = problem;
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        this.kick();
      }, this.retryMs);
      this.retryTimer.unref();
      this.retryMs = Math.min(this.retryMs * 2, LAST_RETRY_MS);
    }
  }

  /** The database took records again after an outage: said once, and the retries start over. */
  private reachedAgain(): void {
    if (this.problem) this.options.onProblem?.(`audit records reach ${this.db.shown} again`);
    this.problem = undefined;
    this.retryMs = FIRST_RETRY_MS;
  }

  /** The next records after the cursor: those queued, or, past a gap, the log's own (the spool). */
  private async nextBatch(): Promise<AuditRecord[]> {
    const after = this.cursor.seq;
    const queued = this.pending.filter((record) => record.seq > after);
    if (queued[0]?.seq === after + 1) {
      const batch = [queued[0]];
      for (const record of queued.slice(1, BATCH))
        if (record.seq === batch[batch.length - 1].seq + 1) batch.push(record);
        else break;
      return batch;
    }
    const batch: AuditRecord[] = [];
    const maxSeq = queued[0] ? queued[0].seq - 1 : undefined;
    for await (const record of readRecords(
      this.options.logDirectory,
      {},
      { afterSeq: after, maxSeq },
    )) {
      batch.push(record);
      if (batch.length === BATCH) break;
    }
    return batch;
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Resolves once every record up to `seq` is in the database (tests, and a host closing). */
  shipped(seq: number): Promise<void> {
    if (this.cursor.seq >= seq) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (this.cursor.seq < seq) return;
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
    });
  }

  /** Ships what it can within `timeoutMs`; what is left waits in the log for the next run. */
  async close(timeoutMs = 5000): Promise<void> {
    const target = this.highest;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.shipped(target),
      new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
    ]);
    clearTimeout(timer);
    this.closed = true;
    clearTimeout(this.lingerTimer);
    this.unsubscribe();
    clearTimeout(this.retryTimer);
    await this.running?.catch(() => undefined);
    await this.cursor.save();
    await this.db.pool.end().catch(() => undefined);
  }
}
