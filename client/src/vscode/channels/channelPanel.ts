/**
 * One MCPL channel (§14) in an editor tab: what was said in it, live, and a box to post into it
 * (`channels/publish`). One panel per channel; opening it again brings it forward.
 */
import * as vscode from 'vscode';
import { ChannelToWebview, isChannelFromWebview } from '@shared/channelMessages';
import type { Channels } from '../../kernel';
import { webviewHtml, webviewOptions } from '../common/webviewHtml';
import { channelHeader, channelLines } from './channelLines';

const open = new Map<string, ChannelPanel>();

export class ChannelPanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private pending: NodeJS.Timeout | undefined;

  static show(
    extensionUri: vscode.Uri,
    channels: Channels,
    serverId: string,
    channelId: string,
  ): ChannelPanel {
    const key = `${serverId}\u0000${channelId}`;
    const existing = open.get(key);
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    const panel = new ChannelPanel(extensionUri, channels, serverId, channelId);
    open.set(key, panel);
    panel.disposables.push(new vscode.Disposable(() => open.delete(key)));
    return panel;
  }

  private readonly panel: vscode.WebviewPanel;

  private constructor(
    extensionUri: vscode.Uri,
    private readonly channels: Channels,
    private readonly serverId: string,
    private readonly channelId: string,
  ) {
    this.panel = vscode.window.createWebviewPanel(
      'mgp.channel',
      `${channelId} · ${serverId}`,
      vscode.ViewColumn.Active,
      { ...webviewOptions(extensionUri), retainContextWhenHidden: true },
    );
    this.panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.png');
    this.panel.webview.html = webviewHtml(this.panel.webview, extensionUri, {
      title: `Channel ${channelId}`,
      script: 'dist/channel.js',
      stylesheet: 'channel.css',
    });
    const stopWatching = channels.onChange((server, channel) => {
      if (server === serverId && (channel === undefined || channel === channelId)) this.refresh();
    });
    this.disposables.push(
      new vscode.Disposable(stopWatching),
      this.panel.webview.onDidReceiveMessage((message: unknown) => {
        if (!isChannelFromWebview(message)) return;
        if (message.type === 'ready') this.send();
        else void this.publish(message.text);
      }),
      this.panel.onDidDispose(() => this.dispose()),
    );
  }

  /** A burst of messages draws once. */
  private refresh(): void {
    this.pending ??= setTimeout(() => {
      this.pending = undefined;
      this.send();
    }, 50);
  }

  private send(): void {
    const view = this.channels
      .list(this.serverId)
      .find((channel) => channel.descriptor.id === this.channelId);
    if (!view) {
      this.post({
        type: 'posted',
        error: `${this.serverId} no longer has the channel ${this.channelId}`,
      });
      return;
    }
    this.post({
      type: 'show',
      header: channelHeader(view, this.channels.publishRefusal(this.serverId, this.channelId)),
      lines: channelLines(this.channels.messages(this.serverId, this.channelId)),
    });
  }

  private async publish(text: string): Promise<void> {
    try {
      const { delivered } = await this.channels.publish(
        this.serverId,
        this.channelId,
        [{ type: 'text', text }],
        'user',
      );
      this.post(
        delivered ? { type: 'posted' } : { type: 'posted', error: 'the server did not deliver it' },
      );
    } catch (error) {
      this.post({ type: 'posted', error: error instanceof Error ? error.message : String(error) });
    }
  }

  private post(message: ChannelToWebview): void {
    void this.panel.webview.postMessage(message);
  }

  dispose(): void {
    if (this.pending) clearTimeout(this.pending);
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    this.panel.dispose();
  }
}
