import * as vscode from 'vscode';
import { type ConfiguredServer, type Kernel, KernelError } from '../../kernel';
import type { ServerNode } from './serversView';
import { pickServerId } from './serverTarget';
import type { ServerLogs } from '../host/serverLogs';
import type { HoldReason } from '../host/startGate';
import { readResource, usePrompt } from './content/contentCommands';
import { openResourceTemplate, TemplateNode } from './content/resourceTemplates';
import { offerTrust } from '../common/workspaceTrust';

/** What the editor's start gate can do when it refuses a start: say why, and ask for what is missing. */
export interface StartGateUi {
  holdOf(server: ConfiguredServer): HoldReason;
  /** Asks to allow a workspace server's command line; true when allowed. */
  askToStart(server: ConfiguredServer): Promise<boolean>;
}

export function registerServerCommands(
  kernel: Kernel,
  logs: ServerLogs,
  gate: StartGateUi,
): vscode.Disposable[] {
  const manager = kernel.manager;
  /** A refused start: in Restricted Mode offer to trust; a server not allowed yet asks, then starts. */
  const refused = async (id: string, error: KernelError, retry: () => Promise<void>) => {
    const server = manager.get(id).config;
    const hold = gate.holdOf(server);
    if (hold === 'untrusted')
      return offerTrust(
        `${error.message}. MGP Kernel starts servers from a workspace's config only when you trust the workspace.`,
      );
    if (hold === 'unapproved') {
      if (await gate.askToStart(server)) await retry();
      return;
    }
    void vscode.window.showWarningMessage(error.message);
  };
  const onServer = (
    command: string,
    placeHolder: string,
    action: (id: string) => Promise<void> | void,
  ) =>
    vscode.commands.registerCommand(command, async (target?: unknown) => {
      const id = await pickServerId(manager, target, placeHolder);
      if (!id) return;
      try {
        await action(id);
      } catch (error) {
        // The start gate (Workspace Trust, a workspace server's launch approval) said no.
        if (!(error instanceof KernelError && error.code === 'StartRefused')) throw error;
        await refused(id, error, async () => action(id));
      }
    });
  return [
    onServer('mgp.startServer', 'Server to start', (id) => manager.start(id)),
    onServer('mgp.stopServer', 'Server to stop', (id) => manager.stop(id)),
    onServer('mgp.restartServer', 'Server to restart', (id) => manager.restart(id)),
    onServer('mgp.showServerLog', 'Server whose log to show', (id) => logs.show(id)),
    vscode.commands.registerCommand('mgp.readResource', (target?: ServerNode) =>
      readResource(kernel, target),
    ),
    vscode.commands.registerCommand('mgp.usePrompt', (target?: ServerNode) =>
      usePrompt(kernel, target),
    ),
    vscode.commands.registerCommand('mgp.openResourceTemplate', (target?: TemplateNode) =>
      openResourceTemplate(kernel, target),
    ),
  ];
}
