/**
 * The files of encrypted audit exports (MCP draft §3) in the editor, made and read with the key in
 * VS Code's secret storage (the host's AnchorKeyStore). Pure (no `vscode`): tested in node.
 */
import {
  type AnchorKeyStore,
  type AuditFilter,
  parseEncryptedTrace,
  TraceError,
  traceKey,
} from '../../kernel';
import type { AuditSource } from './auditSource';

/** The export of `source` under `filter`, encrypted: the file's text and what to tell the person. */
export async function encryptedExport(
  source: AuditSource,
  keys: AnchorKeyStore,
  filter: AuditFilter,
): Promise<{ text: string; count: number; madeKey: boolean }> {
  const existing = await traceKey(keys, false);
  const { key, why } = existing.key ? existing : await traceKey(keys, true);
  if (!key) throw new Error(`no key to encrypt with: ${why}`);
  const chunks: string[] = [];
  const count = await source.export('jsonl', (chunk) => void chunks.push(chunk), filter);
  const trace = key.encrypt(Buffer.from(chunks.join(''), 'utf8'));
  return { text: `${JSON.stringify(trace)}\n`, count, madeKey: !existing.key };
}

/** The plain text of an encrypted export, or why it cannot be read here. */
export async function decryptedText(text: string, keys: AnchorKeyStore): Promise<string> {
  const trace = parseEncryptedTrace(text);
  if (trace.key_store === 'cli' && keys.kind !== 'cli')
    throw new TraceError(
      'it was encrypted by the mgp command, whose key is in the OS keyring (or its key file): decrypt it with `mgp audit decrypt FILE`',
    );
  const { key, why } = await traceKey(keys, false);
  if (!key) throw new TraceError(`there is no key to decrypt it with: ${why}`);
  return key.decrypt(trace).toString('utf8');
}
