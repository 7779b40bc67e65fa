/**
 * The rows under a server in the Servers view: its tools, resources and prompts. A tool shows its
 * effective risk (MGP §4) with where it came from; a tool the user turned off says so, greyed, and is
 * not run by a click.
 */
import * as vscode from 'vscode';
import { markdownInline, oneLine, visibleText } from '@shared/untrustedText';
import type { EffectiveSecurity } from '../../kernel';

export interface ItemNode {
  kind: 'item';
  serverId: string;
  group: 'tools' | 'resources' | 'prompts';
  name: string;
  description?: string;
  uri?: string;
  security?: EffectiveSecurity;
  /** A tool the user turned off. */
  off?: boolean;
  /** A resource of a server that offers subscriptions: whether the user subscribed to it. */
  subscription?: 'subscribed' | 'available';
  /** The icons the server listed for it (MCP 2025-11-25), not yet checked. */
  icons?: unknown;
}

const OFF_ICON: [string, string] = ['circle-slash', 'disabledForeground'];

const RISK_ICONS: Record<string, [string, string]> = {
  safe: ['symbol-method', 'testing.iconPassed'],
  moderate: ['warning', 'editorWarning.foreground'],
  dangerous: ['flame', 'errorForeground'],
};

/** A tool's tooltip: its effective security metadata and where each part came from (MGP §4). */
function securityTooltip(node: ItemNode, security: EffectiveSecurity): vscode.MarkdownString {
  const text = new vscode.MarkdownString(undefined, true);
  text.appendMarkdown(
    `**${markdownInline(node.name)}** — risk **${security.risk_level}** (from ${security.sources.risk_level ?? 'default'})\n\n`,
  );
  if (security.serverClaim)
    text.appendMarkdown(
      `$(warning) The server itself claims **${markdownInline(security.serverClaim)}**.\n\n`,
    );
  text.appendMarkdown(
    `Side effects: ${security.side_effects.length ? security.side_effects.map(markdownInline).join(', ') : 'none declared'}${security.reversible === false ? ' · not reversible' : ''}\n\n`,
  );
  if (security.permissions_required.length)
    text.appendMarkdown(
      `Permissions: ${security.permissions_required.map(markdownInline).join(', ')}\n\n`,
    );
  if (security.validator)
    text.appendMarkdown(
      `Validator: ${markdownInline(security.validator)} (from ${security.sources.validator ?? 'server'})\n\n`,
    );
  if (security.confirmation_required) text.appendMarkdown('Asks before each call.\n\n');
  if (node.off)
    text.appendMarkdown(
      'Turned off: offered to no agent and refused if called. Enable it from its context menu.\n\n',
    );
  if (node.description) {
    text.appendMarkdown('---\n\n*Description from the server (untrusted):*\n\n');
    text.appendText(visibleText(node.description));
  }
  return text;
}

/**
 * A tool, resource or prompt row. `serverIcon` is the server's checked icon for it: shown in place of
 * the codicon, except for a tool turned off or judged dangerous, whose mark a server may not cover.
 */
export function leafItem(
  node: ItemNode,
  serverIcon?: { light: vscode.Uri; dark: vscode.Uri },
): vscode.TreeItem {
  const item = new vscode.TreeItem(oneLine(node.name), vscode.TreeItemCollapsibleState.None);
  item.id = `${node.group}:${node.serverId}:${node.uri ?? node.name}`;
  const summary =
    node.description === undefined ? undefined : oneLine(node.description.split('\n')[0]);
  item.description = node.security ? `${node.security.risk_level} · ${summary ?? ''}` : summary;
  item.tooltip = node.security
    ? securityTooltip(node, node.security)
    : node.description && visibleText(node.description);
  item.contextValue = `mgp.${node.group.slice(0, -1)}`;
  if (node.subscription) {
    item.contextValue = `mgp.resource.${node.subscription === 'subscribed' ? 'subscribed' : 'subscribable'}`;
    if (node.subscription === 'subscribed')
      item.description = `subscribed${summary ? ` · ${summary}` : ''}`;
  }
  const [icon, colour] = node.off
    ? OFF_ICON
    : node.security
      ? RISK_ICONS[node.security.risk_level]
      : [{ tools: 'symbol-method', resources: 'file', prompts: 'comment' }[node.group], undefined];
  // A subscribed resource says so by its icon too: the description is cut in a narrow view. The
  // server's own picture stands for its safe items only: a risk keeps the kernel's mark.
  item.iconPath =
    node.subscription === 'subscribed'
      ? new vscode.ThemeIcon('bell-dot')
      : serverIcon && !node.off && (!node.security || node.security.risk_level === 'safe')
        ? serverIcon
        : new vscode.ThemeIcon(icon, colour ? new vscode.ThemeColor(colour) : undefined);
  item.accessibilityInformation = {
    label: `${node.group === 'tools' ? 'Tool' : node.group === 'resources' ? 'Resource' : 'Prompt'} ${oneLine(node.name)}${node.security ? `, risk ${node.security.risk_level}` : ''}${node.off ? ', turned off' : ''}${node.subscription === 'subscribed' ? ', subscribed' : ''}`,
  };
  if (node.off) {
    item.description = `off · ${item.description ?? ''}`;
    item.contextValue = 'mgp.tool.off';
    return item;
  }
  if (node.group === 'tools')
    item.command = { command: 'mgp.runTool', title: 'Run Tool', arguments: [node] };
  if (node.group === 'resources')
    item.command = { command: 'mgp.readResource', title: 'Read Resource', arguments: [node] };
  if (node.group === 'prompts')
    item.command = { command: 'mgp.usePrompt', title: 'Use Prompt', arguments: [node] };
  return item;
}
