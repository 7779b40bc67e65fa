import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions, State, TransportKind } from 'vscode-languageclient/node';
import { CONFIG_BASENAMES } from '../../../shared/src/configFiles';

export type LanguageServerState = 'starting' | 'running' | 'stopped' | 'failed';

/** Starts the bundled language server (dist/server.js) for MGP and OpenFang config files. */
export class LanguageServerHost implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private readonly stateChanged = new vscode.EventEmitter<LanguageServerState>();
  readonly onDidChangeState = this.stateChanged.event;
  state: LanguageServerState = 'stopped';

  constructor(private readonly extension: vscode.ExtensionContext, private readonly log: vscode.LogOutputChannel) {}

  async start(): Promise<void> {
    const module = vscode.Uri.joinPath(this.extension.extensionUri, 'dist', 'server.js').fsPath;
    const serverOptions: ServerOptions = {
      run: { module, transport: TransportKind.ipc },
      debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: CONFIG_BASENAMES.map((name) => ({ language: 'toml', pattern: `**/${name}` })),
    };
    this.client = new LanguageClient('mgp.languageServer', 'MGP Config Language Server', serverOptions, clientOptions);
    this.client.onDidChangeState(({ newState }) => {
      this.setState(newState === State.Running ? 'running' : newState === State.Starting ? 'starting' : 'stopped');
    });
    this.setState('starting');
    try {
      await this.client.start();
    } catch (error) {
      this.setState('failed');
      this.log.error(`language server failed to start: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private setState(state: LanguageServerState): void {
    this.state = state;
    this.stateChanged.fire(state);
  }

  async dispose(): Promise<void> {
    this.stateChanged.dispose();
    await this.client?.dispose();
  }
}
