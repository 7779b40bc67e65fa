import * as vscode from 'vscode';
import type { EventHub, ServerEvent } from '../kernel/bidirectional/eventHub';

const KEPT = 500;
const ICONS: Record<ServerEvent['severity'], [string, string]> = {
  info: ['info', 'notificationsInfoIcon.foreground'],
  warning: ['warning', 'notificationsWarningIcon.foreground'],
  error: ['error', 'notificationsErrorIcon.foreground'],
};

/**
 * The Events view: what servers push on their channels (`notifications/mgp.event`, MGP §13.3), newest
 * first, the last 500 kept. Each row shows the channel, the server and the time; the tooltip the data.
 */
export class EventsView implements vscode.TreeDataProvider<ServerEvent>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private events: ServerEvent[] = [];
  private readonly unsubscribe: () => void;
  private pending: NodeJS.Timeout | undefined;

  constructor(hub: EventHub) {
    this.unsubscribe = hub.onAny((event) => {
      this.events.unshift(event);
      if (this.events.length > KEPT) this.events.length = KEPT;
      // A burst of events refreshes the tree once.
      this.pending ??= setTimeout(() => {
        this.pending = undefined;
        this.changed.fire();
      }, 100);
    });
  }

  getChildren(parent?: ServerEvent): ServerEvent[] {
    return parent ? [] : this.events;
  }

  getTreeItem(event: ServerEvent): vscode.TreeItem {
    const item = new vscode.TreeItem(event.channel, vscode.TreeItemCollapsibleState.None);
    const time = new Date(event.timestamp);
    item.description = `${event.server_id} · ${Number.isNaN(time.getTime()) ? event.timestamp : time.toLocaleTimeString()}`;
    const [icon, colour] = ICONS[event.severity];
    item.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(colour));
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(
      `**${event.channel}** from \`${event.server_id}\` — ${event.severity}, ${event.timestamp}\n\n`,
    );
    tooltip.appendCodeblock(JSON.stringify(event.data, null, 2) ?? 'null', 'json');
    item.tooltip = tooltip;
    item.contextValue = 'mgp.event';
    item.accessibilityInformation = {
      label: `Event ${event.channel} from ${event.server_id}, ${event.severity}`,
    };
    return item;
  }

  clear(): void {
    this.events = [];
    this.changed.fire();
  }

  dispose(): void {
    clearTimeout(this.pending);
    this.unsubscribe();
    this.changed.dispose();
  }
}
