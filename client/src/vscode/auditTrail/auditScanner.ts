/**
 * Fills an AuditIndex from a log's files and keeps it current: each scan reads only what was appended
 * since the last one (from the file and byte offset where it stopped), so a live append costs a few
 * lines, not a re-read. Lines that are not records are skipped, as the log's own readers do; an
 * incomplete last line (a write in progress) ends the scan until next time. Also reads one record
 * back by its position, for the detail pane.
 */
import { open } from 'node:fs/promises';
import { type AuditRecord, isCode, listSegments, readLines, segmentAt } from '../../kernel';
import type { AuditIndex, IndexedFields, RecordPosition } from './auditIndex';

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
  private segment = 0;
  private offset = 0;
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
    for (const segment of await listSegments(this.directory)) {
      if (segment.index < this.segment) continue;
      if (segment.index > this.segment) [this.segment, this.offset] = [segment.index, 0];
      try {
        for await (const line of readLines(segment.path, this.offset)) {
          if (!line.complete) return added;
          const record = parse(line.text);
          if (record && record.seq > maxSeq) return added;
          this.offset = line.end;
          if (!record || record.seq <= this.index.lastSeq) continue;
          this.index.add(record, { segment: segment.index, offset: line.offset });
          if (++added % PROGRESS_EVERY === 0) this.options.onProgress?.(this.index.length);
        }
      } catch (error) {
        if (!isCode(error, 'ENOENT')) throw error; // pruned by retention meanwhile
      }
    }
    return added;
  }
}

const CHUNK = 16 * 1024;

/** The record at `position` in the log in `directory`, checked to be `seq`; undefined when it is gone. */
export async function readRecordAt(
  directory: string,
  position: RecordPosition,
  seq: number,
): Promise<AuditRecord | undefined> {
  let handle;
  try {
    handle = await open(segmentAt(directory, position.segment).path, 'r');
  } catch (error) {
    if (isCode(error, 'ENOENT')) return undefined;
    throw error;
  }
  try {
    const parts: Buffer[] = [];
    for (let at = position.offset; ; at += CHUNK) {
      const chunk = Buffer.alloc(CHUNK);
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, at);
      const newline = chunk.subarray(0, bytesRead).indexOf(0x0a);
      parts.push(chunk.subarray(0, newline === -1 ? bytesRead : newline));
      if (newline !== -1 || bytesRead < CHUNK) break;
    }
    const record = JSON.parse(Buffer.concat(parts).toString('utf8')) as AuditRecord;
    return record.seq === seq ? record : undefined;
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}
