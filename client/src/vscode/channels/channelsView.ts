/**
 * The Channels view (MCPL §14): the channels each MCPL server registered or opened, under their
 * server. A channel opens in a panel; one with an agent attached says so.
 */
import * as vscode from 'vscode';
import type { Channels, ChannelView } from '../../kernel';

export type ChannelsNode = { serverId: string } | ChannelView;

const isChannel = (node: ChannelsNode): node is ChannelView => 'descriptor' in node;

export class ChannelsView implements vscode.TreeDataProvider<ChannelsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly unsubscribe: () => void;
  private pending: NodeJS.Timeout | undefined;

  constructor(private readonly channels: Channels) {
    this.unsubscribe = channels.onChange(() => {
      this.pending ??= setTimeout(() => {
        this.pending = undefined;
        this.changed.fire();
      }, 100);
    });
  }

  getChildren(parent?: ChannelsNode): ChannelsNode[] {
    const all = this.channels.list();
    if (!parent) return [...new Set(all.map((c) => c.serverId))].map((serverId) => ({ serverId }));
    if (isChannel(parent)) return [];
    return all.filter((c) => c.serverId === parent.serverId);
  }

  getTreeItem(node: ChannelsNode): vscode.TreeItem {
    if (!isChannel(node)) {
      const item = new vscode.TreeItem(node.serverId, vscode.TreeItemCollapsibleState.Expanded);
      item.iconPath = new vscode.ThemeIcon('server');
      item.contextValue = 'mgp.channelServer';
      return item;
    }
    const { descriptor } = node;
    const item = new vscode.TreeItem(descriptor.id, vscode.TreeItemCollapsibleState.None);
    const facts = [
      descriptor.type,
      descriptor.direction === 'bidirectional' ? undefined : descriptor.direction,
      node.open ? undefined : 'closed',
      node.agentAttached ? '@mgp attached' : undefined,
      `${node.messageCount} message${node.messageCount === 1 ? '' : 's'}`,
    ].filter(Boolean);
    item.description = facts.join(' · ');
    item.tooltip = new vscode.MarkdownString().appendText(
      `${descriptor.label} (from ${node.serverId})\n${descriptor.id} · ${descriptor.type} · ${descriptor.direction}`,
    );
    item.iconPath = new vscode.ThemeIcon(node.agentAttached ? 'robot' : 'comment-discussion');
    item.contextValue = node.agentAttached ? 'mgp.channel.attached' : 'mgp.channel';
    item.command = {
      command: 'mgp.openChannel',
      title: 'Open Channel',
      arguments: [node],
    };
    item.accessibilityInformation = {
      label: `Channel ${descriptor.id} of ${node.serverId}, ${item.description}`,
    };
    return item;
  }

  dispose(): void {
    if (this.pending) clearTimeout(this.pending);
    this.unsubscribe();
    this.changed.dispose();
  }
}
