/**
 * An MCPL server's feature sets in the Servers view (MCPL §6): one checkbox row per declared set, with
 * its `uses` and where its state comes from. Ticking a box is the user's switch: the kernel keeps it
 * in the workspace's state folder (it wins over `[servers.mcpl]`, which a workspace file may set for
 * everyone) and sends `featureSets/update` (§6.7). "Use Config Setting" hands a set back to the config.
 */
import * as vscode from 'vscode';
import { oneLine, visibleText } from '@shared/untrustedText';
import type { FeatureSetView, McplHost } from '../../kernel';

export type FeatureSetNode =
  | { kind: 'featureSets'; serverId: string }
  | { kind: 'featureSet'; serverId: string; set: FeatureSetView };

export type FeatureSetSource = Pick<McplHost, 'server' | 'onChange' | 'switchFeatureSets'>;

const SOURCE_WORDS: Record<FeatureSetView['source'], string> = {
  user: 'your switch',
  config: 'from config',
  default: 'off by default',
};

/** The sets a connected MCPL server declares, in its order. */
export function featureSetNodes(mcpl: FeatureSetSource, serverId: string): FeatureSetNode[] {
  const server = mcpl.server(serverId);
  return (server?.table.list() ?? []).map((set) => ({ kind: 'featureSet', serverId, set }));
}

export function featureSetsGroupItem(mcpl: FeatureSetSource, serverId: string): vscode.TreeItem {
  const sets = mcpl.server(serverId)?.table.list() ?? [];
  const item = new vscode.TreeItem(
    'Feature Sets',
    sets.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.id = `group:${serverId}:featureSets`;
  item.description = `${sets.filter((s) => s.enabled).length} of ${sets.length} on`;
  item.iconPath = new vscode.ThemeIcon('symbol-namespace');
  item.tooltip = 'MCPL feature sets this server declares (MCPL §6). Tick one to switch it on.';
  return item;
}

export function featureSetItem(
  node: Extract<FeatureSetNode, { kind: 'featureSet' }>,
): vscode.TreeItem {
  const { set, serverId } = node;
  const name = oneLine(set.name);
  const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.None);
  item.id = `featureSet:${serverId}:${set.name}`;
  item.checkboxState = {
    state: set.enabled
      ? vscode.TreeItemCheckboxState.Checked
      : vscode.TreeItemCheckboxState.Unchecked,
    tooltip: `${set.enabled ? 'Switch off' : 'Switch on'} ${name}`,
    accessibilityInformation: { label: `${name} ${set.enabled ? 'on' : 'off'}` },
  };
  const state = set.enabled ? 'on' : 'off';
  item.description = `${state} · ${SOURCE_WORDS[set.source]} · ${set.uses.join(', ')}`;
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.appendMarkdown(`**${name}** — ${state}, ${SOURCE_WORDS[set.source]}\n\n`);
  tooltip.appendMarkdown(`Uses: ${set.uses.map((u) => `\`${u}\``).join(', ') || 'nothing'}`);
  if (set.scoped) tooltip.appendMarkdown(' · scoped (MCPL §7)');
  if (set.rollback) tooltip.appendMarkdown(' · checkpoints and rollback (MCPL §8)');
  if (set.description) {
    tooltip.appendMarkdown('\n\n---\n\n*Description from the server (untrusted):*\n\n');
    tooltip.appendText(visibleText(set.description));
  }
  item.tooltip = tooltip;
  item.iconPath = new vscode.ThemeIcon(set.enabled ? 'plug' : 'debug-disconnect');
  item.contextValue = set.source === 'user' ? 'mgp.featureSet.user' : 'mgp.featureSet';
  item.accessibilityInformation = {
    label: `Feature set ${name}, ${state}, ${SOURCE_WORDS[set.source]}`,
  };
  return item;
}

/** Switches a set and says so when the kernel refuses (the box then goes back to what holds). */
async function switchSet(
  mcpl: FeatureSetSource,
  node: Extract<FeatureSetNode, { kind: 'featureSet' }>,
  enabled: boolean | undefined,
  refresh: () => void,
): Promise<void> {
  try {
    await mcpl.switchFeatureSets(node.serverId, node.set.name, enabled);
  } catch (error) {
    refresh();
    void vscode.window.showErrorMessage(
      `Could not switch feature set ${oneLine(node.set.name)} of ${node.serverId}: ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
}

/** The Servers view as a tree view whose feature-set boxes switch sets, and the reset command. */
export function registerFeatureSetToggles(
  view: vscode.TreeView<unknown>,
  mcpl: FeatureSetSource,
  refresh: () => void,
): vscode.Disposable[] {
  return [
    view.onDidChangeCheckboxState(async (event) => {
      for (const [node, state] of event.items) {
        const item = node as FeatureSetNode;
        if (item.kind !== 'featureSet') continue;
        await switchSet(mcpl, item, state === vscode.TreeItemCheckboxState.Checked, refresh);
      }
    }),
    vscode.commands.registerCommand('mgp.resetFeatureSet', (node: FeatureSetNode) =>
      node?.kind === 'featureSet' ? switchSet(mcpl, node, undefined, refresh) : undefined,
    ),
  ];
}
