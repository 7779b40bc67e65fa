import * as vscode from 'vscode';
import type { EditorHost } from '../host/editorHost';
import { ApprovalsPanel } from './approvalsPanel';

/** The Approvals panel and its command. */
export function registerApprovals(
  extension: vscode.ExtensionContext,
  host: EditorHost,
): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(
      'mgp.showApprovals',
      () => void ApprovalsPanel.show(extension, host),
    ),
    new vscode.Disposable(() => ApprovalsPanel.disposeCurrent()),
  ];
}
