import * as vscode from 'vscode';
import type { ConfiguredServer, ServerManager } from '../../kernel';
import type { HoldReason } from '../host/startGate';

/**
 * "MGP 2/3": connected servers of all configured, shown whenever a server is configured. Red when one
 * is failing; a server waiting for its sign-in is not failing. While servers wait it says why, and a click offers the way out: Workspace
 * Trust in Restricted Mode, "Allow Workspace Servers to Start" for servers not yet allowed, else the
 * Servers view.
 */
export class KernelStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'mgp.status',
    vscode.StatusBarAlignment.Left,
    50,
  );
  private readonly update = () => this.render();
  private readonly trust: vscode.Disposable;

  constructor(
    private readonly manager: ServerManager,
    private readonly holdOf: (server: ConfiguredServer) => HoldReason,
  ) {
    this.item.name = 'MGP Kernel';
    manager.bus.on('transition', this.update);
    manager.bus.on('servers', this.update);
    this.trust = vscode.workspace.onDidGrantWorkspaceTrust(this.update);
    this.render();
  }

  private render(): void {
    const servers = this.manager.list();
    if (servers.length === 0) {
      this.item.hide();
      return;
    }
    const connected = servers.filter((s) => s.state === 'connected').length;
    // A server waiting for its sign-in has not failed: it waits for the person, as a held one does.
    const signIn = servers.filter((s) => s.needsSignIn);
    const failing = servers.filter(
      (s) => s.state === 'error' && s.heldBack === undefined && !s.needsSignIn,
    );
    const held = servers.filter((s) => s.heldBack !== undefined && s.state === 'registered');
    const untrusted = held.filter((s) => this.holdOf(s.config) === 'untrusted');
    const unapproved = held.filter((s) => this.holdOf(s.config) === 'unapproved');
    const count = `MGP ${connected}/${servers.length}`;
    const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);
    if (failing.length) {
      this.show(
        `$(error) ${count}`,
        `MGP Kernel: ${failing.map((s) => `${s.id} failed${s.lastError ? ` (${s.lastError})` : ''}`).join('; ')}`,
        'workbench.view.extension.mgp',
        'statusBarItem.errorBackground',
      );
    } else if (untrusted.length) {
      this.show(
        `$(workspace-untrusted) ${count}`,
        `Restricted Mode: ${untrusted.length} ${plural(untrusted.length, 'server', 'servers')} from this workspace's config ${plural(untrusted.length, 'does', 'do')} not start until you trust the workspace. Click to manage Workspace Trust.`,
        'workbench.trust.manage',
      );
    } else if (signIn.length) {
      this.show(
        `$(account) ${count}`,
        `${signIn.map((s) => s.id).join(', ')} ${plural(signIn.length, 'asks', 'ask')} you to sign in. Click to open the Servers view, then "Sign In to Server".`,
        'workbench.view.extension.mgp',
        'statusBarItem.warningBackground',
      );
    } else if (unapproved.length) {
      this.show(
        `$(server-process) ${count}`,
        `${unapproved.map((s) => s.id).join(', ')} ${plural(unapproved.length, 'waits', 'wait')} for you to allow ${plural(unapproved.length, 'it', 'them')} to start. Click to allow.`,
        'mgp.allowWorkspaceServers',
        'statusBarItem.warningBackground',
      );
    } else {
      this.show(
        `$(server-process) ${count}`,
        `MGP Kernel: ${connected} of ${servers.length} servers connected`,
        'workbench.view.extension.mgp',
      );
    }
  }

  private show(text: string, tooltip: string, command: string, background?: string): void {
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.command = command;
    this.item.backgroundColor = background ? new vscode.ThemeColor(background) : undefined;
    this.item.accessibilityInformation = { label: tooltip };
    this.item.show();
  }

  dispose(): void {
    this.manager.bus.off('transition', this.update);
    this.manager.bus.off('servers', this.update);
    this.trust.dispose();
    this.item.dispose();
  }
}
