import * as vscode from 'vscode';
import type { AuditTrail, Kernel, KernelConfig, ServerManager } from '../kernel';
import { registerChatParticipant } from './chat/chatParticipant';
import { registerEndpointChatProvider } from './languageModels/endpointChatProvider';
import { registerLanguageModelTools } from './languageModelTools/languageModelTools';
import { registerAddServer } from './configFiles/addServer';
import { registerChannels } from './channels/registerChannels';
import { registerCommands } from './configFiles/configCommands';
import { ConfigService, workspaceFolderPaths } from './host/configService';
import { EditorGateway } from './gateway/editorGateway';
import { registerVscodeMcpImport } from './configFiles/importVscodeMcp';
import { KernelHost } from './host/kernelHost';
import { LanguageServerHost, LanguageServerState } from './host/languageClient';
import { registerApprovals } from './approvals/registerApprovals';
import { registerAuditTrail } from './auditTrail/registerAuditTrail';
import { ModelKeys } from './languageModels/modelKey';
import { registerMoveSecretCommand, SecretStore } from './host/secrets';
import {
  chatEndpointFromSettings,
  onModelSettingsChange,
  watchModelSettings,
} from './languageModels/modelProviders';
import { registerServerCommands } from './servers/serverCommands';
import { registerServerContent } from './servers/content/serverContent';
import { registerSignInCommands } from './servers/serverSignIn';
import { registerSwitchCommands } from './servers/switchCommands';
import { registerServerDetail } from './serverDetail/serverDetailPanel';
import { ServerLogs } from './host/serverLogs';
import { EventsView } from './events/eventsView';
import { registerMcplViews } from './mcplViews';
import { registerTasksView } from './tasks/tasksView';
import { ServersView } from './servers/serversView';
import { registerResourceSubscriptions } from './servers/content/resourceSubscriptions';
import { serverIconsFor } from './host/serverIcons';
import { KernelStatusBar } from './servers/statusBar';
import { offerTrust } from './common/workspaceTrust';
import { registerRunTool } from './runTool/registerRunTool';
import { registerDiscovery } from './discovery/registerDiscovery';
import { registerStreams } from './streams/registerStreams';

/** What activate() returns: for other extensions and for the extension-host test suite. */
export interface MgpKernelApi {
  readonly version: string;
  config(): Promise<KernelConfig>;
  readonly onDidChangeConfig: vscode.Event<KernelConfig>;
  languageServerState(): LanguageServerState;
  /** The running kernel's servers (read their state, tools, resources, prompts). */
  readonly servers: Pick<ServerManager, 'list' | 'get' | 'tools' | 'bus'>;
  /** The kernel itself: calls through its pipeline, approvals, access, audit. */
  readonly kernel: Kernel;
  readonly auditTrail: AuditTrail;
  /** Resolves when the current config has been applied (servers started or failed). */
  settled(): Promise<void>;
}

export async function activate(extension: vscode.ExtensionContext): Promise<MgpKernelApi> {
  const log = vscode.window.createOutputChannel('MGP Kernel', { log: true });
  const version = extension.extension.packageJSON.version as string;
  log.info(
    `MGP Kernel ${version} activating (VS Code ${vscode.version}, Node ${process.versions.node}, workspace ${vscode.workspace.isTrusted ? 'trusted' : 'untrusted'})`,
  );

  const configs = new ConfigService(log);
  const secrets = new SecretStore(extension.secrets);
  const modelKeys = new ModelKeys(secrets);
  const serverLogs = new ServerLogs();
  const kernel = await KernelHost.create(
    extension,
    secrets,
    serverLogs,
    log,
    await configs.config.catch(() => undefined),
  );
  const languageServer = new LanguageServerHost(
    extension,
    log,
    configs,
    kernel.manager,
    kernel.kernel.mcpl,
  );
  const resourceSubscriptions = registerResourceSubscriptions(
    kernel.manager,
    extension.workspaceState,
  );
  const serverIcons = serverIconsFor(extension, log);
  const serversView = new ServersView(
    configs,
    kernel.manager,
    (server, tool) => kernel.kernel.securityOf(server, tool),
    (server) => kernel.holdOf(server),
    kernel.kernel.mcpl,
    kernel.kernel.switches,
    resourceSubscriptions.subscriptions,
    serverIcons,
  );
  const eventsView = new EventsView(kernel.kernel.events, kernel.kernel.mcpl.pushEvents);
  let applying: Promise<void> = Promise.resolve();
  const apply = (config: KernelConfig) => {
    applying = applying
      .then(() => kernel.apply(config))
      .catch((error: unknown) =>
        log.error(
          `applying the config failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    return applying;
  };
  const settled = async () => {
    await configs.config;
    await applying;
  };
  extension.subscriptions.push(
    log,
    configs,
    serverLogs,
    kernel,
    new EditorGateway(extension, kernel, workspaceFolderPaths()[0], settled, log),
    languageServer,
    serverIcons,
    serversView,
    ...resourceSubscriptions.disposables,
    new KernelStatusBar(kernel.manager, (server) => kernel.holdOf(server)),
    ...registerMcplViews(kernel.kernel.mcpl, serversView, eventsView),
    ...registerTasksView(kernel.kernel, extension.workspaceState),
    eventsView,
    eventsView.createView(),
    vscode.commands.registerCommand('mgp.clearEvents', () => eventsView.clear()),
    vscode.commands.registerCommand('mgp.allowWorkspaceServers', async () => {
      if (!vscode.workspace.isTrusted) return offerTrust();
      const waiting = kernel.unapproved((await configs.config).servers);
      if (waiting.length === 0)
        return void vscode.window.showInformationMessage(
          'Every workspace server is allowed to start.',
        );
      const picked = await vscode.window.showQuickPick(
        waiting.map((server) => ({
          label: server.id,
          description: server.transport,
          detail:
            server.transport === 'stdio' ? [server.command, ...server.args].join(' ') : server.url,
          server,
          picked: true,
        })),
        {
          canPickMany: true,
          title: 'Allow these workspace servers to start?',
          placeHolder: 'They run with your permissions: allow only servers you trust',
        },
      );
      if (!picked?.length) return;
      await kernel.approve(picked.map((item) => item.server));
      await apply(await configs.config);
    }),
    ...registerCommands({
      extension,
      configs,
      languageServer,
      log,
      servers: kernel.manager,
      // An explicit reload asks again about the servers declined in this window.
      reloadServers: () => {
        kernel.forgetDeclined();
        return configs.reload();
      },
    }),
    ...registerServerCommands(kernel.kernel, serverLogs, kernel),
    ...registerServerContent(kernel.kernel),
    ...registerSwitchCommands(kernel.kernel),
    ...registerServerDetail({ extension, kernel: kernel.kernel, configs, icons: serverIcons }),
    ...registerSignInCommands(kernel.manager, kernel.manager.bus, log),
    ...registerApprovals(kernel, extension),
    ...registerAuditTrail(kernel, extension),
    ...registerRunTool(kernel, extension),
    ...registerDiscovery(kernel, extension),
    ...registerStreams(kernel, extension),
    ...registerChannels(kernel.kernel, extension.extensionUri),
    ...registerLanguageModelTools(kernel.kernel, kernel.interaction),
    ...registerEndpointChatProvider(
      () => chatEndpointFromSettings(modelKeys),
      (listener) => onModelSettingsChange(secrets, listener),
    ),
    ...registerChatParticipant({
      kernel: kernel.kernel,
      interaction: kernel.interaction,
      extensionUri: extension.extensionUri,
    }),
    registerMoveSecretCommand(secrets, log),
    ...registerVscodeMcpImport({ configs, secrets, log }),
    registerAddServer({ configs, approve: (servers) => kernel.approve(servers), log }),
    watchModelSettings(
      kernel.kernel.models,
      kernel.kernel.discovery,
      modelKeys,
      log,
      kernel.stateDir,
    ),
    configs.onDidChange((config) => void apply(config)),
    vscode.workspace.onDidGrantWorkspaceTrust(async () => {
      log.info('the workspace is trusted now: starting the servers it held back');
      await apply(await configs.config);
    }),
  );
  void languageServer.start();
  void configs.config.then(apply);
  log.info('MGP Kernel activated');
  return {
    version,
    config: () => configs.config,
    onDidChangeConfig: configs.onDidChange,
    languageServerState: () => languageServer.state,
    servers: kernel.manager,
    kernel: kernel.kernel,
    auditTrail: kernel.trail,
    settled,
  };
}

export function deactivate(): void {
  // Everything is owned by the extension context's subscriptions.
}
