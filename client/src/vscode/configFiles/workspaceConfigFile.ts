import * as vscode from 'vscode';
import { WORKSPACE_MGP_CONFIG_NAMES } from '@shared/configFiles';
import { parseTomlDocument } from '@shared/configCheck/parse';
import { appendBlocks, serverIdsOf } from '../../kernel';

/** The workspace's own mgp.toml (or mcp.toml), as it is now: in an open editor, on disk, or absent. */
export interface WorkspaceConfigFile {
  folder: vscode.WorkspaceFolder;
  uri: vscode.Uri;
  exists: boolean;
  text: string;
  /** Server ids the file declares already (none when it does not parse). */
  ids: Set<string>;
}

export async function workspaceConfigFile(): Promise<WorkspaceConfigFile | undefined> {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  if (!folder) {
    void vscode.window.showWarningMessage(
      'Open a folder first: mgp.toml lives at the root of a workspace folder.',
    );
    return undefined;
  }
  for (const name of WORKSPACE_MGP_CONFIG_NAMES) {
    const uri = vscode.Uri.joinPath(folder.uri, name);
    const text = await currentText(uri);
    if (text === undefined) continue;
    const parsed = parseTomlDocument(text);
    return { folder, uri, exists: true, text, ids: serverIdsOf(parsed.ok ? parsed.value : {}) };
  }
  const uri = vscode.Uri.joinPath(folder.uri, 'mgp.toml');
  return { folder, uri, exists: false, text: '', ids: new Set() };
}

/** The text of a file as the editor has it (unsaved changes included), or undefined when absent. */
async function currentText(uri: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

const HEADER = '# MGP Kernel server configuration (MGP §15.2).\n';

/**
 * Appends `[[servers]]` tables after the file's last line and saves it: what was there, comments
 * included, stays as it was. The file is created when the workspace has none.
 */
export async function appendServerBlocks(
  file: WorkspaceConfigFile,
  blocks: readonly string[],
): Promise<void> {
  if (!file.exists) {
    await vscode.workspace.fs.writeFile(
      file.uri,
      new TextEncoder().encode(appendBlocks(HEADER, blocks)),
    );
    return;
  }
  const document = await vscode.workspace.openTextDocument(file.uri);
  const text = document.getText();
  const end = document.positionAt(text.length);
  const edit = new vscode.WorkspaceEdit();
  edit.insert(file.uri, end, appendBlocks(text, blocks).slice(text.length));
  if (!(await vscode.workspace.applyEdit(edit)))
    throw new Error(`could not edit ${vscode.workspace.asRelativePath(file.uri)}`);
  await document.save();
}
