import * as vscode from 'vscode';
import type { KernelHost } from '../host/kernelHost';
import { ApprovalsPanel } from './approvalsPanel';

/** The Approvals panel and its command. */
export function registerApprovals(
  host: KernelHost,
  extension: vscode.ExtensionContext,
): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(
      'mgp.showApprovals',
      () => void ApprovalsPanel.show(extension, host),
    ),
    new vscode.Disposable(() => ApprovalsPanel.disposeCurrent()),
  ];
}
