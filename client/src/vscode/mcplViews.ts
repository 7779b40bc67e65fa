/**
 * Where an editor user sees MCPL (0.4.1): the Servers view's feature-set boxes (§6), the
 * Checkpoints view (§8) and push events in the Events view (§9), wired to the kernel's MCPL host.
 */
import * as vscode from 'vscode';
import type { McplHost } from '../kernel';
import { registerCheckpointsView } from './checkpoints/checkpointsView';
import type { EventRow, EventsView } from './events/eventsView';
import { registerFeatureSetToggles } from './servers/featureSetItems';
import type { ServersView } from './servers/serversView';

export function registerMcplViews(
  mcpl: McplHost,
  serversView: ServersView,
  eventsView: EventsView,
): vscode.Disposable[] {
  // A tree view, not only a data provider: its checkbox events are the feature-set switches.
  const servers = vscode.window.createTreeView('mgp.servers', {
    treeDataProvider: serversView,
    manageCheckboxStateManually: true,
    showCollapseAll: true,
  });
  return [
    servers,
    ...registerFeatureSetToggles(servers as vscode.TreeView<unknown>, mcpl, () =>
      serversView.refresh(),
    ),
    ...registerCheckpointsView(mcpl),
    vscode.commands.registerCommand('mgp.showEvent', (row?: EventRow) => eventsView.show(row)),
  ];
}
