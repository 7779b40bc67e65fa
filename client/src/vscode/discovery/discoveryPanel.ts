import * as vscode from 'vscode';
import { openResourceDocument } from '../servers/content/contentCommands';
import type {
  DiscoveryFromWebview,
  DiscoveryToWebview,
  SearchRequest,
} from '@shared/discoveryMessages';
import { isDiscoveryFromWebview } from '@shared/discoveryMessages';
import type { EditorHost } from '../host/editorHost';
import { NO_MATCH_BELOW } from '../../kernel';
import {
  categoryViews,
  discoveryResultView,
  kernelToolSlack,
  sessionView,
  withoutKernelTools,
} from './discoveryViews';
import { OpenPanels, WebviewPanel } from '../common/webviewPanel';
import { RunToolPanel } from '../runTool/runToolPanel';
import { ToolRuns } from '../runTool/toolRuns';

/**
 * "Tool Discovery": `mgp.tools.discover` (MGP §16.5) as you type, with strategy, max results and
 * filters; each result with relevance, server, risk, categories and description, its schema and a
 * "Try it" form that calls through `kernel.stream` (approvals apply, output goes to the Streaming panel
 * too) and counts as a use in the session cache; pin and unpin; the session cache against its budget.
 */
export class ToolDiscoveryPanel extends WebviewPanel<DiscoveryToWebview, DiscoveryFromWebview> {
  static readonly viewType = 'mgp.discovery';
  private static readonly open = new OpenPanels<ToolDiscoveryPanel>();
  private readonly runs: ToolRuns;
  private lastSearch: SearchRequest | undefined;
  private readonly scheduleRefresh = this.coalesce(50, () => this.refresh());

  static show(extension: vscode.ExtensionContext, host: EditorHost): ToolDiscoveryPanel {
    return ToolDiscoveryPanel.open.show('', () => new ToolDiscoveryPanel(extension, host));
  }

  /** The panel VS Code kept across a window reload: the webview puts its own search back (getState). */
  static revive(
    panel: vscode.WebviewPanel,
    extension: vscode.ExtensionContext,
    host: EditorHost,
  ): void {
    ToolDiscoveryPanel.open.disposeAll();
    ToolDiscoveryPanel.open.keep('', new ToolDiscoveryPanel(extension, host, panel));
  }

  static disposeCurrent(): void {
    ToolDiscoveryPanel.open.disposeAll();
  }

  private constructor(
    extension: vscode.ExtensionContext,
    private readonly host: EditorHost,
    revived?: vscode.WebviewPanel,
  ) {
    super(
      extension.extensionUri,
      revived ?? {
        viewType: ToolDiscoveryPanel.viewType,
        title: 'Tool Discovery',
        retainContextWhenHidden: true,
      },
      { title: 'Tool Discovery', script: 'dist/discovery.js', stylesheet: 'discovery.css' },
      isDiscoveryFromWebview,
    );
    const kernel = host.kernel;
    this.runs = new ToolRuns({
      kernel,
      post: (message) => this.post(message),
      images: false,
      alwaysStream: true,
      onStart: ({ serverId, toolName }) => kernel.discovery.used(serverId, toolName),
      onEnded: (run) => void RunToolPanel.remember(extension, run),
      showStreams: (streamId) =>
        void vscode.commands.executeCommand('mgp.showStreams', { streamId }),
      openResource: (serverId, link) => void openResourceDocument(serverId, link),
    });
    const off = kernel.discovery.onDidChange(() => this.scheduleRefresh());
    this.disposables.push(this.runs, { dispose: off });
  }

  protected async receive(message: DiscoveryFromWebview): Promise<void> {
    const discovery = this.host.kernel.discovery;
    switch (message.type) {
      case 'ready':
        this.post({ type: 'init', categories: categoryViews() });
        this.postSession();
        if (this.lastSearch) await this.search(this.lastSearch);
        return;
      case 'search':
        this.lastSearch = message;
        await this.search(message);
        return;
      case 'pin': {
        const entry = discovery.index.get(message.toolId);
        if (entry) discovery.cache.pin(entry);
        this.refresh();
        return;
      }
      case 'unpin':
        discovery.cache.unpin(message.toolId);
        this.refresh();
        return;
      case 'openRunTool':
        await vscode.commands.executeCommand('mgp.runTool', {
          serverId: message.serverId,
          toolName: message.toolName,
        });
        return;
      case 'addServer':
        await vscode.commands.executeCommand('mgp.addServer');
        return;
      default:
        this.runs.handle(message);
    }
  }

  private async search(request: SearchRequest): Promise<void> {
    const kernel = this.host.kernel;
    const discovery = kernel.discovery;
    try {
      // A person's search: the kernel's own tools are left out, so a few more are asked for.
      const answer = await discovery.tools.discover({
        query: request.query,
        strategy: request.strategy,
        max_results: Math.min(50, request.maxResults + kernelToolSlack(discovery.index.list())),
        filter: request.filter,
      });
      const result = withoutKernelTools(answer, request.maxResults);
      const view = discoveryResultView(result, {
        tools: kernel.tools(),
        cache: discovery.cache,
        entry: (id) => discovery.index.get(id),
        streaming: (serverId) => kernel.mgp.active(serverId, 'streaming'),
      });
      const best = Math.max(0, ...view.tools.map((t) => t.relevance));
      if (request.query.trim() && best < NO_MATCH_BELOW) view.noMatch = true;
      this.post({ type: 'results', seq: request.seq, result: view });
    } catch (error) {
      this.post({
        type: 'searchError',
        seq: request.seq,
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }

  private postSession(): void {
    this.post({ type: 'session', session: sessionView(this.host.kernel.discovery.cache) });
  }

  /** The session changed (pin, use) or servers came and went: the budget and the last answer again. */
  private refresh(): void {
    this.postSession();
    if (this.lastSearch) void this.search(this.lastSearch);
  }
}
