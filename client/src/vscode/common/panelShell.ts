import * as vscode from 'vscode';
import type { WebviewPage } from './webviewHtml';
import { webviewHtml, webviewOptions } from './webviewHtml';

/**
 * The tool panels keep their webview while hidden: a half-filled form, an expanded search result or a
 * stream's output survive switching tabs (the Streaming panel also bounds what a hidden webview holds).
 */
export function toolPanelOptions(
  extensionUri: vscode.Uri,
): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return { ...webviewOptions(extensionUri), retainContextWhenHidden: true };
}

/**
 * The shared shell (CSP `default-src 'none'`, nonce script, media/ only); with `dataImages` the panel
 * may also show `data:` images (a tool's image results), and no other panel may.
 */
export function toolPanelHtml(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  page: WebviewPage,
  options: { dataImages?: boolean } = {},
): string {
  const html = webviewHtml(webview, extensionUri, page);
  if (!options.dataImages) return html;
  const images = `img-src ${webview.cspSource}`;
  if (!html.includes(images))
    throw new Error('the webview shell no longer has the img-src directive this panel widens');
  return html.replace(images, `${images} data:`);
}

/** Posts to a webview unless its panel is gone (calls can end after the panel was closed). */
export function poster<T>(
  panel: vscode.WebviewPanel,
  isDisposed: () => boolean,
): (message: T) => void {
  return (message: T) => {
    if (!isDisposed()) void panel.webview.postMessage(message).then(undefined, () => undefined);
  };
}
