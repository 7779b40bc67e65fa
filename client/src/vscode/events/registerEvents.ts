import * as vscode from 'vscode';
import type { EditorHost } from '../host/editorHost';
import { type EventRow, EventsView } from './eventsView';

/** The Events view: MGP events (§13) and MCPL push events (§9), each opened as a document. */
export function registerEvents(
  context: vscode.ExtensionContext,
  host: EditorHost,
): vscode.Disposable[] {
  const view = new EventsView(
    host.kernel.events,
    host.kernel.mcpl.pushEvents,
    context.workspaceState,
  );
  return [
    view,
    view.createView(),
    vscode.commands.registerCommand('mgp.clearEvents', () => view.clear()),
    vscode.commands.registerCommand('mgp.showEvent', (row?: EventRow) => view.show(row)),
  ];
}
