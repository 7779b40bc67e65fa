/**
 * The hash chain.
 *
 * Every record carries `seq` (1, 2, 3, … across all files of one log), `prev_hash` (the `hash` of
 * record `seq - 1`, or GENESIS_HASH for seq 1) and `hash`:
 *
 *     hash = hex(SHA-256(UTF-8(canonicalJson(record without its `hash` key))))
 *
 * with canonicalJson as defined in canonical.ts (JSON with sorted keys, no whitespace). Since the
 * hash covers `seq` and `prev_hash`, editing a record changes its hash; deleting, inserting or
 * reordering records breaks the `seq` sequence or the `prev_hash` links.
 *
 * A record's line in the log is exactly its canonical form with `,"hash":"<hex>"` added before the
 * closing brace, and a newline. `checkLine` insists on that exact text, so a line cannot be edited
 * into a different-looking but equal-hashing form (a duplicated key, say) either.
 */
import * as crypto from 'node:crypto';
import type { AuditEvent, AuditRecord } from './auditEvent';
import { canonicalJson } from './canonical';

export const GENESIS_HASH = '0'.repeat(64);

export interface ChainLink {
  seq: number;
  hash: string;
}

/** The head of an empty log: the first record gets seq 1 and prev_hash GENESIS_HASH. */
export const GENESIS: ChainLink = { seq: 0, hash: GENESIS_HASH };

/** A record as the writer needs it: its place in the chain and its line. */
export interface SealedLine extends ChainLink {
  /** The record's line in the log, with its newline. */
  line: string;
}

export interface SealedRecord extends SealedLine {
  record: AuditRecord;
}

// crypto.hash (node ≥ 20.12) is a one-shot digest, faster than createHash for short inputs.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string })
  .hash;

function sha256(text: string): string {
  return oneShot
    ? oneShot('sha256', text, 'hex')
    : crypto.createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A shallow copy with sorted keys, without undefined values. */
function sortedCopy(object: object): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(object).sort()) {
    const value = (object as Record<string, unknown>)[key];
    if (value !== undefined) copy[key] = value;
  }
  return copy;
}

/** `event` numbered and chained after `previous`: a record without its hash, keys in canonical order. */
export function chainedRecord(event: AuditEvent, previous: ChainLink): Omit<AuditRecord, 'hash'> {
  // Keys in canonical (sorted) order, so that canonicalJson takes its fast path.
  return {
    actor: sortedCopy(event.actor) as AuditEvent['actor'],
    details: event.details,
    event_type: event.event_type,
    prev_hash: previous.hash,
    result: event.result,
    seq: previous.seq + 1,
    target: sortedCopy(event.target),
    timestamp: event.timestamp,
    trace_id: event.trace_id,
  };
}

/** Numbers `event` after `previous` and computes its hash. Throws a TypeError when `event` has no JSON form. */
export function sealRecord(event: AuditEvent, previous: ChainLink): SealedRecord {
  const unsealed = chainedRecord(event, previous);
  const body = canonicalJson(unsealed);
  const hash = sha256(body);
  return {
    record: { ...unsealed, hash },
    line: `${body.slice(0, -1)},"hash":"${hash}"}\n`,
    seq: unsealed.seq,
    hash,
  };
}

/**
 * The canonical form of `event`'s record cut where `prev_hash` and `seq` go (the keys sort as actor,
 * details, event_type, prev_hash, result, seq, target, timestamp, trace_id): what sealParts needs to
 * seal it once its place in the chain is known. Throws a TypeError when `event` has no JSON form.
 */
export function recordParts(event: AuditEvent): [string, string, string] {
  const before = canonicalJson({
    actor: sortedCopy(event.actor),
    details: event.details,
    event_type: event.event_type,
  });
  const between = canonicalJson({ result: event.result });
  const after = canonicalJson({
    target: sortedCopy(event.target),
    timestamp: event.timestamp,
    trace_id: event.trace_id,
  });
  return [before.slice(0, -1), between.slice(1, -1), after.slice(1)];
}

/** The record of `recordParts` numbered after `previous`, hashed: the same line as sealRecord's. */
export function sealParts(
  before: string,
  between: string,
  after: string,
  previous: ChainLink,
): SealedLine {
  const seq = previous.seq + 1;
  const body = `${before},"prev_hash":"${previous.hash}",${between},"seq":${seq},${after}`;
  const hash = sha256(body);
  return { line: `${body.slice(0, -1)},"hash":"${hash}"}\n`, seq, hash };
}

export type LineCheck =
  | { ok: true; record: AuditRecord }
  | {
      ok: false;
      kind: 'unparseable' | 'malformed' | 'hash_mismatch' | 'not_canonical';
      reason: string;
      seq: number | null;
    };

function shapeProblem(value: Record<string, unknown>): string | undefined {
  if (!Number.isSafeInteger(value.seq) || (value.seq as number) < 1)
    return 'seq is not a positive integer';
  for (const key of [
    'hash',
    'prev_hash',
    'timestamp',
    'trace_id',
    'event_type',
    'result',
  ] as const) {
    if (typeof value[key] !== 'string') return `${key} is not a string`;
  }
  for (const key of ['actor', 'target', 'details'] as const) {
    if (typeof value[key] !== 'object' || value[key] === null) return `${key} is not an object`;
  }
  return undefined;
}

/** Parses one line (without its newline) and checks its shape, its hash and its exact form. */
export function checkLine(text: string): LineCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      kind: 'unparseable',
      seq: null,
      reason: `not JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, kind: 'malformed', seq: null, reason: 'not a JSON object' };
  }
  const fields = value as Record<string, unknown>;
  const seq = Number.isSafeInteger(fields.seq) ? (fields.seq as number) : null;
  const shape = shapeProblem(fields);
  if (shape) return { ok: false, kind: 'malformed', seq, reason: `not an audit record: ${shape}` };
  const { hash, ...rest } = fields;
  const body = canonicalJson(rest);
  const computed = sha256(body);
  if (computed !== hash) {
    return {
      ok: false,
      kind: 'hash_mismatch',
      seq,
      reason: `the record's content does not match its hash (stored ${String(hash).slice(0, 12)}…, computed ${computed.slice(0, 12)}…): it was edited`,
    };
  }
  if (`${body.slice(0, -1)},"hash":"${computed}"}` !== text) {
    return {
      ok: false,
      kind: 'not_canonical',
      seq,
      reason:
        'the line is not in the form the log writes (extra spaces, reordered or duplicated keys): it was edited',
    };
  }
  return { ok: true, record: value as AuditRecord };
}

/** A record's line (with its newline) as the log writes it. */
export function recordLine(record: AuditRecord): string {
  const { hash, ...rest } = record;
  return `${canonicalJson(rest).slice(0, -1)},"hash":"${hash}"}\n`;
}
