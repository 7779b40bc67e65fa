import * as vscode from 'vscode';
import type { ToolKey } from '../../../../shared/src/toolPanelMessages';
import type { KernelHost } from '../kernelHost';
import { ToolDiscoveryPanel } from './discoveryPanel';
import { RunToolPanel } from './runToolPanel';
import { StreamsPanel } from './streamsPanel';

/**
 * What `mgp.runTool` accepts: a tool item of the Servers view, `{ serverId, toolName }` (from the
 * Discovery panel or a keybinding's `args`), or nothing (a quick pick of every tool).
 */
export function toolKeyOf(target: unknown): ToolKey | undefined {
  if (typeof target !== 'object' || target === null) return undefined;
  const t = target as Record<string, unknown>;
  if (t.kind === 'item' && t.group === 'tools' && typeof t.serverId === 'string' && typeof t.name === 'string') return { serverId: t.serverId, toolName: t.name };
  if (typeof t.serverId === 'string' && typeof t.toolName === 'string' && t.serverId && t.toolName) return { serverId: t.serverId, toolName: t.toolName };
  return undefined;
}

async function pickTool(host: KernelHost): Promise<ToolKey | undefined> {
  const items = host.kernel.tools().map((t) => ({
    label: `${t.serverId}.${t.name}`,
    description: t.tool.description?.split('\n')[0],
    detail: `${t.security.risk_level} · from ${t.security.sources.risk_level ?? 'default'}`,
    key: { serverId: t.serverId, toolName: t.name },
  }));
  const picked = await vscode.window.showQuickPick(items, { placeHolder: 'Tool to run', matchOnDescription: true });
  return picked?.key;
}

function streamIdOf(args: unknown): string | undefined {
  const id = typeof args === 'object' && args !== null ? (args as { streamId?: unknown }).streamId : undefined;
  return typeof id === 'string' && id ? id : undefined;
}

/** The Run Tool, Tool Discovery and Streaming Output panels, and their commands. */
export function registerToolPanels(host: KernelHost, extension: vscode.ExtensionContext): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('mgp.runTool', async (target?: unknown) => {
      const key = toolKeyOf(target) ?? (await pickTool(host));
      if (key) RunToolPanel.show(extension, host, key);
    }),
    vscode.commands.registerCommand('mgp.showToolDiscovery', () => void ToolDiscoveryPanel.show(extension, host)),
    vscode.commands.registerCommand('mgp.showStreams', (args?: unknown) => void StreamsPanel.show(extension, host, streamIdOf(args))),
    new vscode.Disposable(() => {
      RunToolPanel.disposeAll();
      ToolDiscoveryPanel.disposeCurrent();
      StreamsPanel.disposeCurrent();
    }),
  ];
}
