import { homedir } from 'node:os';
import * as vscode from 'vscode';
import {
  AboutToWebview,
  isAboutFromWebview,
  KernelStatus,
  ServerInstructions,
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
import { webviewHtml, webviewOptions } from '../common/webviewHtml';

/** "About MGP Kernel": version, workspace trust, the config files found and their servers. */
export class AboutPanel implements vscode.Disposable {
  static readonly viewType = 'mgp.about';
  private static current: AboutPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  static show(
    extension: vscode.ExtensionContext,
    configs: ConfigService,
    languageServer: LanguageServerHost,
    servers?: Pick<ServerManager, 'list' | 'bus'>,
  ): AboutPanel {
    if (AboutPanel.current) {
      AboutPanel.current.panel.reveal();
      return AboutPanel.current;
    }
    const panel = vscode.window.createWebviewPanel(
      AboutPanel.viewType,
      'About MGP Kernel',
      vscode.ViewColumn.Active,
      webviewOptions(extension.extensionUri),
    );
    AboutPanel.current = new AboutPanel(panel, extension, configs, languageServer, servers);
    return AboutPanel.current;
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly extension: vscode.ExtensionContext,
    private readonly configs: ConfigService,
    private readonly languageServer: LanguageServerHost,
    private readonly servers?: Pick<ServerManager, 'list' | 'bus'>,
  ) {
    panel.iconPath = vscode.Uri.joinPath(extension.extensionUri, 'media', 'icon.png');
    panel.webview.html = webviewHtml(panel.webview, extension.extensionUri, {
      title: 'About MGP Kernel',
      script: 'dist/about.js',
      stylesheet: 'about.css',
    });
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
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

  private async receive(message: unknown): Promise<void> {
    if (!isAboutFromWebview(message)) return;
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
    const message: AboutToWebview = { type: 'status', status: await this.status() };
    await this.panel.webview.postMessage(message);
  }

  dispose(): void {
    if (AboutPanel.current !== this) return;
    AboutPanel.current = undefined;
    vscode.Disposable.from(...this.disposables).dispose();
    this.panel.dispose();
  }
}
