import * as vscode from 'vscode';
import type { ToolKey } from '@shared/toolPanelMessages';
import type { EditorHost } from '../host/editorHost';
import { toolKeyOf } from './commandArgs';
import { RunToolPanel } from './runToolPanel';
import { toolPickGroups } from './toolPicks';

async function pickTool(host: EditorHost): Promise<ToolKey | undefined> {
  const items = toolPickGroups(host.kernel.tools()).flatMap(({ title, picks }) => [
    { label: title, kind: vscode.QuickPickItemKind.Separator },
    ...picks,
  ]);
  const picked = await vscode.window.showQuickPick<vscode.QuickPickItem & { key?: ToolKey }>(
    items,
    { placeHolder: 'Tool to run', matchOnDescription: true },
  );
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
