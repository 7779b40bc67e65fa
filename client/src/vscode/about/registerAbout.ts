import * as vscode from 'vscode';
import type { EditorHost } from '../host/editorHost';
import { AboutPanel } from './aboutPanel';

/** "About MGP Kernel" and the kernel's own log. */
export function registerAbout(
  extension: vscode.ExtensionContext,
  host: EditorHost,
): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('mgp.showAbout', () =>
      AboutPanel.show(extension, host.configs, host.languageServer, host.kernel.manager),
    ),
    vscode.commands.registerCommand('mgp.showLog', () => host.log.show()),
  ];
}
