/**
 * Opening a log after whatever happened to it: a clean close, a crash mid-write, an interrupted
 * retention pass, or files removed by hand.
 *
 * - A torn last line (a write cut short by a crash, or zeros a file system left) is cut off the
 *   newest file, with a note. It can only hold records that were never acknowledged: an
 *   acknowledgement waits for the fsync of whole lines.
 * - Files wholly before chain.json's `start` are the rest of an interrupted retention pass: deleted.
 * - The chain continues from the newest complete record, or from chain.json's checkpoint if that is
 *   newer (records were cut off the end): seq numbers are never reused, and the gap stays visible to
 *   `verify`.
 */
import { open, unlink } from 'node:fs/promises';
import type { ChainAnchor } from './anchor';
import { GENESIS, type ChainLink } from './chain';
import { fsyncDirectory } from '../store/atomicFile';
import { readLines, scanTail } from './lines';
import { listSegments, Segment, segmentAt, segmentIndex, sizeOf } from './segments';

export interface RecoveredLog {
  /** The file to append to, and its size. */
  segment: Segment;
  size: number;
  /** The last record of the chain: the next record is `head.seq + 1`, chained to `head.hash`. */
  head: ChainLink;
  /** What was repaired or found, in words. */
  notes: string[];
}

async function truncateFile(path: string, size: number): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.truncate(size);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** seq and hash of a line, when it has them (verification is verify.ts's business). */
function linkOf(text: string): ChainLink | undefined {
  try {
    const value = JSON.parse(text) as { seq?: unknown; hash?: unknown };
    if (Number.isSafeInteger(value.seq) && typeof value.hash === 'string')
      return { seq: value.seq as number, hash: value.hash };
  } catch {
    // not a record
  }
  return undefined;
}

/** The last line of `path` that names a seq and a hash (for a file whose last line is damaged). */
async function lastLinkIn(path: string): Promise<ChainLink | undefined> {
  let found: ChainLink | undefined;
  for await (const line of readLines(path)) if (line.complete) found = linkOf(line.text) ?? found;
  return found;
}

async function finishPruning(
  dir: string,
  segments: Segment[],
  anchor: ChainAnchor,
  notes: string[],
): Promise<Segment[]> {
  const startIndex = anchor.start ? segmentIndex(anchor.start.file) : undefined;
  if (startIndex === undefined) return segments;
  const leftover = segments.filter((s) => s.index < startIndex);
  for (const segment of leftover) await unlink(segment.path);
  if (leftover.length === 0) return segments;
  await fsyncDirectory(dir);
  notes.push(
    `finished an interrupted retention pass: deleted ${leftover.map((s) => s.name).join(', ')}`,
  );
  return segments.filter((s) => s.index >= startIndex);
}

/** The newest record on disk, after cutting a torn tail off the newest file. */
async function findHead(segments: Segment[], notes: string[]): Promise<ChainLink | undefined> {
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i];
    const scan = await scanTail(segment.path);
    if (scan.goodEnd < scan.size && i === segments.length - 1) {
      await truncateFile(segment.path, scan.goodEnd);
      notes.push(
        `${segment.name}: cut off an incomplete last line (${scan.size - scan.goodEnd} bytes at offset ${scan.goodEnd}) left by an interrupted write; it held no acknowledged record`,
      );
    }
    if (scan.last === undefined) continue;
    const link = linkOf(scan.last) ?? (await lastLinkIn(segment.path));
    if (!linkOf(scan.last))
      notes.push(
        `${segment.name}: the last line is not a record; the chain continues from the last one that is`,
      );
    if (link) return link;
  }
  return undefined;
}

function newestOf(links: (ChainLink | undefined)[]): ChainLink {
  return links.reduce<ChainLink>(
    (best, link) => (link && link.seq > best.seq ? link : best),
    GENESIS,
  );
}

/**
 * The log's tail, where the chain continues. `sealed` is a head this host's seal vouches for
 * (openAnchor.ts): like the checkpoint, the chain continues after it when the log ends before it.
 */
export async function recoverLog(
  dir: string,
  anchor: ChainAnchor,
  sealed?: ChainLink,
): Promise<RecoveredLog> {
  const notes: string[] = [];
  const segments = await finishPruning(dir, await listSegments(dir), anchor, notes);
  const found = await findHead(segments, notes);
  const checkpoint = anchor.head && { seq: anchor.head.seq, hash: anchor.head.hash };
  const start = anchor.start && { seq: anchor.start.seq - 1, hash: anchor.start.prev_hash };
  const head = newestOf([found, sealed, checkpoint, start]);
  if (head !== found && head.seq > 0) {
    const named =
      head === sealed
        ? 'the sealed head'
        : checkpoint && head.seq === checkpoint.seq
          ? 'the checkpoint'
          : 'the retention anchor';
    notes.push(
      `the log ends at seq ${found?.seq ?? 0} but ${named} in chain.json names seq ${head.seq}: records were removed; the chain continues from seq ${head.seq + 1} so that the gap stays visible`,
    );
  }
  const named = [anchor.head?.file, anchor.start?.file].map((f) =>
    f ? (segmentIndex(f) ?? 0) : 0,
  );
  const newest = segments[segments.length - 1];
  const highestNamed = Math.max(0, ...named);
  const segment =
    newest && newest.index >= highestNamed ? newest : segmentAt(dir, highestNamed + 1);
  return { segment, size: await sizeOf(segment.path), head, notes };
}
