/**
 * The Checkpoints view (MCPL §8): per server and feature set, the checkpoint tree the kernel keeps in
 * the workspace's state folder (so it is there again after a restart, before the server connects).
 * Each line of history reads newest first; a checkpoint where history forked holds the other
 * branches. "Roll Back to This Checkpoint" asks first, then sends `state/rollback` (§8.5).
 */
import * as vscode from 'vscode';
import { oneLine } from '@shared/untrustedText';
import type { CheckpointNode, FeatureSetState, McplHost } from '../../kernel';
import { historyLines } from './checkpointLineage';
import type { EditorHost } from '../host/editorHost';

export type CheckpointsSource = Pick<McplHost, 'checkpoints' | 'server' | 'onChange' | 'rollback'>;

export type CheckpointTreeNode =
  | { kind: 'server'; serverId: string }
  | { kind: 'set'; serverId: string; featureSet: string }
  | {
      kind: 'checkpoint';
      serverId: string;
      featureSet: string;
      checkpoint: CheckpointNode;
      current: boolean;
      branches: CheckpointNode[][];
    }
  | { kind: 'branch'; serverId: string; featureSet: string; line: CheckpointNode[] };

export class CheckpointsView
  implements vscode.TreeDataProvider<CheckpointTreeNode>, vscode.Disposable
{
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly stops: (() => void)[] = [];

  constructor(private readonly mcpl: CheckpointsSource) {
    const refresh = () => this.changed.fire();
    this.stops.push(mcpl.checkpoints.onChange(refresh), mcpl.onChange(refresh));
    // The kept tree shows at once after a restart, not only once the server is back.
    void mcpl.checkpoints.load().then(refresh);
  }

  private sets(serverId: string): Record<string, FeatureSetState> {
    return this.mcpl.checkpoints.all()[serverId] ?? {};
  }

  getChildren(parent?: CheckpointTreeNode): CheckpointTreeNode[] {
    if (!parent)
      return Object.keys(this.mcpl.checkpoints.all())
        .filter((serverId) => Object.keys(this.sets(serverId)).length > 0)
        .sort()
        .map((serverId) => ({ kind: 'server', serverId }));
    const { serverId } = parent;
    if (parent.kind === 'server')
      return Object.keys(this.sets(serverId))
        .sort()
        .map((featureSet) => ({ kind: 'set', serverId, featureSet }));
    const state = this.sets(serverId)[parent.featureSet];
    const lines = state ? historyLines(state.checkpoints, state.current) : [];
    const known = new Set(state?.checkpoints.map((c) => c.id));
    const branch = (line: CheckpointNode[]): CheckpointTreeNode => ({
      kind: 'branch',
      serverId,
      featureSet: parent.featureSet,
      line,
    });
    if (parent.kind === 'set')
      return [
        ...this.line(parent, lines[0] ?? [], lines, state?.current),
        // Other roots: checkpoints whose parent the kernel does not know (pruned, or a new start).
        ...lines
          .slice(1)
          .filter((line) => line[0].parent === null || !known.has(line[0].parent))
          .map(branch),
      ];
    if (parent.kind === 'branch') return this.line(parent, parent.line, lines, state?.current);
    if (parent.kind === 'checkpoint') return parent.branches.map(branch);
    return [];
  }

  /** A line of history, newest first; each checkpoint holds the branches that fork from it. */
  private line(
    where: { serverId: string; featureSet: string },
    line: CheckpointNode[],
    lines: CheckpointNode[][],
    current: string | undefined,
  ): CheckpointTreeNode[] {
    return [...line].reverse().map((checkpoint) => ({
      kind: 'checkpoint',
      serverId: where.serverId,
      featureSet: where.featureSet,
      checkpoint,
      current: checkpoint.id === current,
      branches: lines.filter((other) => other[0].parent === checkpoint.id),
    }));
  }

  getTreeItem(node: CheckpointTreeNode): vscode.TreeItem {
    const collapsed = vscode.TreeItemCollapsibleState.Collapsed;
    const expanded = vscode.TreeItemCollapsibleState.Expanded;
    switch (node.kind) {
      case 'server': {
        const item = new vscode.TreeItem(node.serverId, expanded);
        item.id = `checkpoints:${node.serverId}`;
        item.iconPath = new vscode.ThemeIcon('server');
        item.description = this.mcpl.server(node.serverId) ? 'connected' : 'not connected';
        return item;
      }
      case 'set': {
        const item = new vscode.TreeItem(oneLine(node.featureSet), expanded);
        const state = this.sets(node.serverId)[node.featureSet];
        item.id = `checkpoints:${node.serverId}:${node.featureSet}`;
        item.iconPath = new vscode.ThemeIcon('history');
        item.description = `${state?.checkpoints.length ?? 0} checkpoints`;
        return item;
      }
      case 'branch': {
        const item = new vscode.TreeItem(`branch from ${oneLine(node.line[0].parent ?? 'start')}`);
        item.collapsibleState = collapsed;
        item.id = `checkpoints:${node.serverId}:${node.featureSet}:branch:${node.line[0].id}`;
        item.iconPath = new vscode.ThemeIcon('git-branch');
        item.description = `${node.line.length} checkpoints`;
        return item;
      }
      case 'checkpoint':
        return checkpointItem(node);
    }
  }

  dispose(): void {
    for (const stop of this.stops) stop();
    this.changed.dispose();
  }
}

function checkpointItem(
  node: Extract<CheckpointTreeNode, { kind: 'checkpoint' }>,
): vscode.TreeItem {
  const { checkpoint, current } = node;
  const id = oneLine(checkpoint.id);
  const item = new vscode.TreeItem(
    id,
    node.branches.length
      ? vscode.TreeItemCollapsibleState.Collapsed
      : vscode.TreeItemCollapsibleState.None,
  );
  item.id = `checkpoint:${node.serverId}:${node.featureSet}:${checkpoint.id}`;
  const time = new Date(checkpoint.createdAt);
  const when = Number.isNaN(time.getTime()) ? checkpoint.createdAt : time.toLocaleTimeString();
  item.description = [
    current ? 'current' : undefined,
    checkpoint.tool ? oneLine(checkpoint.tool) : undefined,
    when,
    checkpoint.hasData ? undefined : 'state kept by the server',
  ]
    .filter(Boolean)
    .join(' · ');
  item.iconPath = current
    ? new vscode.ThemeIcon('circle-filled', new vscode.ThemeColor('testing.iconPassed'))
    : new vscode.ThemeIcon('circle-outline');
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.appendMarkdown(`**${id}**${current ? ' — current' : ''}\n\n`);
  tooltip.appendMarkdown(`Parent: ${checkpoint.parent ? oneLine(checkpoint.parent) : 'none'}\n\n`);
  tooltip.appendMarkdown(`Created ${checkpoint.createdAt}`);
  if (checkpoint.tool) tooltip.appendMarkdown(` by \`${oneLine(checkpoint.tool)}\``);
  tooltip.appendMarkdown(
    checkpoint.hasData
      ? '\n\nThe kernel holds the state at this checkpoint.'
      : '\n\nThe server keeps the state at this checkpoint (MCPL §8.3).',
  );
  if (!current) tooltip.appendMarkdown('\n\nRoll back to it from the row’s action.');
  item.tooltip = tooltip;
  item.contextValue = current ? 'mgp.checkpoint.current' : 'mgp.checkpoint';
  item.accessibilityInformation = {
    label: `Checkpoint ${id} of ${node.serverId} ${node.featureSet}${current ? ', current' : ''}`,
  };
  return item;
}

/** The confirmation, then `state/rollback` through the kernel (audited there, MCPL §13.2). */
export async function rollBackTo(
  mcpl: CheckpointsSource,
  node: CheckpointTreeNode | undefined,
): Promise<void> {
  if (node?.kind !== 'checkpoint') return;
  const { serverId, featureSet, checkpoint } = node;
  const id = oneLine(checkpoint.id);
  if (!mcpl.server(serverId)) {
    void vscode.window.showWarningMessage(
      `${serverId} is not connected: start it to roll ${oneLine(featureSet)} back.`,
    );
    return;
  }
  const choice = await vscode.window.showWarningMessage(
    `Roll ${serverId} · ${oneLine(featureSet)} back to checkpoint ${id}?`,
    {
      modal: true,
      detail:
        'The server restores its state as it was at that checkpoint. Later checkpoints stay in the tree, and you can roll forward to them again.',
    },
    'Roll Back',
  );
  if (choice !== 'Roll Back') return;
  try {
    const result = await mcpl.rollback(serverId, featureSet, checkpoint.id);
    if (result.success)
      void vscode.window.showInformationMessage(
        `${serverId} · ${oneLine(featureSet)} is back at checkpoint ${id}.`,
      );
    else
      void vscode.window.showErrorMessage(
        `${serverId} did not roll back to ${id}: ${oneLine(result.reason ?? 'no reason given')}`,
      );
  } catch (error) {
    void vscode.window.showErrorMessage(
      `Rolling back to ${id} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** The Checkpoints view (MCPL §8) and rolling back to one. */
export function registerCheckpoints(
  _context: vscode.ExtensionContext,
  host: EditorHost,
): vscode.Disposable[] {
  const mcpl = host.kernel.mcpl;
  const view = new CheckpointsView(mcpl);
  return [
    view,
    vscode.window.registerTreeDataProvider('mgp.checkpoints', view),
    vscode.commands.registerCommand('mgp.rollbackCheckpoint', (node?: CheckpointTreeNode) =>
      rollBackTo(mcpl, node),
    ),
  ];
}
