import * as vscode from 'vscode';
import {
  isServerDetailFromWebview,
  type ServerAction,
  type ServerDetailFromWebview,
  type ServerDetailToWebview,
  type ServerDetailView,
} from '@shared/serverDetailMessages';
import { type ConfiguredServer, displayPath, type Kernel } from '../../kernel';
import type { ConfigService } from '../host/configService';
import { serverDetailView } from './serverDetailView';
import type { ServerIcons } from '../host/serverIcons';
import { pickServerId } from '../servers/serverTarget';
import { ValidationRuns } from '../validate/validationRuns';
import { badgeText } from '../validate/validationViews';
import { OpenPanels, WebviewPanel } from '../common/webviewPanel';
import type { EditorHost } from '../host/editorHost';

export interface ServerDetailDeps {
  extension: vscode.ExtensionContext;
  kernel: Kernel;
  configs: ConfigService;
  /** Server icons (MCP 2025-11-25 serverInfo.icons); the page shows none without. */
  icons?: ServerIcons;
}

/** The commands the page's buttons run, with the server's id: the same as the Servers view's. */
const ACTION_COMMANDS: Record<Exclude<ServerAction, 'openConfig'>, string> = {
  start: 'mgp.startServer',
  stop: 'mgp.stopServer',
  restart: 'mgp.restartServer',
  showLog: 'mgp.showServerLog',
  validate: 'mgp.validateServer',
  showValidation: 'mgp.showValidationReport',
};

/**
 * "Server Details": one panel per server with what it is, what it said and negotiated, what it may do
 * and its tools with their switches. It follows the server: a state change, a new tool list, a switch
 * or a permission decision shows at once. The switches go through the same commands as the Servers
 * view's, so they are kept, audited and announced the same way.
 */
export class ServerDetailPanel extends WebviewPanel<
  ServerDetailToWebview,
  ServerDetailFromWebview
> {
  static readonly viewType = 'mgp.serverDetail';
  private static readonly open = new OpenPanels<ServerDetailPanel>();
  private readonly scheduleRefresh = this.coalesce(50, () => void this.refresh());
  private readonly validations: ValidationRuns;

  static show(deps: ServerDetailDeps, serverId: string): ServerDetailPanel {
    return ServerDetailPanel.open.show(serverId, () => new ServerDetailPanel(deps, serverId));
  }

  static disposeAll(): void {
    ServerDetailPanel.open.disposeAll();
  }

  private constructor(
    private readonly deps: ServerDetailDeps,
    private readonly serverId: string,
  ) {
    super(
      deps.extension.extensionUri,
      { viewType: ServerDetailPanel.viewType, title: `Server: ${serverId}` },
      {
        title: `Server: ${serverId}`,
        script: 'dist/serverDetail.js',
        stylesheet: 'serverDetail.css',
        dataImages: true,
      },
      isServerDetailFromWebview,
    );
    const { kernel, configs } = deps;
    const refresh = () => this.scheduleRefresh();
    const bus = kernel.manager.bus;
    bus.on('transition', refresh).on('listChanged', refresh).on('servers', refresh);
    this.validations = ValidationRuns.of(kernel, deps.extension.workspaceState);
    this.disposables.push(this.validations.onDidChange((id) => id === serverId && refresh()));
    const offs = [
      kernel.switches.onChange(refresh),
      kernel.mcpl.onChange(refresh),
      kernel.permissions.onDidChange(refresh),
    ];
    this.disposables.push(
      configs.onDidChange(refresh),
      ...(deps.icons ? [deps.icons.onDidChange(refresh)] : []),
      {
        dispose: () => {
          bus.off('transition', refresh).off('listChanged', refresh).off('servers', refresh);
          offs.forEach((off) => off());
        },
      },
    );
  }

  protected async receive(message: ServerDetailFromWebview): Promise<void> {
    const id = this.serverId;
    switch (message.type) {
      case 'ready':
        return this.refresh();
      case 'setTool':
        await vscode.commands.executeCommand(
          message.enabled ? 'mgp.enableTool' : 'mgp.disableTool',
          { serverId: id, toolName: message.toolName },
        );
        return;
      case 'setServer':
        await vscode.commands.executeCommand(
          message.enabled ? 'mgp.enableServer' : 'mgp.disableServer',
          id,
        );
        return;
      case 'action': {
        if (message.action !== 'openConfig')
          return void vscode.commands.executeCommand(ACTION_COMMANDS[message.action], id);
        const server = await this.configured();
        if (server)
          await vscode.commands.executeCommand(
            'mgp.openConfig',
            vscode.Uri.file(server.source.file),
            server.source.line,
          );
        return;
      }
    }
  }

  /** The server as configured now: from the config files, or registered at run time (MGP §15.4). */
  private async configured(): Promise<ConfiguredServer | undefined> {
    const config = await this.deps.configs.config;
    return (
      config.servers.find((s) => s.id === this.serverId) ??
      this.deps.kernel.manager.find(this.serverId)?.config
    );
  }

  private validation(): ServerDetailView['validation'] {
    const running = this.validations.isRunning(this.serverId);
    const last = this.validations.last(this.serverId);
    if (!last) return running ? { badge: 'validating…', failed: 0, running } : undefined;
    const failed = last.checks.filter((check) => check.status === 'fail').length;
    return { badge: badgeText(last), at: last.startedAt, failed, running };
  }

  private async refresh(): Promise<void> {
    const { kernel, configs } = this.deps;
    const server = await this.configured();
    if (this.isDisposed) return;
    if (!server) return this.post({ type: 'gone', serverId: this.serverId });
    const live = kernel.manager.find(this.serverId);
    const detail = serverDetailView({
      config: server,
      live,
      declaredIn:
        server.origin === 'runtime'
          ? 'registered at run time'
          : `${displayPath(server.source.file, configs.pathContext())}:${server.source.line}`,
      serverOff: kernel.switches.serverOff(this.serverId),
      toolOff: (name) => kernel.switches.toolOff(this.serverId, name),
      securityOf: (server, tool) => kernel.securityOf(server, tool),
      mgp: kernel.mgp.of(this.serverId),
      featureSets: kernel.mcpl.server(this.serverId)?.table.list(),
      permissionState: (name) => kernel.permissions.state(this.serverId, name),
      decisions: kernel.permissions.decisions(),
      icon:
        live?.state === 'connected'
          ? this.deps.icons?.dataUris(live.liveConnection?.serverInfo?.icons)
          : undefined,
    });
    detail.validation = this.validation();
    this.panel.title = `Server: ${this.serverId}`;
    this.post({ type: 'detail', detail });
  }
}

/** Server Details: one panel per server, and its command. */
export function registerServerDetail(
  extension: vscode.ExtensionContext,
  host: EditorHost,
): vscode.Disposable[] {
  const deps: ServerDetailDeps = {
    extension,
    kernel: host.kernel,
    configs: host.configs,
    icons: host.icons,
  };
  return [
    vscode.commands.registerCommand('mgp.showServerDetail', async (target?: unknown) => {
      const id = await pickServerId(deps.kernel.manager, target, 'Server whose details to show');
      if (id) ServerDetailPanel.show(deps, id);
    }),
    { dispose: () => ServerDetailPanel.disposeAll() },
  ];
}
