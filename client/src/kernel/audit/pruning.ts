import { unlink } from 'node:fs/promises';
import { fsyncDirectory } from '../store/atomicFile';
import type { ChainAnchor } from './anchor';
import type { AuditRecord } from './auditEvent';
import type { ChainLink } from './chain';
import { firstCompleteLine, scanTail } from './lines';
import { filesToPrune, RetentionPolicy, SegmentFacts } from './retention';
import { listSegments, Segment, sizeOf } from './segments';

/** What pruning reads of the open log, each when it needs it (appends go on meanwhile). */
export interface PruneContext {
  directory: string;
  policy: RetentionPolicy;
  /** The file being written: never pruned. */
  active: Segment;
  clock: () => number;
  durable(): { link: ChainLink; segment: Segment };
  anchor(): ChainAnchor;
  /** Keeps the new anchor and writes chain.json. */
  saveAnchor(anchor: ChainAnchor): Promise<void>;
  report(what: string, error: unknown): void;
}

/**
 * Deletes the whole old files the retention policy lets go, after recording in chain.json where the
 * retained chain now starts (so verify tells pruning from tampering); returns their names.
 */
export async function pruneSegments(context: PruneContext): Promise<string[]> {
  const { policy, active, clock, directory } = context;
  if (policy.policy === 'keep_all') return [];
  const segments = [
    ...(await listSegments(directory)).filter((s) => s.index < active.index),
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
  const count = filesToPrune(facts, policy, clock());
  if (count === 0) return [];
  const start = await firstRecordFrom(segments.slice(count), context.report);
  if (!start) return [];
  const { link, segment } = context.durable();
  const anchor = context.anchor();
  const head =
    link.seq > 0
      ? { seq: link.seq, hash: link.hash, file: segment.name, at: new Date(clock()).toISOString() }
      : anchor.head;
  // chain.json first: a crash after this only leaves files to delete
  await context.saveAnchor({
    ...anchor,
    start: { ...start, pruned_at: new Date(clock()).toISOString() },
    head,
  });
  const pruned = segments.slice(0, count);
  for (const old of pruned) await unlink(old.path);
  await fsyncDirectory(directory);
  return pruned.map((s) => s.name);
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

/** seq and prev_hash of the first record in `segments`: where the retained chain will start. */
async function firstRecordFrom(
  segments: Segment[],
  report: PruneContext['report'],
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
    report('retention', new Error(`${segment.name} does not start with a record; nothing pruned`));
    return undefined;
  }
  return undefined;
}
