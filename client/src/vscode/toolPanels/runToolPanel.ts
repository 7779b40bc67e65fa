import * as vscode from 'vscode';
import type { RunToolToWebview, ToolKey } from '@shared/toolPanelMessages';
import { isRunToolFromWebview } from '@shared/toolPanelMessages';
import type { KernelHost } from '../kernelHost';
import { poster, toolPanelHtml, toolPanelOptions } from './panelShell';
import { findTool, ToolRuns, viewOf } from './toolRuns';

/**
 * "Run Tool": one panel per tool. The tool's description (from the server, untrusted), its effective
 * security with sources, a form generated from its inputSchema, Run (or Stream), and the result. Follows
 * the server: when it reconnects or its tools change, the panel shows the tool as now listed.
 */
export class RunToolPanel implements vscode.Disposable {
  static readonly viewType = 'mgp.runTool';
  private static readonly open = new Map<string, RunToolPanel>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly runs: ToolRuns;
  private readonly post: (message: RunToolToWebview) => void;
  private disposed = false;
  private scheduled = false;

  static show(extension: vscode.ExtensionContext, host: KernelHost, key: ToolKey): RunToolPanel {
    const id = `${key.serverId}\u0000${key.toolName}`;
    const existing = RunToolPanel.open.get(id);
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    const title = `Run ${key.serverId} · ${key.toolName}`;
    const panel = vscode.window.createWebviewPanel(
      RunToolPanel.viewType,
      title,
      vscode.ViewColumn.Active,
      toolPanelOptions(extension.extensionUri),
    );
    const created = new RunToolPanel(panel, extension, host, key, id);
    RunToolPanel.open.set(id, created);
    return created;
  }

  static disposeAll(): void {
    for (const panel of [...RunToolPanel.open.values()]) panel.dispose();
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    extension: vscode.ExtensionContext,
    private readonly host: KernelHost,
    private readonly key: ToolKey,
    private readonly id: string,
  ) {
    panel.iconPath = vscode.Uri.joinPath(extension.extensionUri, 'media', 'icon.png');
    panel.webview.html = toolPanelHtml(
      panel.webview,
      extension.extensionUri,
      { title: panel.title, script: 'dist/runTool.js', stylesheet: 'runTool.css' },
      { dataImages: true },
    );
    this.post = poster(panel, () => this.disposed);
    this.runs = new ToolRuns({
      kernel: host.kernel,
      post: (message) => this.post(message),
      images: true,
      showStreams: (streamId) =>
        void vscode.commands.executeCommand('mgp.showStreams', { streamId }),
    });
    const bus = host.kernel.manager.bus;
    const follow = ({ server_id }: { server_id: string }) =>
      server_id === key.serverId && this.schedule();
    bus.on('transition', follow);
    bus.on('listChanged', follow);
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
      { dispose: () => (bus.off('transition', follow), bus.off('listChanged', follow)) },
    );
  }

  private receive(message: unknown): void {
    if (!isRunToolFromWebview(message)) return;
    if (message.type === 'ready') this.postTool();
    else this.runs.handle(message);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      this.postTool();
    }, 0);
  }

  private postTool(): void {
    const kernel = this.host.kernel;
    const entry = findTool(kernel, this.key);
    if (entry) {
      this.post({ type: 'tool', tool: viewOf(kernel, entry) });
      return;
    }
    const server = kernel.manager.find(this.key.serverId);
    const reason = !server
      ? `no server "${this.key.serverId}" is configured`
      : server.state !== 'connected'
        ? `server "${this.key.serverId}" is ${server.state}`
        : `server "${this.key.serverId}" no longer lists ${this.key.toolName}`;
    this.post({ type: 'toolGone', reason });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    RunToolPanel.open.delete(this.id);
    this.runs.dispose();
    vscode.Disposable.from(...this.disposables).dispose();
    this.panel.dispose();
  }
}
