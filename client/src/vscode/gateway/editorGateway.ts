/**
 * The editor's kernel served to MCP clients: a local socket that `mgp serve` on the same folder
 * attaches to (approvals asked here, one audit log), and "MGP Kernel" in VS Code's own MCP servers
 * (MCP: List Servers), which runs `mgp serve` and so attaches the same way. Both wait for Workspace
 * Trust: a restricted workspace serves nothing.
 */
import * as vscode from 'vscode';
import { EditorEndpoint, Gateway, type GatewayMode, KernelMetrics } from '../../kernel';
import { workspaceFolderPaths } from '../host/configService';
import type { EditorHost } from '../host/editorHost';
import { EditorA2a } from './editorA2a';

export const MCP_PROVIDER_ID = 'mgp.gateway';

/** The editor's end of the gateway. */
export function registerGateway(
  extension: vscode.ExtensionContext,
  host: EditorHost,
): vscode.Disposable[] {
  const folder = workspaceFolderPaths()[0];
  return [
    new EditorGateway(extension, host, folder, () => host.settled(), host.log),
    new EditorA2a(host),
  ];
}

export class EditorGateway implements vscode.Disposable {
  private readonly gateways = new Map<string, Gateway>();
  private endpoint: Promise<EditorEndpoint | undefined> | undefined;
  private kernelMetrics: KernelMetrics | undefined;
  private readonly definitionsChanged = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [this.definitionsChanged];

  constructor(
    private readonly extension: vscode.ExtensionContext,
    private readonly host: EditorHost,
    private readonly folder: string | undefined,
    private readonly settled: () => Promise<void>,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
        onDidChangeMcpServerDefinitions: this.definitionsChanged.event,
        provideMcpServerDefinitions: () => this.definitions(),
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.listen();
        this.definitionsChanged.fire();
      }),
      vscode.workspace.onDidChangeConfiguration((change) => {
        if (change.affectsConfiguration('mgp.metrics.enabled')) this.metrics();
      }),
    );
    this.metrics();
    this.listen();
  }

  /** The socket `mgp serve` attaches to (undefined until trusted, or without a folder). */
  get localEndpoint(): Promise<EditorEndpoint | undefined> {
    return this.endpoint ?? Promise.resolve(undefined);
  }

  private listen(): void {
    if (this.endpoint || !this.folder || !vscode.workspace.isTrusted) return;
    this.endpoint = EditorEndpoint.listen({
      stateDir: this.host.stateDir,
      folder: this.folder,
      env: process.env,
      connect: async (transport, mode) => void (await this.gateway(mode).connect(transport)),
      metrics: () => this.metrics()?.text(),
      onProblem: (message) => this.log.warn(`gateway: ${message}`),
    }).then(
      (endpoint) => {
        this.log.info(`mgp serve on this folder attaches to this window (${endpoint.socket})`);
        return endpoint;
      },
      (error: unknown) => {
        this.log.error(
          `gateway: no local socket for mgp serve: ${error instanceof Error ? error.message : String(error)}`,
        );
        return undefined;
      },
    );
  }

  /**
   * The kernel's metrics while the person has `mgp.metrics.enabled` on in their own settings (a
   * workspace cannot turn it on); counted from when it was turned on.
   */
  private metrics(): KernelMetrics | undefined {
    const enabled =
      vscode.workspace.getConfiguration('mgp').inspect<boolean>('metrics.enabled')?.globalValue ===
      true;
    if (!enabled) {
      this.kernelMetrics?.dispose();
      this.kernelMetrics = undefined;
      return undefined;
    }
    this.kernelMetrics ??= new KernelMetrics({
      onRecord: (listener) => this.host.trail.onRecord(listener),
      manager: this.host.kernel.manager,
    });
    return this.kernelMetrics;
  }

  private gateway(mode: GatewayMode): Gateway {
    const key = `${mode.expose}/${mode.names ?? 'per client'}`;
    let gateway = this.gateways.get(key);
    if (!gateway) {
      gateway = new Gateway(this.host.kernel, { ...mode, ready: this.settled() });
      this.gateways.set(key, gateway);
    }
    return gateway;
  }

  /** VS Code's MCP client runs `mgp serve` on the folder, which attaches to this window's kernel. */
  private definitions(): vscode.McpServerDefinition[] {
    if (!this.folder || !vscode.workspace.isTrusted) return [];
    const cli = this.extension.asAbsolutePath('dist/cli.js');
    const definition = new vscode.McpStdioServerDefinition(
      'MGP Kernel',
      process.execPath,
      [cli, 'serve', '--cwd', this.folder],
      // In the desktop editor process.execPath is Electron: this makes it run as Node.
      { ELECTRON_RUN_AS_NODE: '1' },
      this.extension.extension.packageJSON.version as string,
    );
    definition.cwd = vscode.Uri.file(this.folder);
    return [definition];
  }

  dispose(): void {
    vscode.Disposable.from(...this.disposables).dispose();
    this.kernelMetrics?.dispose();
    void this.endpoint?.then((endpoint) => endpoint?.close());
    for (const gateway of this.gateways.values()) void gateway.close();
  }
}
