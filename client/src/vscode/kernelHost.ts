import * as vscode from 'vscode';
import type { ConfiguredServer, KernelConfig } from '../kernel/config/model';
import type { LifecycleTransition } from '../kernel/lifecycle/states';
import { ServerManager } from '../kernel/serverManager';
import { workspaceFolderPaths } from './configService';
import type { SecretStore } from './secrets';
import { ServerLogs } from './serverLogs';

const APPROVALS_KEY = 'mgp.approvedWorkspaceServers';

function isWorkspaceServer(server: ConfiguredServer): boolean {
  return workspaceFolderPaths().some((folder) => server.source.file.startsWith(`${folder}/`) || server.source.file.startsWith(`${folder}\\`));
}

/** What the user approved a workspace server to run: asked again when any of it changes. */
function launchFingerprint(server: ConfiguredServer): string {
  return JSON.stringify({ command: server.command, args: server.args, url: server.url, env: server.settings.env, cwd: server.settings.cwd });
}

/**
 * The kernel inside VS Code: one ServerManager fed by the config service, gated by Workspace Trust
 * and by the user's approval of each workspace server's command line.
 */
export class KernelHost implements vscode.Disposable {
  readonly manager: ServerManager;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly extension: vscode.ExtensionContext, secrets: SecretStore, logs: ServerLogs) {
    this.manager = new ServerManager({ hostEnv: process.env, secrets, mayStart: (server) => this.mayStart(server) });
    this.manager.bus.on('log', (line) => logs.append(line.server_id, line.level, line.message));
    this.manager.bus.on('transition', (t: LifecycleTransition) => logs.append(t.server_id, t.new_state === 'error' ? 'error' : 'info', `${t.previous_state} → ${t.new_state} (${t.reason})${t.error ? `: ${t.error}` : ''}`));
  }

  private approvals(): Record<string, string> {
    return this.extension.workspaceState.get<Record<string, string>>(APPROVALS_KEY, {});
  }

  private mayStart(server: ConfiguredServer): true | string {
    if (!isWorkspaceServer(server)) return true;
    if (!vscode.workspace.isTrusted) return 'the workspace is not trusted (Restricted Mode): servers from workspace configs do not start';
    return this.approvals()[server.id] === launchFingerprint(server) ? true : 'its command line is not approved yet';
  }

  /** Asks once for each workspace server whose command line is new or changed. */
  private async askApprovals(config: KernelConfig): Promise<void> {
    if (!vscode.workspace.isTrusted) return;
    const approvals = { ...this.approvals() };
    for (const server of config.servers.filter(isWorkspaceServer)) {
      const fingerprint = launchFingerprint(server);
      if (approvals[server.id] === fingerprint) continue;
      const what = server.transport === 'stdio' ? [server.command, ...server.args].join(' ') : server.url;
      const changed = approvals[server.id] !== undefined;
      const choice = await vscode.window.showWarningMessage(
        `${changed ? 'The command line of' : 'Start'} MCP server "${server.id}" ${changed ? 'changed. Start it now?' : 'from this workspace?'}`,
        { modal: true, detail: `${server.transport}: ${what}\n\nDeclared in ${vscode.workspace.asRelativePath(server.source.file)}:${server.source.line}. Only start servers you trust: they run with your permissions.` },
        'Start',
      );
      if (choice === 'Start') approvals[server.id] = fingerprint;
    }
    await this.extension.workspaceState.update(APPROVALS_KEY, approvals);
  }

  /** Applies the config: asks for approvals, then starts, stops and restarts servers with a progress notice. */
  async apply(config: KernelConfig): Promise<void> {
    await this.askApprovals(config);
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'MGP: starting servers' }, async (progress) => {
      const subscription = (t: LifecycleTransition) => t.new_state === 'connecting' && progress.report({ message: t.server_id });
      this.manager.bus.on('transition', subscription);
      try {
        await this.manager.reconcile(config);
      } finally {
        this.manager.bus.off('transition', subscription);
      }
    });
  }

  dispose(): void {
    vscode.Disposable.from(...this.disposables).dispose();
    void this.manager.dispose();
  }
}
