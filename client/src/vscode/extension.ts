import * as vscode from 'vscode';
import type { KernelConfig } from '../kernel/config/model';
import { registerCommands } from './commands';
import { ConfigService } from './configService';
import { LanguageServerHost, LanguageServerState } from './languageClient';
import { registerMoveSecretCommand, SecretStore } from './secrets';
import { ServersView } from './serversView';

/** What activate() returns: for other extensions and for the extension-host test suite. */
export interface MgpKernelApi {
  readonly version: string;
  config(): Promise<KernelConfig>;
  readonly onDidChangeConfig: vscode.Event<KernelConfig>;
  languageServerState(): LanguageServerState;
}

export async function activate(extension: vscode.ExtensionContext): Promise<MgpKernelApi> {
  const log = vscode.window.createOutputChannel('MGP Kernel', { log: true });
  const version = extension.extension.packageJSON.version as string;
  log.info(`MGP Kernel ${version} activating (VS Code ${vscode.version}, Node ${process.versions.node}, workspace ${vscode.workspace.isTrusted ? 'trusted' : 'untrusted'})`);

  const configs = new ConfigService(log);
  const languageServer = new LanguageServerHost(extension, log, configs);
  const secrets = new SecretStore(extension.secrets);
  const serversView = new ServersView(configs);
  extension.subscriptions.push(
    log,
    configs,
    languageServer,
    serversView,
    vscode.window.registerTreeDataProvider('mgp.servers', serversView),
    ...registerCommands({ extension, configs, languageServer, log }),
    registerMoveSecretCommand(secrets, log),
  );
  void languageServer.start();
  log.info('MGP Kernel activated');
  return { version, config: () => configs.config, onDidChangeConfig: configs.onDidChange, languageServerState: () => languageServer.state };
}

export function deactivate(): void {
  // Everything is owned by the extension context's subscriptions.
}
