import * as vscode from 'vscode';
import { oneLine, visibleText } from '@shared/untrustedText';
import type { EventHub, PushEvent, ServerEvent } from '../../kernel';
import { EventDetails } from './eventDetail';
import { type EventRow, keepRows, restoredRows, type RowStore } from './recentEvents';

export type { EventRow } from './recentEvents';

const KEPT = 500;
const ICONS: Record<ServerEvent['severity'], [string, string]> = {
  info: ['info', 'notificationsInfoIcon.foreground'],
  warning: ['warning', 'notificationsWarningIcon.foreground'],
  error: ['error', 'notificationsErrorIcon.foreground'],
};

/** MCPL §9.3: what the kernel did with a push event, in words. */
const PUSH_STATUS: Record<PushEvent['status'], [string, string, string]> = {
  queued: ['accepted, queued', 'bell', 'notificationsInfoIcon.foreground'],
  delivered: ['accepted, sent to the agent', 'bell-dot', 'testing.iconPassed'],
  rejected: ['rejected', 'bell-slash', 'notificationsErrorIcon.foreground'],
};

interface PushEventSource {
  onEvent(listener: (event: PushEvent) => void): () => void;
  recent(): readonly PushEvent[];
}

function timeOf(timestamp: string): string {
  const time = new Date(timestamp);
  return Number.isNaN(time.getTime()) ? timestamp : time.toLocaleTimeString();
}

/**
 * The Events view, newest first, the last 500 kept (the newest 200 across reloads, recentEvents.ts): what servers publish on their MGP event channels
 * (`notifications/mgp.event`, MGP §13.3) and the MCPL push events they send (MCPL §9) with their
 * feature set and whether the kernel accepted them. A click opens the event: a line in plain words,
 * then the event as JSON. The view starts collapsed (package.json); its header counts the events.
 */
export class EventsView implements vscode.TreeDataProvider<EventRow>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private rows: EventRow[] = [];
  private readonly stops: (() => void)[] = [];
  private pending: NodeJS.Timeout | undefined;
  private view: vscode.TreeView<EventRow> | undefined;
  /** Events that came while the view was not shown. */
  private unseen = 0;
  readonly details = new EventDetails();

  constructor(
    hub: EventHub,
    pushEvents?: PushEventSource,
    private readonly store?: RowStore,
  ) {
    this.stops.push(hub.onAny((event) => this.add({ kind: 'mgp', event })));
    const kept = store ? restoredRows(store) : [];
    const live = (pushEvents?.recent() ?? []).map((event): EventRow => ({ kind: 'push', event }));
    const keptPush = new Set(kept.flatMap((row) => (row.kind === 'push' ? [row.event.id] : [])));
    this.rows = [
      ...live.filter((row) => row.kind === 'push' && !keptPush.has(row.event.id)),
      ...kept,
    ];
    if (pushEvents)
      this.stops.push(pushEvents.onEvent((event) => this.add({ kind: 'push', event })));
  }

  /**
   * The view's own header says how many events there are, so a collapsed view still tells. Events
   * that arrive while it is collapsed or hidden are counted on the MGP icon's badge, as Source
   * Control counts its changes, until the view is shown: a view never opens by itself.
   */
  createView(): vscode.TreeView<EventRow> {
    const view = vscode.window.createTreeView('mgp.events', { treeDataProvider: this });
    this.view = view;
    view.onDidChangeVisibility(({ visible }) => {
      if (!visible) return;
      this.unseen = 0;
      this.describe();
    });
    this.describe();
    return view;
  }

  private describe(): void {
    if (!this.view) return;
    const count = this.rows.length;
    this.view.description = count ? `${count}${count === KEPT ? '+' : ''}` : undefined;
    const unseen = this.unseen;
    this.view.badge = unseen
      ? { value: unseen, tooltip: `${unseen} new event${unseen === 1 ? '' : 's'} from MCP servers` }
      : undefined;
  }

  private add(row: EventRow): void {
    // A queued push event the user sends on comes back as the same event, now delivered.
    const known =
      row.kind === 'push' &&
      this.rows.some((r) => r.kind === 'push' && r.event.id === row.event.id);
    if (known)
      this.rows = this.rows.filter((r) => r.kind !== 'push' || r.event.id !== row.event.id);
    else if (this.view && !this.view.visible) this.unseen += 1;
    this.rows.unshift(row);
    if (this.rows.length > KEPT) this.rows.length = KEPT;
    // A burst of events refreshes the tree once.
    this.pending ??= setTimeout(() => {
      this.pending = undefined;
      this.describe();
      this.changed.fire();
      if (this.store) void keepRows(this.store, this.rows);
    }, 100);
  }

  getChildren(parent?: EventRow): EventRow[] {
    return parent ? [] : this.rows;
  }

  getTreeItem(row: EventRow): vscode.TreeItem {
    const item = row.kind === 'mgp' ? mgpEventItem(row.event) : pushEventItem(row.event);
    item.command = { command: 'mgp.showEvent', title: 'Show Event', arguments: [row] };
    return item;
  }

  /** The event as a read-only JSON document. */
  show(row: EventRow | undefined): Promise<void> | undefined {
    if (!row) return undefined;
    if (row.kind === 'mgp')
      return this.details.show(
        `${row.event.server_id} ${row.event.channel}`,
        mgpEventSummary(row.event),
        {
          ...row.event,
        },
      );
    const { event } = row;
    return this.details.show(
      `${event.serverId} ${event.featureSet} ${event.eventId}`,
      pushEventSummary(event),
      {
        server: event.serverId,
        featureSet: event.featureSet,
        accepted: event.status !== 'rejected',
        status: event.status,
        reason: event.reason,
        eventId: event.eventId,
        timestamp: event.timestamp,
        receivedAt: event.receivedAt,
        inferenceId: event.inferenceId,
        origin: event.origin,
        content: event.content,
      },
    );
  }

  clear(): void {
    this.rows = [];
    if (this.store) void keepRows(this.store, []);
    this.describe();
    this.changed.fire();
  }

  dispose(): void {
    clearTimeout(this.pending);
    for (const stop of this.stops) stop();
    this.details.dispose();
    this.changed.dispose();
  }
}

/** What the detail document says first, in plain words. */
function mgpEventSummary(event: ServerEvent): string[] {
  return [
    `${oneLine(event.server_id)} reported "${oneLine(event.channel)}" (${event.severity}) at ${timeOf(event.timestamp)}.`,
    'The data below comes from the server as it sent it.',
  ];
}

function pushEventSummary(event: PushEvent): string[] {
  const [status] = PUSH_STATUS[event.status];
  return [
    `${oneLine(event.serverId)} sent a push event for ${oneLine(event.featureSet)} at ${timeOf(event.receivedAt)}: ${status}${event.reason ? ` (${oneLine(event.reason)})` : ''}.`,
    'Its content comes from the server; treat it as untrusted.',
  ];
}

function mgpEventItem(event: ServerEvent): vscode.TreeItem {
  const item = new vscode.TreeItem(oneLine(event.channel), vscode.TreeItemCollapsibleState.None);
  item.description = `${event.server_id} · ${timeOf(event.timestamp)}`;
  const [icon, colour] = ICONS[event.severity];
  item.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(colour));
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.appendMarkdown(
    `**${oneLine(event.channel)}** from \`${event.server_id}\` — ${event.severity}, ${oneLine(event.timestamp)}\n\n`,
  );
  tooltip.appendCodeblock(visibleText(JSON.stringify(event.data, null, 2) ?? 'null'), 'json');
  item.tooltip = tooltip;
  item.contextValue = 'mgp.event';
  item.accessibilityInformation = {
    label: `Event ${oneLine(event.channel)} from ${event.server_id}, ${event.severity}`,
  };
  return item;
}

function pushEventItem(event: PushEvent): vscode.TreeItem {
  const featureSet = oneLine(event.featureSet);
  const item = new vscode.TreeItem(featureSet, vscode.TreeItemCollapsibleState.None);
  const [status, icon, colour] = PUSH_STATUS[event.status];
  item.description = `${event.serverId} · ${status} · ${timeOf(event.receivedAt)}`;
  item.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(colour));
  const text = event.content
    .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
    .join('\n');
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.appendMarkdown(
    `**Push event** from \`${event.serverId}\`, feature set \`${featureSet}\` — ${status}\n\n`,
  );
  if (event.reason) tooltip.appendMarkdown(`${oneLine(event.reason)}\n\n`);
  tooltip.appendMarkdown('*Content from the server (untrusted):*\n\n');
  tooltip.appendText(visibleText(text.slice(0, 2000)));
  item.tooltip = tooltip;
  item.contextValue = `mgp.pushEvent.${event.status}`;
  item.accessibilityInformation = {
    label: `Push event ${featureSet} from ${event.serverId}, ${status}`,
  };
  return item;
}
