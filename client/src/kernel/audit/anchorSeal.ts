/**
 * The seal of chain.json: its head checkpoint vouched for by a key the log's folder does not hold.
 *
 * chain.json lies in the folder it vouches for, so whoever can write the log could cut records off
 * its end and rewrite the head to match (anchor.ts). A seal is an HMAC-SHA-256, with a key of this
 * log, over the head a host checkpointed (seq, hash, when) and the losses it knew of (`lost`). The
 * key is kept where the host keeps secrets: the `mgp` command's store (the OS keyring, or a user-only
 * file where there is none), VS Code's SecretStorage in the editor. Each host can read only its own
 * store, so chain.json keeps one seal per store (`seals.<kind>`), and a host only ever writes its own:
 * it vouches for the heads it wrote, never for what another host left.
 *
 * One key per log (named by its directory): a key in the store means that host sealed this log, so
 * a seal that is missing was removed. A seal vouches that the record it names was on disk when it
 * was made: cutting the log back before it, or replacing that record, is detected. It cannot tell an
 * old chain.json put back after the records written since were cut off; a head pinned elsewhere
 * (`mgp audit verify --expect-head`) can. And it protects only from a process that cannot read the
 * store: most OS keyrings let any process of the same user read their entries, and a user-only file
 * protects from no process of that user.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { resolve } from 'node:path';
import { canonicalJson } from './canonical';

/** Where a host keeps the keys of the logs it writes. */
export interface AnchorKeyStore {
  /** Which host's store, named in the seal: `cli` (the mgp command) or `editor` (VS Code). */
  readonly kind: string;
  /** Where the keys are, as a person reads it ("the OS keyring", a file…). */
  readonly description: string;
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
}

export interface AnchorLoss {
  at: string;
  seq: number;
  why: string;
}

export interface AnchorSeal {
  /** Tells keys apart without revealing them: an HMAC of a fixed text, cut to 16 hex digits. */
  key_id: string;
  seq: number;
  hash: string;
  at: string;
  lost?: AnchorLoss;
  mac: string;
}

/** Who reads each kind of store, for people told about a seal they cannot check here. */
export const STORE_HOLDERS: Record<string, string> = {
  cli: 'the mgp command',
  editor: 'VS Code (MGP Kernel)',
};

const KEY_BYTES = 32;
const KEY_TEXT = /^[A-Za-z0-9_-]{43}$/;

/** The store's name for the key of the log in `dir`. */
export function anchorKeyName(dir: string): string {
  return `mgp.audit-anchor/${createHash('sha256').update(resolve(dir)).digest('hex').slice(0, 24)}`;
}

/** A log's key. The secret is a private field: it never reaches JSON, the log or a message. */
export class SealKey {
  readonly #secret: Buffer;
  readonly id: string;

  constructor(
    readonly kind: string,
    readonly description: string,
    secret: Buffer,
  ) {
    this.#secret = secret;
    this.id = this.mac('mgp audit anchor key id').slice(0, 16);
  }

  private mac(text: string): string {
    return createHmac('sha256', this.#secret).update(text, 'utf8').digest('hex');
  }

  private body(seal: Omit<AnchorSeal, 'mac'>): string {
    const { key_id, seq, hash, at, lost } = seal;
    return canonicalJson({ store: this.kind, key_id, seq, hash, at, lost });
  }

  seal(head: { seq: number; hash: string; at: string }, lost?: AnchorLoss): AnchorSeal {
    const unsealed = { key_id: this.id, seq: head.seq, hash: head.hash, at: head.at, lost };
    if (!lost) delete unsealed.lost;
    return { ...unsealed, mac: this.mac(this.body(unsealed)) };
  }

  /** Why `seal` is not this key's seal of what it says, or undefined when it is. */
  problem(seal: AnchorSeal): string | undefined {
    if (seal.key_id !== this.id)
      return `it was made with another key (key id ${seal.key_id.slice(0, 16)}, the key in ${this.description} is ${this.id})`;
    const expected = Buffer.from(this.mac(this.body(seal)), 'hex');
    const given = Buffer.from(seal.mac, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return 'its MAC does not match what it says: chain.json was edited without the key';
    return undefined;
  }

  toJSON(): Record<string, string> {
    return { kind: this.kind, id: this.id };
  }
}

export interface KeyLookup {
  /** The store's kind and description. */
  kind: string;
  description: string;
  state: 'found' | 'created' | 'absent' | 'failed';
  /** Found or created. */
  key?: SealKey;
  /** Why there is no key (absent or failed). */
  why?: string;
}

/** The key of the log in `dir`: made and stored when there is none and `create` is set. */
export async function anchorKey(
  store: AnchorKeyStore,
  dir: string,
  create: boolean,
): Promise<KeyLookup> {
  const { kind, description } = store;
  const name = anchorKeyName(dir);
  const found = (state: 'found' | 'created', secret: Buffer): KeyLookup => ({
    kind,
    description,
    state,
    key: new SealKey(kind, description, secret),
  });
  try {
    const text = await store.get(name);
    if (text !== undefined)
      return KEY_TEXT.test(text)
        ? found('found', Buffer.from(text, 'base64url'))
        : { kind, description, state: 'failed', why: `the entry ${name} is not a key` };
    if (!create)
      return { kind, description, state: 'absent', why: `${description} has no key for this log` };
    const secret = randomBytes(KEY_BYTES);
    await store.set(name, secret.toString('base64url'));
    return found('created', secret);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { kind, description, state: 'failed', why: `${description} failed: ${why}` };
  }
}

export function isSeal(value: unknown): value is AnchorSeal {
  if (typeof value !== 'object' || value === null) return false;
  const seal = value as Record<string, unknown>;
  return (
    typeof seal.key_id === 'string' &&
    Number.isSafeInteger(seal.seq) &&
    typeof seal.hash === 'string' &&
    typeof seal.at === 'string' &&
    typeof seal.mac === 'string' &&
    /^[0-9a-f]{64}$/.test(seal.mac)
  );
}
