import * as vscode from 'vscode';
import { KernelError } from '../kernel/errors';
import type { Kernel } from '../kernel/kernel';
import type { ServerManager } from '../kernel/serverManager';
import type { ServerNode } from './serversView';
import type { ServerLogs } from './serverLogs';
import { readResource, usePrompt } from './toolRunner';

/** The server id a command was invoked on: a tree node, an id, or a pick. */
async function serverIdOf(
  manager: ServerManager,
  target: unknown,
  placeHolder: string,
): Promise<string | undefined> {
  if (typeof target === 'string') return target;
  const node = target as ServerNode | undefined;
  if (node?.kind === 'server') return node.server.id;
  if (node && 'serverId' in node) return node.serverId;
  const picked = await vscode.window.showQuickPick(
    manager.list().map((s) => ({ label: s.id, description: s.state })),
    { placeHolder },
  );
  return picked?.label;
}

export function registerServerCommands(kernel: Kernel, logs: ServerLogs): vscode.Disposable[] {
  const manager = kernel.manager;
  const onServer = (
    command: string,
    placeHolder: string,
    action: (id: string) => Promise<void> | void,
  ) =>
    vscode.commands.registerCommand(command, async (target?: unknown) => {
      const id = await serverIdOf(manager, target, placeHolder);
      if (!id) return;
      try {
        await action(id);
      } catch (error) {
        // The start gate (Workspace Trust, a workspace server's launch approval) said no: say why.
        if (!(error instanceof KernelError && error.code === 'StartRefused')) throw error;
        void vscode.window.showWarningMessage(error.message);
      }
    });
  return [
    onServer('mgp.startServer', 'Server to start', (id) => manager.start(id)),
    onServer('mgp.stopServer', 'Server to stop', (id) => manager.stop(id)),
    onServer('mgp.restartServer', 'Server to restart', (id) => manager.restart(id)),
    onServer('mgp.showServerLog', 'Server whose log to show', (id) => logs.show(id)),
    vscode.commands.registerCommand('mgp.readResource', (target?: ServerNode) =>
      readResource(manager, target),
    ),
    vscode.commands.registerCommand('mgp.usePrompt', (target?: ServerNode) =>
      usePrompt(manager, target),
    ),
  ];
}
