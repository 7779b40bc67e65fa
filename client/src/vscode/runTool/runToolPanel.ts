import * as vscode from 'vscode';
import { openResourceDocument } from '../servers/content/contentCommands';
import type { RunToolToWebview, ToolChoiceView, ToolKey } from '@shared/toolPanelMessages';
import { isRunToolFromWebview } from '@shared/toolPanelMessages';
import type { EditorHost } from '../host/editorHost';
import { runToolAsTask } from '../tasks/tasksView';
import { poster, toolPanelHtml, toolPanelOptions } from '../common/panelShell';
import { RunHistory } from './runHistory';
import { findTool, ToolRuns, viewOf, type EndedRun } from './toolRuns';

/**
 * "Run Tool": one panel, a workbench for every tool. A picker chooses the tool; the panel shows its
 * description (from the server, untrusted), its effective security with sources, a form generated
 * from its inputSchema, Run (or Stream), the result with its raw exchange and trace, and the tool's
 * past runs (kept in the workspace's storage). Follows the servers: when one reconnects or its tools
 * change, the picker and the tool shown are as now listed.
 */
export class RunToolPanel implements vscode.Disposable {
  static readonly viewType = 'mgp.runTool';
  private static current: RunToolPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly runs: ToolRuns;
  private readonly history: RunHistory;
  private readonly post: (message: RunToolToWebview) => void;
  private disposed = false;
  private scheduled = false;

  static show(extension: vscode.ExtensionContext, host: EditorHost, key: ToolKey): RunToolPanel {
    const existing = RunToolPanel.current;
    if (existing) {
      existing.select(key);
      existing.panel.reveal();
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      RunToolPanel.viewType,
      titleOf(key),
      vscode.ViewColumn.Active,
      toolPanelOptions(extension.extensionUri),
    );
    RunToolPanel.current = new RunToolPanel(panel, extension, host, key);
    return RunToolPanel.current;
  }

  /**
   * Keeps a run made elsewhere (Tool Discovery's "Try it") in the tool's history, so a tool has one
   * history whichever panel ran it; an open Run Tool panel shows it at once.
   */
  static async remember(extension: vscode.ExtensionContext, run: EndedRun): Promise<void> {
    const open = RunToolPanel.current;
    if (open) return open.remember(run);
    await addToHistory(new RunHistory(extension.workspaceState), run);
  }

  static disposeAll(): void {
    RunToolPanel.current?.dispose();
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    extension: vscode.ExtensionContext,
    private readonly host: EditorHost,
    private key: ToolKey,
  ) {
    panel.iconPath = vscode.Uri.joinPath(extension.extensionUri, 'media', 'icon.png');
    panel.webview.html = toolPanelHtml(
      panel.webview,
      extension.extensionUri,
      { title: panel.title, script: 'dist/runTool.js', stylesheet: 'runTool.css' },
      { dataImages: true },
    );
    this.post = poster(panel, () => this.disposed);
    this.history = new RunHistory(extension.workspaceState);
    this.runs = new ToolRuns({
      kernel: host.kernel,
      post: (message) => this.post(message),
      images: true,
      showStreams: (streamId) =>
        void vscode.commands.executeCommand('mgp.showStreams', { streamId }),
      showAudit: (traceId) =>
        void vscode.commands.executeCommand('mgp.showAuditTrail', { traceId }),
      copy: (text) => Promise.resolve(vscode.env.clipboard.writeText(text)),
      openResource: (serverId, link) => void openResourceDocument(serverId, link),
      onEnded: (run) => void this.remember(run),
      runAsTask: (request) => runToolAsTask(host.kernel.tasks, request),
    });
    const bus = host.kernel.manager.bus;
    const follow = () => this.schedule();
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
    switch (message.type) {
      case 'ready':
        this.postAll();
        return;
      case 'select':
        this.select(message);
        return;
      case 'clearHistory':
        void this.history.clear(message).then(() => this.postHistory(message));
        return;
      default:
        this.runs.handle(message);
    }
  }

  private select(key: ToolKey): void {
    this.key = { serverId: key.serverId, toolName: key.toolName };
    this.panel.title = titleOf(this.key);
    this.postAll();
  }

  private async remember(run: EndedRun): Promise<void> {
    const { key, entries } = await addToHistory(this.history, run);
    this.post({ type: 'history', ...key, entries });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      this.postAll();
    }, 0);
  }

  private postAll(): void {
    this.post({ type: 'tools', tools: this.choices(), selected: this.key });
    this.postTool();
    this.postHistory(this.key);
  }

  private postHistory(key: ToolKey): void {
    this.post({ type: 'history', ...key, entries: this.history.list(key) });
  }

  private choices(): ToolChoiceView[] {
    return this.host.kernel.tools().map((t) => ({
      serverId: t.serverId,
      toolName: t.name,
      ...(t.tool.title ? { title: t.tool.title } : {}),
      risk: t.security.risk_level,
      kernel: t.kernel,
    }));
  }

  private postTool(): void {
    const kernel = this.host.kernel;
    const entry = findTool(kernel, this.key);
    if (entry) {
      this.post({ type: 'tool', tool: viewOf(kernel, entry) });
      return;
    }
    const { serverId, toolName } = this.key;
    const server = kernel.manager.find(serverId);
    const reason = !server
      ? `no server "${serverId}" is configured`
      : server.state !== 'connected'
        ? `server "${serverId}" is ${server.state}`
        : `server "${serverId}" no longer lists ${toolName}`;
    this.post({ type: 'toolGone', key: this.key, reason });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (RunToolPanel.current === this) RunToolPanel.current = undefined;
    this.runs.dispose();
    vscode.Disposable.from(...this.disposables).dispose();
    this.panel.dispose();
  }
}

/** The tab's title names the tool shown (the webview's document title follows it). */
function titleOf(key: ToolKey): string {
  return `Run ${key.serverId} · ${key.toolName}`;
}

async function addToHistory(history: RunHistory, run: EndedRun) {
  const { serverId, toolName, ...entry } = run;
  const key = { serverId, toolName };
  return { key, entries: await history.add(key, { id: `${run.at}-${run.traceId}`, ...entry }) };
}
