/**
 * What vouches for the log's end besides chain.json's own head: the host's seal of chain.json, checked
 * with this log's key (anchorSeal.ts), and a head the user pinned (`--expect-head`). Each becomes a
 * pin, a record the walk must find (verify.ts): cut off, it is `truncated`; replaced,
 * `checkpoint_mismatch`; a pinned hash found nowhere, `pinned_head_missing`.
 *
 * A seal that cannot be checked is said, never passed over in silence: a seal whose key is not there
 * fails the check unless a pinned head vouches for the end instead; a log without a seal says so in
 * a note.
 */
import { ANCHOR_FILE, type ChainAnchor } from './anchor';
import { AnchorLoss, KeyLookup, STORE_HOLDERS } from './anchorSeal';

export interface Pin {
  /** The record's seq; a pinned head is known by its hash alone. */
  seq?: number;
  hash: string;
  /** What pinned it, as a person reads it. */
  what: string;
}

export type SealStatus = 'checked' | 'mismatch' | 'unsealed' | 'no_key' | 'key_unreadable';

export interface SealReport {
  /** The kind of store whose seal was looked at (`cli`, `editor`). */
  store: string;
  description: string;
  status: SealStatus;
  /** The seq the checked seal vouches for. */
  seq?: number;
}

export type PinProblemKind =
  'seal_mismatch' | 'seal_missing' | 'seal_unverifiable' | 'pinned_head_missing';

export interface VerifyOptions {
  /** This host's key of the log, looked up without making one, to check its seal. */
  key?: KeyLookup;
  /** The hash of a record the user pinned: the log must still hold it. */
  expectHead?: string;
}

export interface HeadPins {
  pins: Pin[];
  /** A loss the checked seal carries (kept even when removed from chain.json). */
  lost?: AnchorLoss;
  problem?: { kind: PinProblemKind; reason: string };
  notes: string[];
  seal: SealReport | null;
}

/** The pins of a verification, and what the seals say before the walk. */
export function headPins(anchor: ChainAnchor, options: VerifyOptions): HeadPins {
  const result: HeadPins = { pins: [], notes: [], seal: null };
  const pinned = options.expectHead;
  if (pinned)
    result.pins.push({ hash: pinned, what: `the head you pinned (${pinned.slice(0, 12)}…)` });
  const lookup = options.key;
  for (const [other, seal] of Object.entries(anchor.seals ?? {}))
    if (other !== lookup?.kind)
      result.notes.push(
        `${ANCHOR_FILE} is also sealed up to seq ${seal.seq} with a key that ${STORE_HOLDERS[other] ?? other} keeps: check it there`,
      );
  if (lookup) judgeOwnSeal(anchor, lookup, Boolean(pinned), result);
  return result;
}

function judgeOwnSeal(
  anchor: ChainAnchor,
  lookup: KeyLookup,
  pinned: boolean,
  result: HeadPins,
): void {
  const { kind, description, key } = lookup;
  const seal = anchor.seals?.[kind];
  const report = (status: SealStatus, seq?: number) =>
    void (result.seal = { store: kind, description, status, ...(seq !== undefined && { seq }) });
  if (key) {
    if (!seal) {
      report('unsealed');
      result.problem = {
        kind: 'seal_missing',
        reason: `${ANCHOR_FILE} carries no seal although ${description} holds this log's key: the seal was removed`,
      };
      return;
    }
    const problem = key.problem(seal);
    if (problem) {
      report('mismatch');
      result.problem = { kind: 'seal_mismatch', reason: `${ANCHOR_FILE}'s seal: ${problem}` };
      return;
    }
    report('checked', seal.seq);
    result.lost = seal.lost;
    result.pins.push({
      seq: seal.seq,
      hash: seal.hash,
      what: `the head sealed with the key in ${description}`,
    });
    return;
  }
  const status = lookup.state === 'absent' ? 'no_key' : 'key_unreadable';
  report(seal ? status : 'unsealed');
  if (!seal) {
    result.notes.push(
      `${ANCHOR_FILE} is not sealed with a key in ${description}: its head is only as trustworthy as the folder; pin one with mgp audit head`,
    );
    return;
  }
  const why = `${ANCHOR_FILE} is sealed up to seq ${seal.seq} with a key this check cannot read (${lookup.why})`;
  if (pinned) result.notes.push(`${why}; the head you pinned vouches for the end instead`);
  else
    result.problem = {
      kind: 'seal_unverifiable',
      reason: `${why}: the end of the log cannot be vouched for; check it against a head you pinned (--expect-head), or where the key is`,
    };
}

/** The first pin the walk did not find in the log, as a problem; one older than the log was pruned. */
export function missingPin(
  pins: readonly Pin[],
  seen: ReadonlySet<Pin>,
  firstSeq: number | null,
  lastSeq: number,
): { kind: 'truncated' | 'pinned_head_missing'; seq: number | null; reason: string } | undefined {
  for (const pin of pins) {
    if (seen.has(pin)) continue;
    if (pin.seq === undefined) {
      const range = firstSeq === null ? 'no records' : `seq ${firstSeq}–${lastSeq}`;
      return {
        kind: 'pinned_head_missing',
        seq: null,
        reason: `the log (${range}) does not hold ${pin.what}: records were cut off the end or replaced (or retention pruned it: pin a newer head)`,
      };
    }
    if (pin.seq > lastSeq)
      return {
        kind: 'truncated',
        seq: lastSeq + 1,
        reason: `the log ends at seq ${lastSeq}, but ${pin.what} is seq ${pin.seq}: records ${lastSeq + 1}–${pin.seq} were cut off the end`,
      };
  }
  return undefined;
}
