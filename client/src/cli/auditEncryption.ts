/**
 * Encrypted traces (MCP draft extensions, Nov 2025, §3) at the command line:
 *
 *     mgp audit export --encrypt [--algo aes-256-gcm] [--format jsonl|csv] [--out FILE] [filters]
 *     mgp audit decrypt FILE [--out FILE]
 *
 * `export --encrypt` writes the export as the draft's payload, `{ ciphertext, algo, key_id,
 * key_store }` (kernel audit/traceEncryption.ts), with the key of encrypted traces kept where the mgp
 * command keeps its keys (the OS keyring, else a user-only file: cliSecrets.ts), made at the first
 * use. `decrypt` gives back the export exactly. `amb-3body-xor` is refused, with the reason. Exit
 * status: 0 done, 1 a file that does not decrypt here (with why), 2 bad usage.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import {
  type AnchorKeyStore,
  type AuditRecord,
  type ExportFormat,
  exportRecords,
  parseEncryptedTrace,
  stateRoot,
  TRACE_ALGORITHM,
  traceAlgorithmRefusal,
  TraceError,
  traceKey,
} from '../kernel';
import { cliAnchorKeys } from './cliSecrets';
import { parseCommandLine, UsageError } from './flags';
import type { Io } from './io';

/** What the editor's store is, for a file encrypted there. */
const EDITOR_STORE_WORDS =
  "VS Code's secret storage: decrypt it in VS Code (MGP: Decrypt Audit Export…)";

export interface TraceKeyOptions {
  env?: Record<string, string | undefined>;
  home?: string;
  /** Where the key is (cliAnchorKeys under the state folder by default). */
  anchorKeys?: AnchorKeyStore;
}

function keyStore(options: TraceKeyOptions): AnchorKeyStore {
  const env = options.env ?? process.env;
  return (
    options.anchorKeys ?? cliAnchorKeys(stateRoot({ env, home: options.home ?? homedir() }), env)
  );
}

/** `--encrypt`, with `--algo`: the one algorithm used; the draft's other one refused with its reason. */
export function encryptOption(values: { encrypt?: boolean; algo?: string }): boolean {
  const refusal = values.algo === undefined ? undefined : traceAlgorithmRefusal(values.algo);
  if (refusal) throw new UsageError(refusal);
  if (values.algo !== undefined && values.encrypt !== true)
    throw new UsageError('--algo goes with --encrypt');
  return values.encrypt === true;
}

/** The export, encrypted with the key of encrypted traces (made at the first use). */
export async function exportEncrypted(
  records: AsyncIterable<AuditRecord>,
  format: ExportFormat,
  out: string | undefined,
  io: Io,
  options: TraceKeyOptions,
): Promise<number> {
  const store = keyStore(options);
  const existing = await traceKey(store, false);
  const { key, why } = existing.key ? existing : await traceKey(store, true);
  if (!key) {
    io.err(`mgp audit export: no key to encrypt with: ${why}`);
    return 1;
  }
  if (!existing.key) io.err(`mgp: made the key of encrypted traces, kept in ${key.description}`);
  const chunks: string[] = [];
  const count = await exportRecords(records, format, (chunk) => void chunks.push(chunk));
  const text = `${JSON.stringify(key.encrypt(Buffer.from(chunks.join(''), 'utf8')))}\n`;
  if (!out) {
    io.out(text.slice(0, -1));
    return 0;
  }
  await writeFile(resolve(out), text, { mode: 0o600 });
  io.err(`exported ${count} record(s), encrypted (${TRACE_ALGORITHM}), to ${resolve(out)}`);
  return 0;
}

const DECRYPT_FLAGS = { out: { type: 'string', value: 'FILE' } } as const;

/** `mgp audit decrypt FILE [--out FILE]`. */
export async function runDecrypt(
  args: string[],
  io: Io,
  options: TraceKeyOptions,
): Promise<number> {
  const line = parseCommandLine('mgp audit decrypt', args, DECRYPT_FLAGS);
  if (line.help) {
    io.out(
      'Usage: mgp audit decrypt FILE [--out FILE]   an export made with --encrypt, back as it was',
    );
    return 0;
  }
  const [file, ...extra] = line.positionals;
  if (!file) throw new UsageError('name the encrypted export: mgp audit decrypt FILE');
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
  try {
    const trace = parseEncryptedTrace(await readFile(resolve(file), 'utf8'));
    const store = keyStore(options);
    if (trace.key_store === 'editor' && store.kind !== 'editor')
      throw new TraceError(`its key is in ${EDITOR_STORE_WORDS}`);
    const { key, why } = await traceKey(store, false);
    if (!key) throw new TraceError(`there is no key to decrypt it with: ${why}`);
    const plain = key.decrypt(trace);
    if (line.values.out) {
      await writeFile(resolve(line.values.out), plain, { mode: 0o600 });
      io.err(`decrypted ${resolve(file)} to ${resolve(line.values.out)}`);
    } else
      (io.data ?? ((chunk: string) => io.out(chunk.replace(/\n$/, ''))))(plain.toString('utf8'));
    return 0;
  } catch (error) {
    if (!(error instanceof TraceError) && !isMissing(error)) throw error;
    io.err(`mgp audit decrypt: ${resolve(file)}: ${error instanceof Error ? error.message : ''}`);
    return 1;
  }
}

function isMissing(error: unknown): error is Error {
  return (error as { code?: unknown })?.code === 'ENOENT';
}
