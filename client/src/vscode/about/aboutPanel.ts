import { homedir } from 'node:os';
import * as vscode from 'vscode';
import {
  type AboutFromWebview,
  type AboutToWebview,
  isAboutFromWebview,
  type KernelStatus,
  type ServerInstructions,
} from '@shared/aboutMessages';
import {
  boundedInstructions,
  displayPath,
  type ServerManager,
  summarizeConfigFiles,
  summarizeServers,
} from '../../kernel';
import type { ConfigService } from '../host/configService';
import type { LanguageServerHost } from '../host/languageClient';
import { OpenPanels, WebviewPanel } from '../common/webviewPanel';

/** "About MGP Kernel": version, workspace trust, the config files found and their servers. */
export class AboutPanel extends WebviewPanel<AboutToWebview, AboutFromWebview> {
  static readonly viewType = 'mgp.about';
  private static readonly open = new OpenPanels<AboutPanel>();

  static show(
    extension: vscode.ExtensionContext,
    configs: ConfigService,
    languageServer: LanguageServerHost,
    servers?: Pick<ServerManager, 'list' | 'bus'>,
  ): AboutPanel {
    return AboutPanel.open.show(
      '',
      () => new AboutPanel(extension, configs, languageServer, servers),
    );
  }

  private constructor(
    private readonly extension: vscode.ExtensionContext,
    private readonly configs: ConfigService,
    private readonly languageServer: LanguageServerHost,
    private readonly servers?: Pick<ServerManager, 'list' | 'bus'>,
  ) {
    super(
      extension.extensionUri,
      { viewType: AboutPanel.viewType, title: 'About MGP Kernel' },
      { title: 'About MGP Kernel', script: 'dist/about.js', stylesheet: 'about.css' },
      isAboutFromWebview,
    );
    this.disposables.push(
      configs.onDidChange(() => this.postStatus()),
      languageServer.onDidChangeState(() => this.postStatus()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.postStatus()),
    );
    if (servers) {
      // A server's instructions come and go with its connection.
      const post = () => void this.postStatus();
      servers.bus.on('transition', post);
      this.disposables.push({ dispose: () => servers.bus.off('transition', post) });
    }
  }

  /** Each connected server's instructions, bounded as the agent gets them (serverInstructions.ts). */
  private instructions(): ServerInstructions[] {
    return (this.servers?.list() ?? []).flatMap((server) => {
      const text = server.state === 'connected' ? server.instructions?.trim() : undefined;
      return text ? [{ serverId: server.id, text: boundedInstructions(text) }] : [];
    });
  }

  protected async receive(message: AboutFromWebview): Promise<void> {
    switch (message.type) {
      case 'ready':
        return this.postStatus();
      case 'refresh':
        await this.configs.reload();
        return;
      case 'showLog':
        await vscode.commands.executeCommand('mgp.showLog');
        return;
      case 'openConfig': {
        const config = await this.configs.config;
        const file = config.files.find(
          (f) => displayPath(f.location.path, this.configs.pathContext()) === message.displayPath,
        );
        if (file)
          await vscode.commands.executeCommand(
            'mgp.openConfig',
            vscode.Uri.file(file.location.path),
            1,
          );
        return;
      }
    }
  }

  private async status(): Promise<KernelStatus> {
    const config = await this.configs.config;
    const paths = this.configs.pathContext();
    return {
      version: this.extension.extension.packageJSON.version as string,
      vscodeVersion: vscode.version,
      extensionHostNode: process.versions.node,
      workspaceTrusted: vscode.workspace.isTrusted,
      languageServer: this.languageServer.state,
      configFiles: summarizeConfigFiles(config, paths),
      servers: summarizeServers(config, { ...paths, home: homedir() }),
      instructions: this.instructions(),
    };
  }

  private async postStatus(): Promise<void> {
    this.post({ type: 'status', status: await this.status() });
  }
}
