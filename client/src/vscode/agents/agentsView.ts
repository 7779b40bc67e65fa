/**
 * The Agents view: each external A2A agent of the config (the servers `a2a.<name>`), with whether it
 * is reachable, the dialect its card speaks and its skills, and under it the tasks delegated to it,
 * newest first. A click on a task opens its page; running tasks can be cancelled from the row.
 * What the card says (its name, description, skills) is the agent's own words and is labelled so.
 */
import * as vscode from 'vscode';
import { markdownInline, oneLine } from '@shared/untrustedText';
import {
  type AgentCardSummary,
  DIALECT_NAMES,
  type Kernel,
  type SupervisedServer,
  TERMINAL_STATES,
} from '../../kernel';
import type { HoldReason } from '../host/startGate';
import { agentDescription, taskDescription } from './agentRows';

export type AgentNode =
  | { kind: 'agent'; serverId: string }
  | { kind: 'skills'; serverId: string }
  | { kind: 'skill'; serverId: string; index: number }
  | { kind: 'task'; serverId: string; taskId: string };

const STATE_ICONS: Partial<Record<string, [string, string?]>> = {
  submitted: ['clock'],
  working: ['sync~spin'],
  'input-required': ['question', 'charts.yellow'],
  'auth-required': ['key', 'charts.yellow'],
  completed: ['pass', 'testing.iconPassed'],
  failed: ['error', 'testing.iconFailed'],
  rejected: ['error', 'testing.iconFailed'],
  canceled: ['circle-slash'],
};

export class AgentsView implements vscode.TreeDataProvider<AgentNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<AgentNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly stops: (() => void)[] = [];

  constructor(
    private readonly kernel: Kernel,
    private readonly holdOf: (server: SupervisedServer) => HoldReason | undefined,
  ) {
    const refresh = () => this.changed.fire(undefined);
    this.stops.push(kernel.a2a.onChange(refresh));
    const bus = kernel.manager.bus;
    bus.on('transition', refresh);
    bus.on('servers', refresh);
    this.stops.push(() => bus.off('transition', refresh).off('servers', refresh));
  }

  private agents(): SupervisedServer[] {
    return this.kernel.manager.list().filter((server) => server.config.a2a !== undefined);
  }

  getChildren(parent?: AgentNode): AgentNode[] {
    if (!parent) return this.agents().map((server) => ({ kind: 'agent', serverId: server.id }));
    const { serverId } = parent;
    if (parent.kind === 'skills')
      return (this.kernel.a2a.cardOf(serverId)?.skills ?? []).map((_, index) => ({
        kind: 'skill',
        serverId,
        index,
      }));
    if (parent.kind !== 'agent') return [];
    const children: AgentNode[] = [];
    if (this.kernel.a2a.cardOf(serverId)?.skills.length)
      children.push({ kind: 'skills', serverId });
    for (const record of this.kernel.a2a.tasksOf(serverId))
      children.push({ kind: 'task', serverId, taskId: record.task.id });
    return children;
  }

  getTreeItem(node: AgentNode): vscode.TreeItem {
    switch (node.kind) {
      case 'agent':
        return this.agentItem(node.serverId);
      case 'skills': {
        const count = this.kernel.a2a.cardOf(node.serverId)?.skills.length ?? 0;
        const item = new vscode.TreeItem('Skills', vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `skills:${node.serverId}`;
        item.description = `${count} · the agent's words`;
        item.iconPath = new vscode.ThemeIcon('symbol-method');
        return item;
      }
      case 'skill':
        return this.skillItem(node.serverId, node.index);
      case 'task':
        return this.taskItem(node.serverId, node.taskId);
    }
  }

  private agentItem(serverId: string): vscode.TreeItem {
    const server = this.kernel.manager.find(serverId);
    const card = this.kernel.a2a.cardOf(serverId);
    const name = server?.config.a2a?.name ?? serverId;
    const state = server?.state ?? 'registered';
    const hasChildren =
      Boolean(card?.skills.length) || this.kernel.a2a.tasksOf(serverId).length > 0;
    const item = new vscode.TreeItem(
      name,
      hasChildren ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `agent:${serverId}`;
    item.description = agentDescription(state, card, {
      hold: server && server.heldBack !== undefined ? this.holdOf(server) : undefined,
      lastError: server?.lastError,
    });
    item.iconPath =
      state === 'connected'
        ? new vscode.ThemeIcon('robot', new vscode.ThemeColor('testing.iconPassed'))
        : state === 'error'
          ? new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'))
          : new vscode.ThemeIcon('robot');
    item.contextValue = state === 'connected' ? 'mgp.agent.reachable' : 'mgp.agent';
    item.tooltip = agentTooltip(name, server?.config.url, card, server?.lastError);
    return item;
  }

  private skillItem(serverId: string, index: number): vscode.TreeItem {
    const skill = this.kernel.a2a.cardOf(serverId)?.skills[index];
    const item = new vscode.TreeItem(oneLine(skill?.name ?? 'skill'));
    item.id = `skill:${serverId}:${index}`;
    item.description = oneLine(skill?.description ?? '');
    const tooltip = new vscode.MarkdownString();
    tooltip.appendText(`${skill?.name ?? ''} (the agent's words, not verified)\n\n`);
    tooltip.appendText(skill?.description ?? '');
    if (skill?.examples.length)
      tooltip.appendText(`\n\nFor example: ${skill.examples.join(' · ')}`);
    item.tooltip = tooltip;
    return item;
  }

  private taskItem(serverId: string, taskId: string): vscode.TreeItem {
    const record = this.kernel.a2a.taskOf(serverId, taskId);
    const label = oneLine(record?.message || `task ${taskId.slice(0, 8)}`);
    const item = new vscode.TreeItem(label.length > 60 ? `${label.slice(0, 59)}…` : label);
    item.id = `task:${serverId}:${taskId}`;
    if (!record) return item;
    item.description = taskDescription(record);
    const [icon, colour] = STATE_ICONS[record.task.state] ?? ['circle-outline'];
    item.iconPath = new vscode.ThemeIcon(icon, colour ? new vscode.ThemeColor(colour) : undefined);
    item.contextValue = TERMINAL_STATES.has(record.task.state)
      ? 'mgp.agentTask.ended'
      : 'mgp.agentTask.running';
    item.tooltip = `Task ${taskId} · ${record.task.state}\nStarted ${new Date(record.startedAt).toLocaleString()}`;
    item.command = {
      command: 'mgp.openAgentTask',
      title: 'Open Task',
      arguments: [{ kind: 'task', serverId, taskId }],
    };
    return item;
  }

  dispose(): void {
    this.stops.forEach((stop) => stop());
    this.changed.dispose();
  }
}

function agentTooltip(
  name: string,
  url: string | undefined,
  card: AgentCardSummary | undefined,
  lastError: string | undefined,
): vscode.MarkdownString {
  // Escaped, so nothing in it becomes a link or markup (URLs included).
  const lines = [markdownInline(`${name}${url ? ` · ${url}` : ''}`)];
  if (lastError) lines.push(`**Last error:** ${markdownInline(lastError)}`);
  if (card) {
    lines.push(
      markdownInline(
        `Speaks ${DIALECT_NAMES[card.dialect]} at ${card.endpoint}, ${card.streaming ? 'streams its tasks' : 'polled'}`,
      ),
      `Its card says (the agent's words, not verified): ${markdownInline(
        `"${card.name}"${card.description ? ` — ${card.description}` : ''}`,
      )}`,
    );
  }
  return new vscode.MarkdownString(lines.join('\n\n'));
}
