/**
 * The extension's entry: as little as can be loaded before activate() decides there is something
 * to do. The kernel, the MCP SDK and every view come with activation.ts, loaded on demand: the
 * editor pays for them only in a window where MGP Kernel works.
 */
import * as vscode from 'vscode';
import type { MgpKernelApi } from './activation';
import { nothingToDo } from './activationGate';

export type { MgpKernelApi } from './activation';

export async function activate(
  extension: vscode.ExtensionContext,
): Promise<MgpKernelApi | undefined> {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
  if (nothingToDo(folders)) return standIn(extension);
  return loadActivation().activateKernel(extension);
}

/** activation.ts: a bundle of its own next to this one (esbuild.mjs), loaded when it is needed. */
function loadActivation(): typeof import('./activation') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a file apart, on purpose
  return require('./activation') as typeof import('./activation');
}

/**
 * A window the manifest's `workspaceContains:config.toml` activated for a config.toml that is not
 * OpenFang's (a Hugo or Netlify site), with no other config of ours: each command is a stand-in
 * that activates the extension for real, then runs. The Servers view shows its welcome meanwhile.
 */
function standIn(extension: vscode.ExtensionContext): undefined {
  const contributed = (
    extension.extension.packageJSON as { contributes?: { commands?: { command: string }[] } }
  ).contributes?.commands;
  const standIns: vscode.Disposable[] = [];
  let activated: Promise<unknown> | undefined;
  const activateForReal = () => {
    for (const standIn of standIns.splice(0)) standIn.dispose();
    return (activated ??= loadActivation().activateKernel(extension));
  };
  for (const { command } of contributed ?? [])
    standIns.push(
      vscode.commands.registerCommand(command, async (...args: unknown[]) => {
        await activateForReal();
        return vscode.commands.executeCommand(command, ...args);
      }),
    );
  extension.subscriptions.push(...standIns);
  return undefined;
}

export function deactivate(): void {
  // Everything is owned by the extension context's subscriptions.
}
