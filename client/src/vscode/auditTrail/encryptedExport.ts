/**
 * Encrypted traces (MCP draft extensions, Nov 2025, §3) in the editor: the Audit Trail's "Export
 * encrypted" writes the records that pass the filter as the draft's payload (AES-256-GCM, kernel
 * audit/traceEncryption.ts), the key kept in VS Code's secret storage and made at the first use;
 * "MGP: Decrypt Audit Export…" opens such a file's records in a new, unsaved editor. A file encrypted by the `mgp`
 * command has its key in that command's store: it says so rather than fail obscurely.
 */
import * as vscode from 'vscode';
import type { AnchorKeyStore } from '../../kernel';
import { decryptedText } from './traceFiles';

export const DECRYPT_COMMAND = 'mgp.decryptAuditExport';

/** "MGP: Decrypt Audit Export…": pick a file, open its records in a new, unsaved editor. */
export async function decryptExport(keys: AnchorKeyStore): Promise<void> {
  const [file] =
    (await vscode.window.showOpenDialog({
      title: 'Decrypt an encrypted audit export',
      canSelectMany: false,
      filters: { 'Encrypted audit export': ['json'], 'All files': ['*'] },
      openLabel: 'Decrypt',
    })) ?? [];
  if (!file) return;
  try {
    const text = Buffer.from(await vscode.workspace.fs.readFile(file)).toString('utf8');
    const document = await vscode.workspace.openTextDocument({
      content: await decryptedText(text, keys),
      language: 'jsonl',
    });
    await vscode.window.showTextDocument(document, { preview: true });
  } catch (error) {
    void vscode.window.showErrorMessage(
      `MGP: ${vscode.workspace.asRelativePath(file)} cannot be decrypted: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
