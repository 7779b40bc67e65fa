/**
 * How far a log has been shipped: the last seq the database acknowledged, kept beside the log
 * (`postgres-shipped.json`), per database. The local log is the spool: records past the cursor are
 * shipped from it, so nothing the log holds is lost while the database is away, and a record
 * shipped again is a no-op there. So the file may lag the acknowledgements: it is written at most
 * once per SAVE_DELAY_MS and when the shipper closes, not once per batch (a file write and its fsync
 * per record would double what shipping costs a tool call); a crash re-sends at most that much.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isCode, writeFileAtomic } from '../store/atomicFile';

export const CURSOR_FILE = 'postgres-shipped.json';
const SAVE_DELAY_MS = 1000;

interface CursorFile {
  /** Per database (a hash of its URL without the password): the last seq acknowledged. */
  shipped: Record<string, number>;
}

export class ShipCursor {
  private file: CursorFile = { shipped: {} };
  private readonly path: string;
  private readonly key: string;
  private saveTimer: NodeJS.Timeout | undefined;
  private unsaved = false;
  private saving: Promise<void> = Promise.resolve();

  constructor(logDirectory: string, database: string) {
    this.path = join(logDirectory, CURSOR_FILE);
    this.key = createHash('sha256').update(database).digest('hex').slice(0, 16);
  }

  async load(): Promise<number> {
    try {
      const parsed = JSON.parse(await readFile(this.path, 'utf8')) as Partial<CursorFile>;
      if (parsed && typeof parsed.shipped === 'object' && parsed.shipped)
        this.file = { shipped: parsed.shipped };
    } catch (error) {
      // A cursor lost or damaged only costs shipping again what the database already has.
      if (!isCode(error, 'ENOENT') && !(error instanceof SyntaxError)) throw error;
    }
    return this.seq;
  }

  get seq(): number {
    const seq = this.file.shipped[this.key];
    return Number.isSafeInteger(seq) && seq > 0 ? seq : 0;
  }

  /** Moves the cursor past what the database acknowledged; the file follows within SAVE_DELAY_MS. */
  advance(seq: number): void {
    if (seq <= this.seq) return;
    this.file = { shipped: { ...this.file.shipped, [this.key]: seq } };
    this.unsaved = true;
    this.saveTimer ??= setTimeout(() => void this.save(), SAVE_DELAY_MS);
    this.saveTimer.unref();
  }

  /** Writes the cursor now, if it moved since it was last written. */
  save(): Promise<void> {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (!this.unsaved) return this.saving;
    this.unsaved = false;
    const text = JSON.stringify(this.file);
    // A cursor not written only costs shipping again what the database already has.
    this.saving = this.saving.then(() => writeFileAtomic(this.path, text)).catch(() => undefined);
    return this.saving;
  }
}
