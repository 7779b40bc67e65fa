import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import * as vscode from 'vscode';
import type { EditorHost } from '../host/editorHost';
import { directorySource, trailSource } from './auditSource';
import { AuditTrailPanel } from './auditTrailPanel';
import { DECRYPT_COMMAND, decryptExport } from './encryptedExport';

/**
 * What `mgp.showAuditTrail` accepts besides nothing (the palette and menus pass nothing):
 * `traceId` opens the workspace trail filtered to one trace (from the Approvals panel);
 * `directory` opens another audit log's folder read-only (e.g. from a keybinding's `args`).
 */
export interface ShowAuditTrailArgs {
  traceId?: string;
  directory?: string;
}

function auditArgs(value: unknown): ShowAuditTrailArgs {
  if (typeof value !== 'object' || value === null) return {};
  const { traceId, directory } = value as Record<string, unknown>;
  return {
    traceId: typeof traceId === 'string' && traceId ? traceId : undefined,
    directory: typeof directory === 'string' && directory ? directory : undefined,
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function showAuditTrail(
  host: EditorHost,
  extension: vscode.ExtensionContext,
  value: unknown,
): void {
  const args = auditArgs(value);
  if (args.directory && args.directory !== host.trail.log.directory) {
    if (!isAbsolute(args.directory) || !isDirectory(args.directory)) {
      void vscode.window.showErrorMessage(`MGP: no audit log folder at ${args.directory}`);
      return;
    }
    AuditTrailPanel.show(extension, directorySource(args.directory, host.anchorKeys), args.traceId);
    return;
  }
  AuditTrailPanel.show(extension, trailSource(host.trail, host.anchorKeys), args.traceId);
}

/** The Audit Trail panels (one per log folder) and their command. */
export function registerAuditTrail(
  extension: vscode.ExtensionContext,
  host: EditorHost,
): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('mgp.showAuditTrail', (args?: unknown) =>
      showAuditTrail(host, extension, args),
    ),
    vscode.commands.registerCommand(DECRYPT_COMMAND, () => decryptExport(host.anchorKeys)),
    new vscode.Disposable(() => AuditTrailPanel.disposeAll()),
  ];
}
