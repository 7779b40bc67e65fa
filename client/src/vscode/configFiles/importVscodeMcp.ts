import * as vscode from 'vscode';
import { importVscodeMcpJson, type McpJsonInput, serverBlock } from '../../kernel';
import type { ConfigService } from '../host/configService';
import type { SecretStore } from '../host/secrets';
import { appendServerBlocks, workspaceConfigFile } from './workspaceConfigFile';

const MCP_JSON = '.vscode/mcp.json';
/** Context key for the Servers view's welcome: the workspace has VS Code's own MCP configuration. */
const CONTEXT_KEY = 'mgp.hasVscodeMcpJson';

export interface ImportDeps {
  configs: ConfigService;
  secrets: SecretStore;
  log: vscode.LogOutputChannel;
}

/** *MGP: Import Servers from .vscode/mcp.json*, and the context key that offers it in the welcome view. */
export function registerVscodeMcpImport(deps: ImportDeps): vscode.Disposable[] {
  const watcher = vscode.workspace.createFileSystemWatcher(`**/${MCP_JSON}`);
  const update = () => void updateContextKey();
  void updateContextKey();
  return [
    watcher,
    watcher.onDidCreate(update),
    watcher.onDidDelete(update),
    vscode.workspace.onDidChangeWorkspaceFolders(update),
    vscode.commands.registerCommand('mgp.importVscodeMcp', () => importServers(deps)),
  ];
}

async function mcpJsonUri(): Promise<vscode.Uri | undefined> {
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const uri = vscode.Uri.joinPath(folder.uri, MCP_JSON);
    try {
      await vscode.workspace.fs.stat(uri);
      return uri;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

async function updateContextKey(): Promise<void> {
  await vscode.commands.executeCommand('setContext', CONTEXT_KEY, Boolean(await mcpJsonUri()));
}

async function importServers({ configs, secrets, log }: ImportDeps): Promise<void> {
  const source = await mcpJsonUri();
  if (!source) {
    void vscode.window.showWarningMessage(`This workspace has no ${MCP_JSON}.`);
    return;
  }
  const target = await workspaceConfigFile();
  if (!target) return;
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(source));
  const imported = importVscodeMcpJson(text, { existingIds: target.ids });
  if (imported.error) {
    void vscode.window.showErrorMessage(`Nothing was imported: ${imported.error}.`);
    return;
  }
  for (const note of imported.notes) log.warn(`import of ${MCP_JSON}: ${note}`);
  if (imported.servers.length === 0) {
    void vscode.window.showWarningMessage(
      `No server in ${MCP_JSON} could be imported: ${imported.notes.join('; ')}.`,
    );
    return;
  }
  // The values go to secret storage before the file names them; a cancel writes nothing.
  const values = await askInputs(imported.inputs);
  if (!values) return;
  for (const [input, value] of values) await secrets.store(input.secretName, value);
  const blocks = imported.servers.map((server) =>
    serverBlock(server, `Imported from ${MCP_JSON} ("${server.id}").`),
  );
  await appendServerBlocks(target, blocks);
  const name = vscode.workspace.asRelativePath(target.uri);
  log.info(
    `imported ${imported.servers.length} server(s) from ${MCP_JSON} into ${name}` +
      (values.length ? `; ${values.length} input value(s) stored in secret storage` : ''),
  );
  await configs.reload();
  const summary =
    `Imported ${imported.servers.length} server(s) from ${MCP_JSON} into ${name}: ` +
    imported.servers.map((s) => s.id).join(', ') +
    '.' +
    (imported.notes.length ? ` Not translated: ${imported.notes.join('; ')}.` : '');
  const open = 'Open ' + name;
  const choice = await (imported.notes.length
    ? vscode.window.showWarningMessage(summary, open)
    : vscode.window.showInformationMessage(summary, open));
  if (choice) await vscode.window.showTextDocument(target.uri);
}

/**
 * Asks for each input's value as VS Code would (a password box, or a pick), to keep in secret
 * storage. Undefined when the person cancels one.
 */
async function askInputs(inputs: McpJsonInput[]): Promise<[McpJsonInput, string][] | undefined> {
  const values: [McpJsonInput, string][] = [];
  for (const [index, input] of inputs.entries()) {
    const title = `Import from ${MCP_JSON}: "${input.id}" (${index + 1}/${inputs.length})`;
    const value = input.options?.length
      ? await vscode.window.showQuickPick(input.options, {
          title,
          placeHolder: input.description ?? `Pick a value for ${input.id}`,
          ignoreFocusOut: true,
        })
      : await vscode.window.showInputBox({
          title,
          prompt: `${input.description ?? input.id} — kept in VS Code's secret storage as \${secret:${input.secretName}}, never in the file`,
          value: input.default,
          password: input.password,
          ignoreFocusOut: true,
        });
    if (value === undefined) {
      void vscode.window.showInformationMessage('Import cancelled: nothing was written.');
      return undefined;
    }
    values.push([input, value]);
  }
  return values;
}
