import * as vscode from 'vscode';
import type { EditorHost } from '../host/editorHost';
import { offerTrust } from '../common/workspaceTrust';
import { registerResourceSubscriptions } from './content/resourceSubscriptions';
import { registerServerContent } from './content/serverContent';
import { registerFeatureSetToggles } from './featureSetItems';
import { registerServerCommands } from './serverCommands';
import { registerSignInCommands } from './serverSignIn';
import { ServersView } from './serversView';
import { KernelStatusBar } from './statusBar';
import { registerSwitchCommands } from './switchCommands';

/**
 * The Servers view: the tree (with its MCPL feature-set boxes, §6), the status bar, the commands on a
 * server, its tools and its content, and the start gate's "Allow Workspace Servers".
 */
export function registerServers(
  context: vscode.ExtensionContext,
  host: EditorHost,
): vscode.Disposable[] {
  const { kernel, gate } = host;
  const resources = registerResourceSubscriptions(kernel.manager, context.workspaceState);
  const serversView = new ServersView(
    host.configs,
    kernel.manager,
    (server, tool) => kernel.securityOf(server, tool),
    (server) => gate.holdOf(server),
    kernel.mcpl,
    kernel.switches,
    resources.subscriptions,
    host.icons,
  );
  // A tree view, not only a data provider: its checkbox events are the feature-set switches.
  const tree = vscode.window.createTreeView('mgp.servers', {
    treeDataProvider: serversView,
    manageCheckboxStateManually: true,
    showCollapseAll: true,
  });
  return [
    serversView,
    ...resources.disposables,
    new KernelStatusBar(kernel.manager, (server) => gate.holdOf(server)),
    tree,
    ...registerFeatureSetToggles(tree as vscode.TreeView<unknown>, kernel.mcpl, () =>
      serversView.refresh(),
    ),
    vscode.commands.registerCommand('mgp.allowWorkspaceServers', () => allowWorkspaceServers(host)),
    ...registerServerCommands(kernel, host.serverLogs, gate),
    ...registerServerContent(kernel),
    ...registerSwitchCommands(kernel),
    ...registerSignInCommands(kernel.manager, kernel.manager.bus, host.log),
  ];
}

/** Asks which waiting workspace servers to allow, then applies the config again. */
async function allowWorkspaceServers(host: EditorHost): Promise<void> {
  if (!vscode.workspace.isTrusted) return offerTrust();
  const waiting = host.gate.unapproved((await host.configs.config).servers);
  if (waiting.length === 0)
    return void vscode.window.showInformationMessage('Every workspace server is allowed to start.');
  const picked = await vscode.window.showQuickPick(
    waiting.map((server) => ({
      label: server.id,
      description: server.transport,
      detail:
        server.transport === 'stdio' ? [server.command, ...server.args].join(' ') : server.url,
      server,
      picked: true,
    })),
    {
      canPickMany: true,
      title: 'Allow these workspace servers to start?',
      placeHolder: 'They run with your permissions: allow only servers you trust',
    },
  );
  if (!picked?.length) return;
  await host.gate.approve(picked.map((item) => item.server));
  await host.apply(await host.configs.config);
}
