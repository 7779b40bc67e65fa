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
 * - `head`: a checkpoint of the newest durable record (seq and hash), written when a file is rotated,
 *   when the log is closed, and at most every few seconds after appends (never on the path of an
 *   acknowledgement). Records cut off at the end are detected back to this checkpoint: verification
 *   requires the record `head.seq` to be present with hash `head.hash`. Records appended after the
 *   last checkpoint can be cut off (at a line boundary) without trace: that is the limit of a local,
 *   unsigned log. The checkpoint is only ever written after the records it names are on disk, so a
 *   crash never leaves it ahead of the log; when the log is found *behind* it at open (records cut
 *   off), the chain continues from the checkpoint, so that the gap stays visible to `verify`.
 *
 * Whoever can rewrite every file can rewrite chain.json and recompute every hash too: the chain
 * detects accidents and edits, not an adversary with full write access (for that, copy the head hash
 * that `verify` prints somewhere else).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isCode, writeFileAtomic } from '../store/atomicFile';

export const ANCHOR_FILE = 'chain.json';

export interface ChainAnchor {
  version: 1;
  start?: { seq: number; prev_hash: string; file: string; pruned_at: string };
  head?: { seq: number; hash: string; file: string; at: string };
}

export type AnchorRead = { ok: true; anchor: ChainAnchor } | { ok: false; reason: string };

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

/** chain.json of `dir`: an empty anchor when there is none, a reason when it cannot be read. */
export async function readAnchor(dir: string): Promise<AnchorRead> {
  let text: string;
  try {
    text = await readFile(join(dir, ANCHOR_FILE), 'utf8');
  } catch (error) {
    if (isCode(error, 'ENOENT')) return { ok: true, anchor: { version: 1 } };
    throw error;
  }
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (
      value?.version === 1 &&
      isPosition(value.start, 'prev_hash') &&
      isPosition(value.head, 'hash')
    )
      return { ok: true, anchor: value as unknown as ChainAnchor };
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
