import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export interface WebviewPage {
  title: string;
  /** Bundled script under media/dist/ and stylesheet under media/. */
  script: string;
  stylesheet: string;
  /** Images from `data:` URIs too: server icons, checked and re-encoded by the kernel (kernel/icons), or a tool's image results. */
  dataImages?: boolean;
}

/** Where a new panel opens, and whether its webview is kept while hidden. */
export interface PanelPlace {
  viewType: string;
  title: string;
  column?: vscode.ViewColumn | { viewColumn: vscode.ViewColumn; preserveFocus?: boolean };
  /** A half-filled form, a search result or a stream's output survives switching tabs. */
  retainContextWhenHidden?: boolean;
}

/** Options for a panel of ours: scripts on, resources only from media/. */
export function webviewOptions(
  extensionUri: vscode.Uri,
): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media')] };
}

/**
 * The page every panel shares: CSP `default-src 'none'`, the script allowed by a fresh nonce, styles
 * only from the extension's media folder (over VS Code's theme variables), codicon font included;
 * content is rendered by the script.
 */
export function webviewHtml(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  page: WebviewPage,
): string {
  const nonce = randomBytes(16).toString('base64');
  const media = (path: string) =>
    webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', path)).toString();
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource}${page.dataImages ? ' data:' : ''}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${media(page.stylesheet)}">
<title>${escapeHtml(page.title)}</title>
</head>
<body>
<main id="app" aria-live="polite"></main>
<script nonce="${nonce}" src="${media(page.script)}"></script>
</body>
</html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * One webview panel of ours: its page (above), its icon, the messages its webview sends (those its
 * contract's guard accepts reach `receive`) and those posted to it (never after it is closed), and
 * its end, whether the person closes the tab or the extension disposes it.
 */
export abstract class WebviewPanel<ToWebview, FromWebview> implements vscode.Disposable {
  protected readonly disposables: vscode.Disposable[] = [];
  protected readonly panel: vscode.WebviewPanel;
  private readonly ended: (() => void)[] = [];
  private disposed = false;

  /** `place` opens a new panel; a panel VS Code kept across a reload is taken as it is. */
  protected constructor(
    extensionUri: vscode.Uri,
    place: PanelPlace | vscode.WebviewPanel,
    page: WebviewPage,
    accepts: (message: unknown) => message is FromWebview,
  ) {
    this.panel = 'webview' in place ? place : createPanel(extensionUri, place);
    if (this.panel === place) this.panel.webview.options = webviewOptions(extensionUri);
    this.panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.png');
    this.panel.webview.html = webviewHtml(this.panel.webview, extensionUri, page);
    this.disposables.push(
      this.panel.onDidDispose(() => this.dispose()),
      this.panel.webview.onDidReceiveMessage((message: unknown) => {
        if (accepts(message)) void this.receive(message);
      }),
    );
  }

  protected abstract receive(message: FromWebview): void | Promise<void>;

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  /** Posts to the webview unless the panel is gone (work can end after it was closed). */
  protected post(message: ToWebview): void {
    if (!this.disposed)
      void this.panel.webview.postMessage(message).then(undefined, () => undefined);
  }

  /** A function that runs `run` once, `delayMs` after the first of a burst of calls, unless the panel is gone by then. */
  protected coalesce(delayMs: number, run: () => void): () => void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    this.disposables.push({ dispose: () => clearTimeout(timer) });
    return () => {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        if (!this.disposed) run();
      }, delayMs);
    };
  }

  reveal(preserveFocus?: boolean): void {
    this.panel.reveal(undefined, preserveFocus);
  }

  /** Runs `listener` when the panel ends. */
  onDidEnd(listener: () => void): void {
    this.ended.push(listener);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const listener of this.ended) listener();
    vscode.Disposable.from(...this.disposables).dispose();
    this.panel.dispose();
  }
}

function createPanel(extensionUri: vscode.Uri, place: PanelPlace): vscode.WebviewPanel {
  return vscode.window.createWebviewPanel(
    place.viewType,
    place.title,
    place.column ?? vscode.ViewColumn.Active,
    { ...webviewOptions(extensionUri), retainContextWhenHidden: place.retainContextWhenHidden },
  );
}

/** The open panels of one kind, one per key: showing a key again brings its panel forward. */
export class OpenPanels<P extends WebviewPanel<unknown, unknown>> {
  private readonly open = new Map<string, P>();

  /** The panel open for `key` brought forward (by `bringForward`, else revealed), or the one `create` opens. */
  show(key: string, create: () => P, bringForward: (panel: P) => void = (p) => p.reveal()): P {
    const existing = this.open.get(key);
    if (existing) {
      bringForward(existing);
      return existing;
    }
    return this.keep(key, create());
  }

  /** Keeps `panel` as the one open for `key` until it ends (a panel revived after a reload). */
  keep(key: string, panel: P): P {
    this.open.set(key, panel);
    panel.onDidEnd(() => this.open.get(key) === panel && this.open.delete(key));
    return panel;
  }

  get(key: string): P | undefined {
    return this.open.get(key);
  }

  disposeAll(): void {
    for (const panel of [...this.open.values()]) panel.dispose();
  }
}
