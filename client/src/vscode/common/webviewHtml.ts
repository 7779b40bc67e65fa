import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export interface WebviewPage {
  title: string;
  /** Bundled script under media/dist/ and stylesheet under media/. */
  script: string;
  stylesheet: string;
  /** Images from `data:` URIs too: server icons, checked and re-encoded by the kernel (kernel/icons). */
  dataImages?: boolean;
}

/** Options for a panel of ours: scripts on, resources only from media/. */
export function webviewOptions(
  extensionUri: vscode.Uri,
): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media')] };
}

/**
 * The shell every panel shares: CSP `default-src 'none'`, the script allowed by a fresh nonce, styles
 * only from the extension's media folder, codicon font included; content is rendered by the script.
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
