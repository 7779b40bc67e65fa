/**
 * *MGP: Validate Server* (MGP §17.8): from a server's context menu, its page, its lens in the config
 * file or the palette. Validating runs the server, so it passes the start gate as a start does:
 * Restricted Mode offers to trust, a workspace server not allowed yet asks. Letting the checks call
 * tools the server marks dangerous takes a yes each time.
 */
import * as vscode from 'vscode';
import type { EditorHost } from '../host/editorHost';
import { offerTrust } from '../common/workspaceTrust';
import { pickServerId } from '../servers/serverTarget';
import { ValidationPanel, type ValidationPanelDeps } from './validationPanel';
import { ValidationRuns } from './validationRuns';

const DANGEROUS_YES = 'Let Them Run';

async function mayRun(host: EditorHost, serverId: string): Promise<boolean> {
  const server = host.kernel.manager.find(serverId)?.config;
  if (!server) return true; // the run says the server is gone
  const hold = host.gate.holdOf(server);
  if (hold === 'untrusted') {
    await offerTrust(
      `Validating "${serverId}" runs it, and MGP Kernel runs servers from a workspace's config only when you trust the workspace.`,
    );
    return false;
  }
  return hold === 'unapproved' ? host.gate.askToStart(server) : true;
}

async function dangerousAllowed(serverId: string): Promise<boolean> {
  const choice = await vscode.window.showWarningMessage(
    `Let the checks call the tools "${serverId}" marks dangerous?`,
    {
      modal: true,
      detail:
        'The validator calls them with made-up arguments, without asking you for each call, to judge what they answer. Only do this with a server in a sandbox or on data you can lose.',
    },
    DANGEROUS_YES,
  );
  return choice === DANGEROUS_YES;
}

export function registerValidate(
  extension: vscode.ExtensionContext,
  host: EditorHost,
): vscode.Disposable[] {
  const runs = ValidationRuns.of(host.kernel, extension.workspaceState);
  const deps: ValidationPanelDeps = {
    extension,
    runs,
    run: async (serverId, allowDangerous) => {
      if (runs.isRunning(serverId) || !(await mayRun(host, serverId))) return;
      if (allowDangerous && !(await dangerousAllowed(serverId))) return;
      await runs.start(serverId, allowDangerous);
    },
  };
  return [
    vscode.commands.registerCommand('mgp.validateServer', async (target?: unknown) => {
      const id = await pickServerId(host.kernel.manager, target, 'Server to validate');
      if (!id) return;
      ValidationPanel.show(deps, id);
      await deps.run(id, false);
    }),
    vscode.commands.registerCommand('mgp.showValidationReport', async (target?: unknown) => {
      const id = await pickServerId(host.kernel.manager, target, 'Server whose validation to show');
      if (id) ValidationPanel.show(deps, id);
    }),
    { dispose: () => ValidationPanel.disposeAll() },
  ];
}
