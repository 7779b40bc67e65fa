import * as vscode from 'vscode';
import type { ConfigProblem, ConfiguredServer, KernelConfig } from '../kernel/config/model';
import { displayPath, PathContext, serverTarget } from '../kernel/status';
import type { ConfigService } from './configService';

type Node =
  | { kind: 'server'; server: ConfiguredServer; shadowedBy?: ConfiguredServer }
  | { kind: 'problem'; problem: ConfigProblem };

/** The Servers view: every configured server, and config errors where they stop a server loading. */
export class ServersView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly configs: ConfigService) {
    this.subscription = configs.onDidChange(() => this.changed.fire());
  }

  async getChildren(parent?: Node): Promise<Node[]> {
    if (parent) return [];
    const config: KernelConfig = await this.configs.config;
    return [
      ...config.problems.filter((p) => p.severity === 'error').map((problem): Node => ({ kind: 'problem', problem })),
      ...config.servers.map((server): Node => ({ kind: 'server', server })),
      ...config.shadowed.map(({ server, winner }): Node => ({ kind: 'server', server, shadowedBy: winner })),
    ];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    const paths = this.configs.pathContext();
    return node.kind === 'server' ? serverItem(node.server, node.shadowedBy, paths) : problemItem(node.problem, paths);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

function openAt(file: string, line: number): vscode.Command {
  return { command: 'mgp.openConfig', title: 'Open Configuration', arguments: [vscode.Uri.file(file), line] };
}

function serverItem(server: ConfiguredServer, shadowedBy: ConfiguredServer | undefined, paths: PathContext): vscode.TreeItem {
  const item = new vscode.TreeItem(server.id, vscode.TreeItemCollapsibleState.None);
  const where = `${displayPath(server.source.file, paths)}:${server.source.line}`;
  item.id = `server:${server.id}:${where}`;
  item.description = shadowedBy ? `overridden by ${displayPath(shadowedBy.source.file, paths)}` : `${server.transport} · ${serverTarget(server)}`;
  item.iconPath = new vscode.ThemeIcon(shadowedBy ? 'circle-slash' : 'server-process');
  item.contextValue = 'mgp.server';
  item.command = openAt(server.source.file, server.source.line);
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.appendMarkdown(`**${server.id}** — ${server.transport}\n\n`);
  tooltip.appendCodeblock(serverTarget(server), 'shell');
  tooltip.appendMarkdown(`\nDeclared in \`${where}\`` + (shadowedBy ? `, overridden by the nearer \`${displayPath(shadowedBy.source.file, paths)}\`` : ''));
  item.tooltip = tooltip;
  item.accessibilityInformation = { label: `Server ${server.id}, ${server.transport}, declared in ${where}` };
  return item;
}

function problemItem(problem: ConfigProblem, paths: PathContext): vscode.TreeItem {
  const where = `${displayPath(problem.file, paths)}:${problem.line}`;
  const item = new vscode.TreeItem(problem.message, vscode.TreeItemCollapsibleState.None);
  item.id = `problem:${where}:${problem.column}:${problem.message}`;
  item.description = where;
  item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'));
  item.contextValue = 'mgp.configProblem';
  item.tooltip = `${where}:${problem.column}${problem.key ? ` (${problem.key})` : ''}: ${problem.message}`;
  item.command = openAt(problem.file, problem.line);
  return item;
}
