/**
 * Where a record sits in the log (its file and byte offset), for readers that keep their place: a
 * view indexes what was appended since it last looked, and reads one record back by its position.
 */
import { open } from 'node:fs/promises';
import { isCode } from '../store/atomicFile';
import type { AuditRecord } from './auditEvent';
import { readLines } from './lines';
import { listSegments, segmentAt } from './segments';

export interface LogPosition {
  /** The file's number (`audit-000003.jsonl`: 3). */
  segment: number;
  /** Byte offset in that file. */
  offset: number;
}

export interface PositionedLine {
  /** The line's text, without its newline; not checked to be a record. */
  text: string;
  /** Where the line starts. */
  at: LogPosition;
  /** Where the line after it starts: the place to resume from once this one is taken. */
  next: LogPosition;
}

/**
 * The complete lines from `from` on, across rotations, oldest first. An incomplete last line (a
 * write in progress) ends it; a file pruned by retention meanwhile is passed over.
 */
export async function* linesFrom(
  directory: string,
  from: LogPosition,
): AsyncGenerator<PositionedLine> {
  for (const segment of await listSegments(directory)) {
    if (segment.index < from.segment) continue;
    const start = segment.index === from.segment ? from.offset : 0;
    try {
      for await (const line of readLines(segment.path, start)) {
        if (!line.complete) return;
        yield {
          text: line.text,
          at: { segment: segment.index, offset: line.offset },
          next: { segment: segment.index, offset: line.end },
        };
      }
    } catch (error) {
      if (!isCode(error, 'ENOENT')) throw error;
    }
  }
}

const CHUNK = 16 * 1024;

/** The record at `position`, checked to be `seq`; undefined when it is gone. */
export async function readRecordAt(
  directory: string,
  position: LogPosition,
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
