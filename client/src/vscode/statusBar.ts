import * as vscode from 'vscode';
import type { ServerManager } from '../kernel/serverManager';

/** "MGP 2/3": connected servers of all started; red when one is failing. Click: the Servers view. */
export class KernelStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'mgp.status',
    vscode.StatusBarAlignment.Left,
    50,
  );
  private readonly update = () => this.render();

  constructor(private readonly manager: ServerManager) {
    this.item.name = 'MGP Kernel';
    this.item.command = 'workbench.view.extension.mgp';
    manager.bus.on('transition', this.update);
    this.render();
  }

  private render(): void {
    const servers = this.manager.list();
    if (servers.length === 0) {
      this.item.hide();
      return;
    }
    const connected = servers.filter((s) => s.state === 'connected').length;
    const failing = servers.filter((s) => s.state === 'error');
    this.item.text = `$(${failing.length ? 'error' : 'server-process'}) MGP ${connected}/${servers.length}`;
    this.item.backgroundColor = failing.length
      ? new vscode.ThemeColor('statusBarItem.errorBackground')
      : undefined;
    this.item.tooltip = failing.length
      ? `MGP Kernel: ${failing.map((s) => `${s.id} failed${s.lastError ? ` (${s.lastError})` : ''}`).join('; ')}`
      : `MGP Kernel: ${connected} of ${servers.length} servers connected`;
    this.item.accessibilityInformation = { label: this.item.tooltip };
    this.item.show();
  }

  dispose(): void {
    this.manager.bus.off('transition', this.update);
    this.item.dispose();
  }
}
