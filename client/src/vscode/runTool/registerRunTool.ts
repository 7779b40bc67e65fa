import * as vscode from 'vscode';
import type { ToolKey } from '@shared/toolPanelMessages';
import type { EditorHost } from '../host/editorHost';
import { toolKeyOf } from './commandArgs';
import { RunToolPanel } from './runToolPanel';

async function pickTool(host: EditorHost): Promise<ToolKey | undefined> {
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

/** The Run Tool panel and its command. */
export function registerRunTool(
  extension: vscode.ExtensionContext,
  host: EditorHost,
): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('mgp.runTool', async (target?: unknown) => {
      const key = toolKeyOf(target) ?? (await pickTool(host));
      if (key) RunToolPanel.show(extension, host, key);
    }),
    new vscode.Disposable(() => RunToolPanel.disposeAll()),
  ];
}
