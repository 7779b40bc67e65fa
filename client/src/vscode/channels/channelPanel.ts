/**
 * One MCPL channel (§14) in an editor tab: what was said in it, live, and a box to post into it
 * (`channels/publish`). One panel per channel; opening it again brings it forward.
 */
import * as vscode from 'vscode';
import {
  type ChannelFromWebview,
  type ChannelToWebview,
  isChannelFromWebview,
} from '@shared/channelMessages';
import type { Channels } from '../../kernel';
import { OpenPanels, WebviewPanel } from '../common/webviewPanel';
import { channelHeader, channelLines } from './channelLines';

export class ChannelPanel extends WebviewPanel<ChannelToWebview, ChannelFromWebview> {
  private static readonly open = new OpenPanels<ChannelPanel>();
  /** A burst of messages draws once. */
  private readonly refresh = this.coalesce(50, () => this.send());

  static show(
    extensionUri: vscode.Uri,
    channels: Channels,
    serverId: string,
    channelId: string,
  ): ChannelPanel {
    return ChannelPanel.open.show(
      `${serverId}\u0000${channelId}`,
      () => new ChannelPanel(extensionUri, channels, serverId, channelId),
    );
  }

  private constructor(
    extensionUri: vscode.Uri,
    private readonly channels: Channels,
    private readonly serverId: string,
    private readonly channelId: string,
  ) {
    super(
      extensionUri,
      {
        viewType: 'mgp.channel',
        title: `${channelId} · ${serverId}`,
        retainContextWhenHidden: true,
      },
      { title: `Channel ${channelId}`, script: 'dist/channel.js', stylesheet: 'channel.css' },
      isChannelFromWebview,
    );
    const stopWatching = channels.onChange((server, channel) => {
      if (server === serverId && (channel === undefined || channel === channelId)) this.refresh();
    });
    this.disposables.push(new vscode.Disposable(stopWatching));
  }

  protected receive(message: ChannelFromWebview): void {
    if (message.type === 'ready') this.send();
    else void this.publish(message.text);
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
}
