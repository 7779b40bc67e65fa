import * as vscode from 'vscode';
import type { EditorHost } from '../host/editorHost';
import { streamIdOf } from '../runTool/commandArgs';
import { StreamsPanel } from './streamsPanel';

/** The Streaming Output panel and its command. */
export function registerStreams(
  extension: vscode.ExtensionContext,
  host: EditorHost,
): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(
      'mgp.showStreams',
      (args?: unknown) => void StreamsPanel.show(extension, host, streamIdOf(args)),
    ),
    new vscode.Disposable(() => StreamsPanel.disposeCurrent()),
  ];
}
