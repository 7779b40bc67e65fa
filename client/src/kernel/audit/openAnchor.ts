/**
 * chain.json as a writer opens the log: loaded (anchor.ts), its own seal checked with its key
 * (anchorSeal.ts), the log's tail recovered (recovery.ts), and written again, sealed.
 *
 * The writer checks its seal before it continues the log: a head it sealed and cannot find any more
 * (cut off) is continued from, so the gap stays visible; a seal that does not match, is gone, or
 * names a record that was replaced becomes a loss recorded in chain.json (`lost`), which the new
 * seals carry and `verify` keeps reporting. Without that check the writer would seal whatever head
 * it was given, and a forged one would come out vouched for.
 */
import { ANCHOR_FILE, ChainAnchor, loadAnchor, settleAnchor, writeAnchor } from './anchor';
import { AnchorKeyStore, anchorKey, SealKey } from './anchorSeal';
import type { AuditRecord } from './auditEvent';
import type { ChainLink } from './chain';
import { firstCompleteLine, readLines } from './lines';
import { recoverLog, RecoveredLog } from './recovery';
import { listSegments } from './segments';

export interface OpenedAnchor {
  anchor: ChainAnchor;
  recovered: RecoveredLog;
  /** The log's key, when the host's store gave one: every anchor written from now on is sealed. */
  key?: SealKey;
  /** chain.json had to record a loss now (the caller reports it). */
  lossNote?: string;
}

interface OwnSeal {
  key?: SealKey;
  /** The head this host's seal vouches for, its MAC checked. */
  sealed?: ChainLink;
  /** Why chain.json can no longer be vouched for. */
  loss?: string;
}

/** The host's key, and what its seal in chain.json says (when the MAC holds). */
async function ownSeal(
  dir: string,
  store: AnchorKeyStore | undefined,
  anchor: ChainAnchor,
  notes: string[],
): Promise<OwnSeal> {
  if (!store) return {};
  const lookup = await anchorKey(store, dir, true);
  const key = lookup.key;
  if (!key) {
    notes.push(`${ANCHOR_FILE} is not sealed while the log is open: ${lookup.why}`);
    return {};
  }
  const seal = anchor.seals?.[key.kind];
  if (lookup.state === 'created')
    return seal
      ? { key, loss: `${ANCHOR_FILE} was sealed with a key that ${key.description} does not hold` }
      : { key };
  if (!seal)
    return {
      key,
      loss: `${ANCHOR_FILE} carries no seal although ${key.description} holds this log's key: the seal was removed`,
    };
  const problem = key.problem(seal);
  if (problem) return { key, loss: `${ANCHOR_FILE}'s seal does not hold: ${problem}` };
  // A loss the seal carries stays, even when it was removed from chain.json itself.
  if (seal.lost && !anchor.lost) anchor.lost = seal.lost;
  return { key, sealed: { seq: seal.seq, hash: seal.hash } };
}

/** The hash of record `seq`, or undefined when no file holds it. */
async function hashAt(dir: string, seq: number): Promise<string | undefined> {
  const segments = await listSegments(dir);
  for (let i = segments.length - 1; i >= 0; i--) {
    const first = await firstCompleteLine(segments[i].path);
    const firstSeq = first === undefined ? undefined : seqOf(first);
    if (firstSeq === undefined || firstSeq > seq) continue;
    for await (const line of readLines(segments[i].path)) {
      if (!line.complete || seqOf(line.text) !== seq) continue;
      return (JSON.parse(line.text) as AuditRecord).hash;
    }
    return undefined;
  }
  return undefined;
}

function seqOf(text: string): number | undefined {
  try {
    const seq = (JSON.parse(text) as { seq?: unknown }).seq;
    return Number.isSafeInteger(seq) ? (seq as number) : undefined;
  } catch {
    return undefined;
  }
}

/** Why the record the seal names is not the one in the log, if it was replaced. */
async function replaced(dir: string, sealed: ChainLink, head: ChainLink, description: string) {
  if (sealed.seq <= 0 || head === sealed) return undefined;
  const hash = await hashAt(dir, sealed.seq);
  return hash === undefined || hash === sealed.hash
    ? undefined
    : `record ${sealed.seq}, sealed with the key in ${description}, was replaced`;
}

/** chain.json, checked and sealed, and the log's recovered tail: what a writer opens with. */
export async function openAnchor(
  dir: string,
  store: AnchorKeyStore | undefined,
  notes: string[],
  now: number,
): Promise<OpenedAnchor> {
  const loaded = await loadAnchor(dir, notes, now);
  const own = await ownSeal(dir, store, loaded.anchor, notes);
  const recovered = await recoverLog(dir, loaded.anchor, own.sealed);
  const swapped =
    own.sealed && own.key
      ? await replaced(dir, own.sealed, recovered.head, own.key.description)
      : undefined;
  const missing = loaded.missing ?? own.loss ?? swapped;
  const save = (anchor: ChainAnchor) => writeAnchor(dir, sealAnchor(anchor, own.key));
  const anchor = await settleAnchor(
    dir,
    { anchor: loaded.anchor, missing },
    recovered.head,
    recovered.segment,
    notes,
    now,
    save,
  );
  if (own.key && !missing) await save(anchor);
  return {
    anchor: sealAnchor(anchor, own.key),
    recovered,
    key: own.key,
    lossNote: anchor.lost && missing ? notes[notes.length - 1] : undefined,
  };
}

/** `anchor` with this host's seal of its head (and of the losses it records). */
export function sealAnchor(anchor: ChainAnchor, key: SealKey | undefined): ChainAnchor {
  if (!key || !anchor.head) return anchor;
  const seal = key.seal(anchor.head, anchor.lost);
  return { ...anchor, seals: { ...anchor.seals, [key.kind]: seal } };
}
