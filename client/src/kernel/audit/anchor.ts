/**
 * `chain.json`: what the log files alone cannot tell.
 *
 * The hash chain (chain.ts) detects any change *between* two records. Two things it cannot see by
 * itself: records removed from the very start (the oldest file deleted) and records removed from the
 * very end (the newest records cut off). chain.json, beside the log files and always replaced
 * atomically (temp file, fsync, rename, fsync of the directory), pins both ends:
 *
 * - `start`: where the retained chain begins. Absent while nothing was ever pruned: the log must then
 *   start at seq 1 with prev_hash GENESIS_HASH. Retention writes it *before* deleting old files, naming
 *   the first record of the oldest file it keeps (its seq and prev_hash). So a file deleted by
 *   retention is expected, and a file deleted by hand (the log then starts after `start.seq`) is not.
 *   A crash between the write and the deletion leaves files that end before `start.seq`: they are
 *   still verified as part of the chain, and the next open deletes them.
 * - `head`: a checkpoint of the newest durable record (seq and hash), written by the log's writer
 *   after the writes that make records durable (one at a time, at most one every 250 ms and the
 *   last never skipped, off the path of the acknowledgement), at rotation and at close. A new log
 *   starts with a head at seq 0, written before its first record. Records cut off the end are
 *   detected back to this checkpoint: verification requires the record `head.seq` to be present with
 *   hash `head.hash`. Only records younger than the last checkpoint (a quarter of a second while
 *   the log is written) can still be cut off (at a line boundary) without trace: the checkpoint is only ever written after the records it names are on disk, so a crash
 *   never leaves it ahead of the log; when the log is found *behind* it at open (records cut off),
 *   the chain continues from the checkpoint, so that the gap stays visible to `verify`.
 * - A log with records always has chain.json with a head: without it records cut off the end could
 *   not be seen, so `verify` fails. When opening finds it missing (or unreadable) while records
 *   exist, the new chain.json says so in `lost` (when, and the last record then): that part of the
 *   log can no longer be vouched for, and `verify` keeps saying it.
 *
 * Whoever can rewrite every file can rewrite chain.json and recompute every hash too. What such a
 * process cannot forge is a head it cannot write: a seal made with a key kept outside the folder
 * (`seals`, anchorSeal.ts), and a head the user pinned elsewhere (`mgp audit head`, then
 * `mgp audit verify --expect-head`).
 */
import { readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { isCode, writeFileAtomic } from '../store/atomicFile';
import { AnchorLoss, AnchorSeal, isSeal } from './anchorSeal';
import type { ChainLink } from './chain';
import type { Segment } from './segments';

export const ANCHOR_FILE = 'chain.json';

export interface ChainAnchor {
  version: 1;
  start?: { seq: number; prev_hash: string; file: string; pruned_at: string };
  head?: { seq: number; hash: string; file: string; at: string };
  /** chain.json was missing, unreadable or unsealed when the log was opened at `at`, with records up to `seq`. */
  lost?: AnchorLoss;
  /** Each host's seal of the head it last checkpointed, by the kind of its key store (anchorSeal.ts). */
  seals?: Record<string, AnchorSeal>;
}

/** `present`: whether chain.json exists (an empty anchor stands in when it does not). */
export type AnchorRead =
  { ok: true; anchor: ChainAnchor; present: boolean } | { ok: false; reason: string };

function isPosition(value: unknown, hashKey: 'hash' | 'prev_hash'): boolean {
  if (value === undefined) return true;
  if (typeof value !== 'object' || value === null) return false;
  const position = value as Record<string, unknown>;
  return (
    Number.isSafeInteger(position.seq) &&
    typeof position[hashKey] === 'string' &&
    typeof position.file === 'string'
  );
}

function isLoss(value: unknown): boolean {
  if (value === undefined) return true;
  const loss = value as Record<string, unknown> | null;
  return typeof loss === 'object' && loss !== null && Number.isSafeInteger(loss.seq);
}

function areSeals(value: unknown): boolean {
  if (value === undefined) return true;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((seal) => isSeal(seal) && isLoss(seal.lost));
}

/** chain.json of `dir`: an empty anchor when there is none, a reason when it cannot be read. */
export async function readAnchor(dir: string): Promise<AnchorRead> {
  let text: string;
  try {
    text = await readFile(join(dir, ANCHOR_FILE), 'utf8');
  } catch (error) {
    if (isCode(error, 'ENOENT')) return { ok: true, anchor: { version: 1 }, present: false };
    throw error;
  }
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (
      value?.version === 1 &&
      isPosition(value.start, 'prev_hash') &&
      isPosition(value.head, 'hash') &&
      isLoss(value.lost) &&
      areSeals(value.seals)
    )
      return { ok: true, anchor: value as unknown as ChainAnchor, present: true };
    return { ok: false, reason: `${ANCHOR_FILE} does not have the expected shape` };
  } catch (error) {
    return {
      ok: false,
      reason: `${ANCHOR_FILE} is not JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

export async function writeAnchor(dir: string, anchor: ChainAnchor): Promise<void> {
  await writeFileAtomic(join(dir, ANCHOR_FILE), `${JSON.stringify(anchor, null, 2)}\n`);
}

/** chain.json, and why it cannot vouch for the log's end when it is missing or unreadable. */
export async function loadAnchor(
  dir: string,
  notes: string[],
  now: number,
): Promise<{ anchor: ChainAnchor; missing?: string }> {
  const read = await readAnchor(dir);
  if (read.ok && (read.anchor.head || !read.present)) {
    return { anchor: read.anchor, missing: read.present ? undefined : `${ANCHOR_FILE} is missing` };
  }
  if (read.ok) return { anchor: read.anchor, missing: `${ANCHOR_FILE} has no head checkpoint` };
  const aside = `${ANCHOR_FILE}.corrupt-${new Date(now).toISOString().replace(/:/g, '-')}`;
  await rename(join(dir, ANCHOR_FILE), join(dir, aside));
  notes.push(`${read.reason}: kept aside as ${aside}; starting a new one`);
  return { anchor: { version: 1 }, missing: `${ANCHOR_FILE} was unreadable` };
}

/**
 * The anchor a log opens with. A new log gets one before its first record (head at seq 0). A log
 * whose records outlived its anchor (deleted, unreadable, or without a head) gets a new one that
 * records the loss: records cut off the end before now cannot be detected, and `verify` says so.
 */
export async function settleAnchor(
  dir: string,
  loaded: { anchor: ChainAnchor; missing?: string },
  head: ChainLink,
  segment: Segment,
  notes: string[],
  now: number,
  save: (anchor: ChainAnchor) => Promise<void> = (anchor) => writeAnchor(dir, anchor),
): Promise<ChainAnchor> {
  if (!loaded.missing) return loaded.anchor;
  const at = new Date(now).toISOString();
  const anchor: ChainAnchor = {
    ...loaded.anchor,
    head: { seq: head.seq, hash: head.hash, file: segment.name, at },
  };
  if (head.seq > 0) {
    anchor.lost = { at, seq: head.seq, why: loaded.missing };
    notes.push(
      `${loaded.missing} although the log holds records up to seq ${head.seq}: records cut off the end before now cannot be detected; verify reports it`,
    );
  }
  await save(anchor);
  return anchor;
}
