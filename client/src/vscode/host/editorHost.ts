import * as vscode from 'vscode';
import type {
  AnchorKeyStore,
  AuditShipper,
  AuditTrail,
  Kernel,
  KernelConfig,
  LifecycleTransition,
} from '../../kernel';
import type { EditorInteraction } from '../interaction/editorInteraction';
import { ConfigService } from './configService';
import { type EditorKernel, followServers, openEditorKernel } from './kernelHost';
import { LanguageServerHost } from './languageClient';
import { SecretStore } from './secrets';
import { ServerIcons, serverIconsFor } from './serverIcons';
import { ServerLogs } from './serverLogs';
import type { StartGate } from './startGate';

/** What each part of the shell registers: its commands, views and panels (registrations.ts). */
export type Registration = (
  context: vscode.ExtensionContext,
  host: EditorHost,
) => vscode.Disposable[];

/**
 * The window's kernel and what every part of the editor shell shares: the config files, secret
 * storage, the servers' output channels and icons, the language server, and the kernel with its audit
 * trail, its way of asking and the start gate for workspace servers. It applies the config: now, when
 * the files change, and when the workspace is trusted.
 */
export class EditorHost implements vscode.Disposable {
  readonly kernel: Kernel;
  readonly trail: AuditTrail;
  readonly interaction: EditorInteraction;
  readonly stateDir: string;
  readonly anchorKeys: AnchorKeyStore;
  readonly gate: StartGate;
  /** Ships the audit trail to the team's database, when one is configured. */
  readonly shipper: AuditShipper | undefined;
  private readonly disposables: vscode.Disposable[];
  private applying: Promise<void> = Promise.resolve();

  private constructor(
    readonly log: vscode.LogOutputChannel,
    readonly configs: ConfigService,
    readonly secrets: SecretStore,
    readonly serverLogs: ServerLogs,
    readonly icons: ServerIcons,
    readonly languageServer: LanguageServerHost,
    opened: EditorKernel,
  ) {
    this.kernel = opened.kernel;
    this.trail = opened.trail;
    this.interaction = opened.interaction;
    this.stateDir = opened.stateDir;
    this.anchorKeys = opened.anchorKeys;
    this.gate = opened.gate;
    this.shipper = opened.shipper;
    this.disposables = [log, configs, serverLogs, followServers(this.kernel, serverLogs)];
  }

  static async open(extension: vscode.ExtensionContext): Promise<EditorHost> {
    const log = vscode.window.createOutputChannel('MGP Kernel', { log: true });
    log.info(
      `MGP Kernel ${extension.extension.packageJSON.version as string} activating (VS Code ${vscode.version}, Node ${process.versions.node}, workspace ${vscode.workspace.isTrusted ? 'trusted' : 'untrusted'})`,
    );
    const configs = new ConfigService(log);
    const secrets = new SecretStore(extension.secrets);
    const serverLogs = new ServerLogs();
    const config = await configs.config.catch(() => undefined);
    const opened = await openEditorKernel(extension, secrets, serverLogs, log, config);
    const { manager, mcpl } = opened.kernel;
    const languageServer = new LanguageServerHost(extension, log, configs, manager, mcpl);
    const icons = serverIconsFor(extension, log);
    return new EditorHost(log, configs, secrets, serverLogs, icons, languageServer, opened);
  }

  /** Starts the language server and applies the config, and again whenever it may start more. */
  start(): void {
    this.disposables.push(
      this.configs.onDidChange((config) => void this.apply(config)),
      vscode.workspace.onDidGrantWorkspaceTrust(async () => {
        this.log.info('the workspace is trusted now: starting the servers it held back');
        await this.apply(await this.configs.config);
      }),
    );
    void this.languageServer.start();
    void this.configs.config.then((config) => this.apply(config));
  }

  /** Applies a config after the one before: asks for approvals, then starts, stops and restarts servers. */
  apply(config: KernelConfig): Promise<void> {
    this.applying = this.applying
      .then(() => this.applyNow(config))
      .catch((error: unknown) =>
        this.log.error(
          `applying the config failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    return this.applying;
  }

  /** Resolves when the current config has been applied (servers started or failed). */
  async settled(): Promise<void> {
    await this.configs.config;
    await this.applying;
  }

  private async applyNow(config: KernelConfig): Promise<void> {
    await this.gate.askApprovals(config);
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'MGP: starting servers' },
      async (progress) => {
        const subscription = (t: LifecycleTransition) =>
          t.new_state === 'connecting' && progress.report({ message: t.server_id });
        this.kernel.manager.bus.on('transition', subscription);
        try {
          await this.kernel.apply(config);
        } finally {
          this.kernel.manager.bus.off('transition', subscription);
        }
      },
    );
  }

  dispose(): void {
    vscode.Disposable.from(...this.disposables, this.gate).dispose();
    void this.kernel
      .dispose()
      .then(() => this.shipper?.close())
      .then(() => this.trail.close());
    this.languageServer.dispose();
    this.icons.dispose();
  }
}
