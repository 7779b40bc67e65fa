import * as vscode from 'vscode';

/** Restricted Mode: workspace servers start only once the workspace is trusted; offer to trust it. */
export async function offerTrust(what = "This workspace's servers"): Promise<void> {
  const choice = await vscode.window.showWarningMessage(
    `${what} cannot start in Restricted Mode: MGP Kernel starts servers from a workspace's config only when you trust the workspace.`,
    'Trust Workspace…',
  );
  if (choice) await vscode.commands.executeCommand('workbench.trust.manage');
}
