/**
 * Encrypted traces (MCP draft extensions, Nov 2025, §3): an export of the audit log as the draft's
 * payload, `{ ciphertext, algo }`, whose key stays with the user. The key is kept where the host keeps
 * its secrets (the `mgp` command's store: the OS keyring, or a user-only file without one; VS Code's
 * SecretStorage in the editor), one per store; the file names which key (`key_id`, an HMAC of a fixed
 * text, never the key) and which store (`key_store`), so that a file is decrypted where its key is.
 *
 * The one algorithm offered is AES-256-GCM: `ciphertext` is base64 of the 12-byte nonce, the
 * encrypted bytes and the 16-byte tag, with the algorithm and the key id as associated data, so a
 * file whose header was changed does not decrypt. The draft's other algorithm, `amb-3body-xor`, is
 * refused, with the reason, both ways.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { AnchorKeyStore } from './anchorSeal';

export const TRACE_ALGORITHM = 'aes-256-gcm';

/** Algorithms the draft names that the kernel will not use, and why. */
export const REFUSED_TRACE_ALGORITHMS: Readonly<Record<string, string>> = {
  'amb-3body-xor':
    'it is not a vetted cipher (an XOR construction with no published analysis or security proof), so it cannot be relied on to keep a trace secret; use aes-256-gcm',
};

/** The draft's payload, as the kernel writes it. */
export interface EncryptedTrace {
  ciphertext: string;
  algo: typeof TRACE_ALGORITHM;
  /** Which key: an HMAC of a fixed text with it, 16 hex digits. */
  key_id: string;
  /** Which host's store holds the key: `cli` (the mgp command) or `editor` (VS Code). */
  key_store: string;
}

export class TraceError extends Error {}

/** The store's entry for the key (one per store). */
export const TRACE_KEY_NAME = 'mgp.audit-trace-key';

const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_TEXT = /^[A-Za-z0-9_-]{43}$/;

/** Why the kernel will not encrypt or decrypt with `algo`, or undefined for the one it uses. */
export function traceAlgorithmRefusal(algo: string): string | undefined {
  if (algo === TRACE_ALGORITHM) return undefined;
  const why = REFUSED_TRACE_ALGORITHMS[algo];
  return why
    ? `${algo} is refused: ${why}`
    : `${algo} is not an algorithm of encrypted traces (the kernel uses ${TRACE_ALGORITHM})`;
}

/** The key of encrypted traces. The secret is a private field: never in JSON, a log or a message. */
export class TraceKey {
  readonly #secret: Buffer;
  readonly id: string;

  constructor(
    readonly store: string,
    readonly description: string,
    secret: Buffer,
  ) {
    this.#secret = secret;
    this.id = createHmac('sha256', secret)
      .update('mgp audit trace key id', 'utf8')
      .digest('hex')
      .slice(0, 16);
  }

  private associated(): Buffer {
    return Buffer.from(`mgp audit trace|${TRACE_ALGORITHM}|${this.id}`, 'utf8');
  }

  encrypt(plaintext: Buffer): EncryptedTrace {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv(TRACE_ALGORITHM, this.#secret, nonce);
    cipher.setAAD(this.associated());
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    const ciphertext = Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64');
    return { ciphertext, algo: TRACE_ALGORITHM, key_id: this.id, key_store: this.store };
  }

  decrypt(trace: EncryptedTrace): Buffer {
    if (trace.key_id !== this.id)
      throw new TraceError(
        `it was encrypted with another key (key id ${trace.key_id}; the key in ${this.description} is ${this.id})`,
      );
    const bytes = Buffer.from(trace.ciphertext, 'base64');
    if (bytes.length < NONCE_BYTES + TAG_BYTES)
      throw new TraceError('its ciphertext is too short to hold a nonce and a tag');
    const decipher = createDecipheriv(
      TRACE_ALGORITHM,
      this.#secret,
      bytes.subarray(0, NONCE_BYTES),
    );
    decipher.setAAD(this.associated());
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]);
    } catch {
      throw new TraceError('it does not decrypt: the file was changed, or cut');
    }
  }

  toJSON(): Record<string, string> {
    return { store: this.store, id: this.id };
  }
}

/** The key in `store`: made and kept there when there is none and `create` is set. */
export async function traceKey(
  store: AnchorKeyStore,
  create: boolean,
): Promise<{ key?: TraceKey; why?: string }> {
  const { kind, description } = store;
  try {
    const text = await store.get(TRACE_KEY_NAME);
    if (text !== undefined)
      return KEY_TEXT.test(text)
        ? { key: new TraceKey(kind, description, Buffer.from(text, 'base64url')) }
        : { why: `the entry ${TRACE_KEY_NAME} in ${description} is not a key` };
    if (!create) return { why: `${description} holds no key of encrypted traces` };
    const secret = randomBytes(KEY_BYTES);
    await store.set(TRACE_KEY_NAME, secret.toString('base64url'));
    return { key: new TraceKey(kind, description, secret) };
  } catch (error) {
    return {
      why: `${description} failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** An encrypted trace read from a file's text: refused, with the reason, unless the kernel can read it. */
export function parseEncryptedTrace(text: string): EncryptedTrace {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new TraceError('it is not JSON: not an encrypted trace');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new TraceError('it is not an encrypted trace ({ ciphertext, algo })');
  const trace = value as Record<string, unknown>;
  if (typeof trace.algo !== 'string') throw new TraceError('it names no algorithm (algo)');
  const refusal = traceAlgorithmRefusal(trace.algo);
  if (refusal) throw new TraceError(refusal);
  if (typeof trace.ciphertext !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(trace.ciphertext))
    throw new TraceError('its ciphertext is not base64');
  if (typeof trace.key_id !== 'string' || !/^[0-9a-f]{16}$/.test(trace.key_id))
    throw new TraceError('it does not say which key encrypted it (key_id)');
  return {
    ciphertext: trace.ciphertext,
    algo: TRACE_ALGORITHM,
    key_id: trace.key_id,
    key_store: typeof trace.key_store === 'string' ? trace.key_store : 'unknown',
  };
}
