import * as vscode from 'vscode';

/** Restricted Mode: workspace servers start only once the workspace is trusted; offer to trust it. */
export async function offerTrust(
  message = "This workspace's servers cannot start in Restricted Mode: MGP Kernel starts servers from a workspace's config only when you trust the workspace.",
): Promise<void> {
  const choice = await vscode.window.showWarningMessage(message, 'Trust Workspace…');
  if (choice) await vscode.commands.executeCommand('workbench.trust.manage');
}
