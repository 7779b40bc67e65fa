/** The log's files: `audit-000001.jsonl`, `audit-000002.jsonl`, … in one directory, oldest first. */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isCode } from '../store/atomicFile';

const SEGMENT_NAME = /^audit-(\d{6,})\.jsonl$/;

export interface Segment {
  name: string;
  /** The number in the name: 1 for the first file ever, then +1 at each rotation. */
  index: number;
  path: string;
}

export function segmentName(index: number): string {
  return `audit-${String(index).padStart(6, '0')}.jsonl`;
}

export function segmentIndex(name: string): number | undefined {
  const match = SEGMENT_NAME.exec(name);
  return match ? Number(match[1]) : undefined;
}

export function segmentAt(dir: string, index: number): Segment {
  const name = segmentName(index);
  return { name, index, path: join(dir, name) };
}

/** The log's files, oldest first; none when the directory does not exist. */
export async function listSegments(dir: string): Promise<Segment[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return [];
    throw error;
  }
  const segments: Segment[] = [];
  for (const name of names) {
    const index = segmentIndex(name);
    if (index !== undefined) segments.push({ name, index, path: join(dir, name) });
  }
  return segments.sort((a, b) => a.index - b.index);
}

/** The size of a file, or 0 when it is gone (pruned meanwhile). */
export async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if (isCode(error, 'ENOENT')) return 0;
    throw error;
  }
}
