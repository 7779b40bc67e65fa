import * as vscode from 'vscode';
import type { KernelHost } from '../host/kernelHost';
import { ToolDiscoveryPanel } from './discoveryPanel';

/** The Tool Discovery panel, its command, and its return after a window reload. */
export function registerDiscovery(
  host: KernelHost,
  extension: vscode.ExtensionContext,
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
