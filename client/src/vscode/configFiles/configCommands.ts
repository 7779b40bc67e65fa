import { writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { ConfigService } from '../host/configService';
import type { EditorHost } from '../host/editorHost';
import { registerMoveSecretCommand } from '../host/secrets';
import { registerAddServer } from './addServer';
import { registerVscodeMcpImport } from './importVscodeMcp';

const STARTER_CONFIG = `# MGP Kernel server configuration. See the MGP spec, section 15.2.
[[servers]]
id = "everything"
command = "npx"
args = ["-y", "@modelcontextprotocol/server-everything"]
`;

/**
 * The config files: open one (at a server's line), create mgp.toml, read them again, add a server,
 * import .vscode/mcp.json, and move a literal secret into secret storage.
 */
export function registerConfigFiles(
  _context: vscode.ExtensionContext,
  host: EditorHost,
): vscode.Disposable[] {
  const { configs, secrets, log, gate } = host;
  return [
    // An explicit reload asks again about the servers declined in this window.
    vscode.commands.registerCommand('mgp.refreshServers', () => {
      gate.forgetDeclined();
      return configs.reload();
    }),
    vscode.commands.registerCommand(
      'mgp.openConfig',
      (target?: vscode.Uri | { server?: unknown }, line?: number) =>
        openConfig(configs, target, line),
    ),
    vscode.commands.registerCommand('mgp.createConfig', () => createConfig(configs)),
    registerMoveSecretCommand(secrets, log),
    ...registerVscodeMcpImport({ configs, secrets, log }),
    registerAddServer({ configs, approve: (servers) => gate.approve(servers), log }),
  ];
}

async function openConfig(
  configs: ConfigService,
  target: unknown,
  line: number | undefined,
): Promise<void> {
  let uri = target instanceof vscode.Uri ? target : undefined;
  let at = line;
  if (!uri && isServerNode(target)) {
    uri = vscode.Uri.file(target.server.source.file);
    at = target.server.source.line;
  }
  if (!uri) {
    const files = (await configs.config).files.filter((f) => !f.ignored);
    if (files.length === 0) {
      const choice = await vscode.window.showInformationMessage(
        'No MGP server configuration was found in this workspace.',
        'Create mgp.toml',
      );
      if (choice) await vscode.commands.executeCommand('mgp.createConfig');
      return;
    }
    uri = vscode.Uri.file(files[0].location.path);
  }
  const position = new vscode.Position(Math.max(0, (at ?? 1) - 1), 0);
  await vscode.window.showTextDocument(uri, { selection: new vscode.Range(position, position) });
}

function isServerNode(
  value: unknown,
): value is { server: { source: { file: string; line: number } } } {
  const server = (value as { server?: { source?: { file?: unknown } } } | undefined)?.server;
  return typeof server?.source?.file === 'string';
}

async function createConfig(configs: ConfigService): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    void vscode.window.showWarningMessage(
      'Open a folder first: mgp.toml lives at the root of a workspace folder.',
    );
    return;
  }
  const uri = vscode.Uri.joinPath(folder.uri, 'mgp.toml');
  try {
    await vscode.workspace.fs.stat(uri);
  } catch {
    await writeFile(uri.fsPath, STARTER_CONFIG, { flag: 'wx' });
  }
  await configs.reload();
  await vscode.window.showTextDocument(uri);
}
