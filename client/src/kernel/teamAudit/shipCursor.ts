/**
 * How far a log has been shipped: the last seq the database acknowledged, kept beside the log
 * (`postgres-shipped.json`), per database. The local log is the spool: records past the cursor are
 * shipped from it, so nothing the log holds is lost while the database is away, and a record
 * shipped again (the cursor is written after the database acknowledged) is a no-op there.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isCode, writeFileAtomic } from '../store/atomicFile';

export const CURSOR_FILE = 'postgres-shipped.json';

interface CursorFile {
  /** Per database (a hash of its URL without the password): the last seq acknowledged. */
  shipped: Record<string, number>;
}

export class ShipCursor {
  private file: CursorFile = { shipped: {} };
  private readonly path: string;
  private readonly key: string;

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

  async advance(seq: number): Promise<void> {
    if (seq <= this.seq) return;
    this.file = { shipped: { ...this.file.shipped, [this.key]: seq } };
    await writeFileAtomic(this.path, JSON.stringify(this.file));
  }
}
