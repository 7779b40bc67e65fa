import * as vscode from 'vscode';
import { openResourceDocument } from '../servers/content/contentCommands';
import type {
  RunToolFromWebview,
  RunToolToWebview,
  ToolChoiceView,
  ToolKey,
} from '@shared/toolPanelMessages';
import { isRunToolFromWebview } from '@shared/toolPanelMessages';
import type { EditorHost } from '../host/editorHost';
import { runToolAsTask } from '../tasks/tasksView';
import { OpenPanels, WebviewPanel } from '../common/webviewPanel';
import { RunHistory } from './runHistory';
import { findTool, ToolRuns, viewOf, type EndedRun } from './toolRuns';

/**
 * "Run Tool": one panel, a workbench for every tool. A picker chooses the tool; the panel shows its
 * description (from the server, untrusted), its effective security with sources, a form generated
 * from its inputSchema, Run (or Stream), the result with its raw exchange and trace, and the tool's
 * past runs (kept in the workspace's storage). Follows the servers: when one reconnects or its tools
 * change, the picker and the tool shown are as now listed.
 */
export class RunToolPanel extends WebviewPanel<RunToolToWebview, RunToolFromWebview> {
  static readonly viewType = 'mgp.runTool';
  private static readonly open = new OpenPanels<RunToolPanel>();
  private readonly runs: ToolRuns;
  private readonly history: RunHistory;
  private readonly schedule = this.coalesce(0, () => this.postAll());

  static show(extension: vscode.ExtensionContext, host: EditorHost, key: ToolKey): RunToolPanel {
    return RunToolPanel.open.show(
      '',
      () => new RunToolPanel(extension, host, key),
      (existing) => {
        existing.select(key);
        existing.reveal();
      },
    );
  }

  /**
   * Keeps a run made elsewhere (Tool Discovery's "Try it") in the tool's history, so a tool has one
   * history whichever panel ran it; an open Run Tool panel shows it at once.
   */
  static async remember(extension: vscode.ExtensionContext, run: EndedRun): Promise<void> {
    const open = RunToolPanel.open.get('');
    if (open) return open.remember(run);
    await addToHistory(new RunHistory(extension.workspaceState), run);
  }

  static disposeAll(): void {
    RunToolPanel.open.disposeAll();
  }

  private constructor(
    extension: vscode.ExtensionContext,
    private readonly host: EditorHost,
    private key: ToolKey,
  ) {
    super(
      extension.extensionUri,
      { viewType: RunToolPanel.viewType, title: titleOf(key), retainContextWhenHidden: true },
      {
        title: titleOf(key),
        script: 'dist/runTool.js',
        stylesheet: 'runTool.css',
        dataImages: true,
      },
      isRunToolFromWebview,
    );
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
    const unfollowSwitches = host.kernel.switches.onChange(follow);
    this.disposables.push(this.runs, {
      dispose: () => (bus.off('transition', follow), bus.off('listChanged', follow)),
    });
    this.disposables.push({ dispose: unfollowSwitches });
  }

  protected receive(message: RunToolFromWebview): void {
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
      case 'turnOn':
        void this.turnOn(message);
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

  private postAll(): void {
    this.post({ type: 'tools', tools: this.choices(), selected: this.key });
    this.postTool();
    this.postHistory(this.key);
  }

  /** Turn On from the panel: the tool's switch, or its server's when the whole server is off. */
  private async turnOn(key: ToolKey): Promise<void> {
    const { switches, switchboard } = this.host.kernel;
    const off = switches.turnedOff(key.serverId, key.toolName);
    if (off === 'server') await switchboard.setServer(key.serverId, true);
    if (switches.toolOff(key.serverId, key.toolName))
      await switchboard.setTool(key.serverId, key.toolName, true);
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
    const turnedOff = kernel.switches.turnedOff(serverId, toolName);
    if (turnedOff) {
      const reason =
        turnedOff === 'server'
          ? `you turned the server "${serverId}" off`
          : `you turned ${toolName} off`;
      this.post({ type: 'toolGone', key: this.key, reason, turnedOff });
      return;
    }
    const server = kernel.manager.find(serverId);
    const reason = !server
      ? `no server "${serverId}" is configured`
      : server.state !== 'connected'
        ? `server "${serverId}" is ${server.state}`
        : `server "${serverId}" no longer lists ${toolName}`;
    this.post({ type: 'toolGone', key: this.key, reason });
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
