import * as vscode from 'vscode';
import type { EditorHost } from '../host/editorHost';
import { ToolDiscoveryPanel } from './discoveryPanel';

/** The Tool Discovery panel, its command, and its return after a window reload. */
export function registerDiscovery(
  extension: vscode.ExtensionContext,
  host: EditorHost,
): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(
      'mgp.showToolDiscovery',
      () => void ToolDiscoveryPanel.show(extension, host),
    ),
    vscode.window.registerWebviewPanelSerializer(ToolDiscoveryPanel.viewType, {
      deserializeWebviewPanel: async (panel) => ToolDiscoveryPanel.revive(panel, extension, host),
    }),
    new vscode.Disposable(() => ToolDiscoveryPanel.disposeCurrent()),
  ];
}
