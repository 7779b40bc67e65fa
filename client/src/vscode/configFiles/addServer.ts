import * as vscode from 'vscode';
import { SERVER_ID } from '@shared/schemas/vocabulary';
import {
  appendBlocks,
  type ConfiguredServer,
  invalidValue,
  newServerFrom,
  type NewServerKind,
  parseConfigText,
  serverBlock,
  uniqueServerId,
} from '../../kernel';
import type { ConfigService } from '../host/configService';
import { appendServerBlocks, workspaceConfigFile } from './workspaceConfigFile';
import { offerTrust } from '../common/workspaceTrust';

export interface AddServerDeps {
  configs: ConfigService;
  /** Records the person's approval of a workspace server's launch (StartGate.approve). */
  approve(servers: ConfiguredServer[]): Promise<void>;
  log: vscode.LogOutputChannel;
}

interface KindItem extends vscode.QuickPickItem {
  serverKind: NewServerKind;
  prompt: string;
  placeHolder: string;
}

const KINDS: KindItem[] = [
  {
    serverKind: 'command',
    label: '$(terminal) Command (stdio)',
    detail: 'Run a program on this machine that speaks MCP on its standard input and output',
    prompt: 'The command line that starts the server',
    placeHolder: 'node path/to/server.js --flag',
  },
  {
    serverKind: 'npm',
    label: '$(package) npm Package',
    detail: 'Run an MCP server published on npm, with npx',
    prompt: 'The npm package of the server (npx -y PACKAGE runs it)',
    placeHolder: '@modelcontextprotocol/server-everything',
  },
  {
    serverKind: 'http',
    label: '$(globe) HTTP (HTTP or Server-Sent Events)',
    detail: 'Connect to a server at a URL (Streamable HTTP; a URL ending in /sse uses legacy SSE)',
    prompt: 'The URL of the server',
    placeHolder: 'https://example.com/mcp',
  },
];

/** *MGP: Add Server…*: a kind, its one value, a name; written to mgp.toml, then started. */
export function registerAddServer(deps: AddServerDeps): vscode.Disposable {
  return vscode.commands.registerCommand('mgp.addServer', () => addServer(deps));
}

async function addServer({ configs, approve, log }: AddServerDeps): Promise<void> {
  const title = 'Add MCP Server';
  const kind = await vscode.window.showQuickPick(KINDS, {
    title,
    placeHolder: 'How does MGP Kernel reach the server?',
  });
  if (!kind) return;
  const value = await vscode.window.showInputBox({
    title,
    prompt: kind.prompt,
    placeHolder: kind.placeHolder,
    ignoreFocusOut: true,
    validateInput: (text) => invalidValue(kind.serverKind, text),
  });
  if (value === undefined) return;
  const file = await workspaceConfigFile();
  if (!file) return;
  const server = newServerFrom(kind.serverKind, value);
  const taken = new Set(file.ids);
  const id = await vscode.window.showInputBox({
    title,
    prompt: 'A name for the server: its id in mgp.toml, the Servers view and the audit trail',
    value: uniqueServerId(server.id, new Set(taken)),
    ignoreFocusOut: true,
    validateInput: (text) =>
      !SERVER_ID.test(text)
        ? 'Use letters, digits, ".", "_" and "-" only'
        : taken.has(text)
          ? `mgp.toml already has a server "${text}"`
          : undefined,
  });
  if (id === undefined) return;
  server.id = id;
  const block = serverBlock(server);
  // The person typed this launch themselves: that is the approval the start gate asks for.
  const [configured] = parseConfigText(appendBlocks(file.text, [block]), {
    path: file.uri.fsPath,
    format: 'mgp',
    origin: 'workspace',
  }).servers.filter((s) => s.id === id);
  if (configured) await approve([configured]);
  await appendServerBlocks(file, [block]);
  const name = vscode.workspace.asRelativePath(file.uri);
  log.info(`added server "${id}" (${server.transport}) to ${name}`);
  await configs.reload();
  if (!vscode.workspace.isTrusted)
    return offerTrust(
      `Added "${id}" to ${name}. It starts once you trust the workspace: MGP Kernel starts no server from a workspace's config in Restricted Mode.`,
    );
  void vscode.window.showInformationMessage(`Added "${id}" to ${name}; starting it.`);
}
