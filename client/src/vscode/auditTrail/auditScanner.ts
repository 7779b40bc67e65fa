/**
 * Fills an AuditIndex from a log's files and keeps it current: each scan reads only what was appended
 * since the last one (from the file and byte offset where it stopped), so a live append costs a few
 * lines, not a re-read. Lines that are not records are skipped, as the log's own readers do; an
 * incomplete last line (a write in progress) ends the scan until next time.
 */
import { linesFrom, type LogPosition } from '../../kernel';
import type { AuditIndex, IndexedFields } from './auditIndex';

export interface ScanOptions {
  /** Records above this seq are not indexed yet (not durable yet); Infinity when unknown. */
  maxSeq?: () => number;
  /** Told the index size every few thousand records during a long scan. */
  onProgress?: (records: number) => void;
}

const PROGRESS_EVERY = 10_000;

function parse(text: string): IndexedFields | undefined {
  try {
    const value = JSON.parse(text) as IndexedFields;
    return typeof value === 'object' && value !== null && Number.isSafeInteger(value.seq)
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}

export class AuditScanner {
  /** Where the indexed part of the log ends. */
  private end: LogPosition = { segment: 0, offset: 0 };
  private running: Promise<number> | undefined;
  private again = false;

  constructor(
    readonly directory: string,
    readonly index: AuditIndex,
    private readonly options: ScanOptions = {},
  ) {}

  /**
   * Indexes what was appended since the last scan; resolves with how many records were added.
   * Calls made while a scan runs are folded into one more scan after it.
   */
  scan(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = async (): Promise<number> => {
      let added = 0;
      do {
        this.again = false;
        added += await this.scanOnce();
      } while (this.again);
      return added;
    };
    this.running = run().finally(() => (this.running = undefined));
    return this.running;
  }

  private async scanOnce(): Promise<number> {
    const maxSeq = this.options.maxSeq?.() ?? Infinity;
    let added = 0;
    for await (const line of linesFrom(this.directory, this.end)) {
      const record = parse(line.text);
      if (record && record.seq > maxSeq) return added;
      this.end = line.next;
      if (!record || record.seq <= this.index.lastSeq) continue;
      this.index.add(record, line.at);
      if (++added % PROGRESS_EVERY === 0) this.options.onProgress?.(this.index.length);
    }
    return added;
  }
}
