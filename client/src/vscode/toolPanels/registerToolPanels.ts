import * as vscode from 'vscode';
import type { ToolKey } from '@shared/toolPanelMessages';
import type { KernelHost } from '../host/kernelHost';
import { streamIdOf, toolKeyOf } from './commandArgs';
import { ToolDiscoveryPanel } from './discoveryPanel';
import { RunToolPanel } from './runToolPanel';
import { StreamsPanel } from './streamsPanel';

async function pickTool(host: KernelHost): Promise<ToolKey | undefined> {
  const items = host.kernel.tools().map((t) => ({
    label: `${t.serverId}.${t.name}`,
    description: t.tool.description?.split('\n')[0],
    detail: `${t.security.risk_level} · from ${t.security.sources.risk_level ?? 'default'}`,
    key: { serverId: t.serverId, toolName: t.name },
  }));
  const picked = await vscode.window.showQuickPick(items, {
    placeHolder: 'Tool to run',
    matchOnDescription: true,
  });
  return picked?.key;
}

/** The Run Tool, Tool Discovery and Streaming Output panels, and their commands. */
export function registerToolPanels(
  host: KernelHost,
  extension: vscode.ExtensionContext,
): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('mgp.runTool', async (target?: unknown) => {
      const key = toolKeyOf(target) ?? (await pickTool(host));
      if (key) RunToolPanel.show(extension, host, key);
    }),
    vscode.commands.registerCommand(
      'mgp.showToolDiscovery',
      () => void ToolDiscoveryPanel.show(extension, host),
    ),
    vscode.window.registerWebviewPanelSerializer(ToolDiscoveryPanel.viewType, {
      deserializeWebviewPanel: async (panel) => ToolDiscoveryPanel.revive(panel, extension, host),
    }),
    vscode.commands.registerCommand(
      'mgp.showStreams',
      (args?: unknown) => void StreamsPanel.show(extension, host, streamIdOf(args)),
    ),
    new vscode.Disposable(() => {
      RunToolPanel.disposeAll();
      ToolDiscoveryPanel.disposeCurrent();
      StreamsPanel.disposeCurrent();
    }),
  ];
}
