import * as vscode from 'vscode';
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  TransportKind,
} from 'vscode-languageclient/node';
import { CONFIG_BASENAMES, managedPolicyPath } from '@shared/configFiles';
import { KernelStateNotification, KernelStateParams } from '@shared/lspMessages';
import type { KernelConfig, McplHost, ServerManager } from '../../kernel';
import type { ConfigService } from './configService';

export type LanguageServerState = 'starting' | 'running' | 'stopped' | 'failed';

/** Starts the bundled language server (dist/server.js) for MGP and OpenFang config files. */
export class LanguageServerHost implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private readonly stateChanged = new vscode.EventEmitter<LanguageServerState>();
  readonly onDidChangeState = this.stateChanged.event;
  state: LanguageServerState = 'stopped';

  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly extension: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly configs: ConfigService,
    private readonly manager: ServerManager,
    private readonly mcpl: Pick<McplHost, 'list' | 'onChange'>,
  ) {}

  async start(): Promise<void> {
    const module = vscode.Uri.joinPath(this.extension.extensionUri, 'dist', 'server.js').fsPath;
    const serverOptions: ServerOptions = {
      run: { module, transport: TransportKind.ipc },
      debug: {
        module,
        transport: TransportKind.ipc,
        options: { execArgv: ['--nolazy', '--inspect=6019'] },
      },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        ...CONFIG_BASENAMES.map((name) => ({ language: 'toml', pattern: `**/${name}` })),
        // The managed policy, whatever MGP_MANAGED_POLICY names it.
        { scheme: 'file', pattern: managedPolicyPath(process.platform, process.env) },
      ],
    };
    this.client = new LanguageClient(
      'mgp.languageServer',
      'MGP Config Language Server',
      serverOptions,
      clientOptions,
    );
    this.client.onDidChangeState(({ newState }) => {
      this.setState(
        newState === State.Running
          ? 'running'
          : newState === State.Starting
            ? 'starting'
            : 'stopped',
      );
    });
    this.setState('starting');
    try {
      await this.client.start();
      const send = async () => this.sendKernelState(await this.configs.config);
      this.subscriptions.push(this.configs.onDidChange(() => void send()));
      this.manager.bus.on('transition', () => void send());
      this.manager.bus.on('listChanged', () => void send());
      const stopWatchingMcpl = this.mcpl.onChange(() => void send());
      this.subscriptions.push({ dispose: stopWatchingMcpl });
      await send();
    } catch (error) {
      this.setState('failed');
      this.log.error(
        `language server failed to start: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** The kernel's view the server cannot compute from one file: overridden servers, live states. */
  private async sendKernelState(config: KernelConfig): Promise<void> {
    const declaredSets = new Map(
      this.mcpl
        .list()
        .map((s) => [
          s.serverId,
          s.featureSets.map(({ name, description }) => ({ name, description })),
        ]),
    );
    const state: KernelStateParams = {
      servers: config.servers.map((server) => {
        const live = this.manager
          .list()
          .find((s) => s.id === server.id && s.config.source.file === server.source.file);
        return {
          id: server.id,
          file: server.source.file,
          state: live?.state ?? 'registered',
          error: live?.state === 'error' ? live.lastError : undefined,
          toolCount: live?.state === 'connected' ? live.tools.length : undefined,
          // The feature sets an MCPL server declared (MCPL §6.2), for completion and diagnostics.
          featureSets: live?.state === 'connected' ? declaredSets.get(server.id) : undefined,
        };
      }),
      shadowed: config.shadowed.map(({ server, winner }) => ({
        id: server.id,
        file: server.source.file,
        winnerFile: winner.source.file,
        winnerLine: winner.source.line,
      })),
    };
    await this.client?.sendNotification(KernelStateNotification, state);
  }

  private setState(state: LanguageServerState): void {
    this.state = state;
    this.stateChanged.fire(state);
  }

  async dispose(): Promise<void> {
    vscode.Disposable.from(...this.subscriptions).dispose();
    this.stateChanged.dispose();
    await this.client?.dispose();
  }
}
