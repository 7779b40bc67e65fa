/** The Servers view's rows other than a server's and a tool's: a group, a notice, a config problem. */
import {
  type ConfigProblem,
  displayPath,
  PathContext,
  type SupervisedServer,
  type Switches,
} from '../../kernel';
import * as vscode from 'vscode';

/** A line above the servers that says what holds them back, and the way out. */
export interface NoticeNode {
  kind: 'notice';
  id: string;
  label: string;
  tooltip: string;
  icon: string;
  command: string;
}

export function groupItem(
  node: { serverId: string; group: 'tools' | 'resources' | 'prompts' },
  live: SupervisedServer | undefined,
  switches: Pick<Switches, 'toolOff'> | undefined,
): vscode.TreeItem {
  const count = live
    ? live[node.group].length + (node.group === 'resources' ? live.resourceTemplates.length : 0)
    : 0;
  const off =
    node.group === 'tools' && live && switches
      ? live.tools.filter((t) => switches.toolOff(live.id, t.name)).length
      : 0;
  const label = { tools: 'Tools', resources: 'Resources', prompts: 'Prompts' }[node.group];
  const item = new vscode.TreeItem(
    label,
    count ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.id = `group:${node.serverId}:${node.group}`;
  item.description = off ? `${count - off} of ${count} on` : String(count);
  item.iconPath = new vscode.ThemeIcon(
    { tools: 'tools', resources: 'file-text', prompts: 'comment-discussion' }[node.group],
  );
  return item;
}

export function noticeItem(node: NoticeNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
  item.id = `notice:${node.id}`;
  item.iconPath = new vscode.ThemeIcon(
    node.icon,
    new vscode.ThemeColor('editorWarning.foreground'),
  );
  item.tooltip = node.tooltip;
  item.contextValue = `mgp.notice.${node.id}`;
  item.command = { command: node.command, title: node.label };
  return item;
}

export function problemItem(problem: ConfigProblem, paths: PathContext): vscode.TreeItem {
  const where = `${displayPath(problem.file, paths)}:${problem.line}`;
  const item = new vscode.TreeItem(problem.message, vscode.TreeItemCollapsibleState.None);
  item.id = `problem:${where}:${problem.column}:${problem.message}`;
  item.description = where;
  item.iconPath = new vscode.ThemeIcon(
    'error',
    new vscode.ThemeColor('problemsErrorIcon.foreground'),
  );
  item.contextValue = 'mgp.configProblem';
  item.tooltip = `${where}:${problem.column}${problem.key ? ` (${problem.key})` : ''}: ${problem.message}`;
  item.command = {
    command: 'mgp.openConfig',
    title: 'Open Configuration',
    arguments: [vscode.Uri.file(problem.file), problem.line],
  };
  return item;
}
