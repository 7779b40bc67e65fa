import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import * as vscode from 'vscode';
import type { ElicitationToWebview } from '@shared/elicitationMessages';
import { isElicitationFromWebview } from '@shared/elicitationMessages';
import { ArgumentChecker } from '../../kernel';
import { webviewHtml, webviewOptions } from '../common/webviewHtml';

/** The kernel's schema check, on the form's schema (ajv cannot run in the webview: its CSP). */
const validator = new ArgumentChecker();

/** A text field left empty in a form is not an answer: the property is left out (so `required` catches it). */
function withoutEmptyText(content: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(content).filter(([, value]) => value !== ''));
}

type FormParams = Exclude<ElicitRequest['params'], { mode: 'url' }>;

/**
 * A server's request for information (MCP elicitation, form mode) as one form in an editor tab: every
 * field at once, from the requested schema, with Submit, Decline and Cancel. Closing the tab cancels;
 * so does the request's own end (the server gave up, the call was cancelled).
 */
export function elicitInForm(
  extensionUri: vscode.Uri,
  serverId: string,
  params: FormParams,
  signal?: AbortSignal,
): Promise<ElicitResult> {
  const panel = vscode.window.createWebviewPanel(
    'mgp.elicitation',
    `${serverId} asks for information`,
    vscode.ViewColumn.Active,
    { ...webviewOptions(extensionUri), retainContextWhenHidden: true },
  );
  panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.png');
  panel.webview.html = webviewHtml(panel.webview, extensionUri, {
    title: 'Elicitation',
    script: 'dist/elicitation.js',
    stylesheet: 'elicitation.css',
  });
  const ask: ElicitationToWebview = {
    type: 'ask',
    serverId,
    message: params.message,
    schema: params.requestedSchema as Record<string, unknown>,
  };
  return new Promise<ElicitResult>((resolve) => {
    let settled = false;
    const settle = (result: ElicitResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
      panel.dispose();
    };
    panel.webview.onDidReceiveMessage((message: unknown) => {
      if (!isElicitationFromWebview(message)) return;
      if (message.type === 'ready') void panel.webview.postMessage(ask);
      else if (message.type === 'accept') {
        // The answer must fit what the server asked for: checked here, before anything is sent.
        const content = withoutEmptyText(message.content);
        const { errors } = validator.check(ask.schema, content);
        if (errors.length) void panel.webview.postMessage({ type: 'refused', errors });
        else settle({ action: 'accept', content: content as ElicitResult['content'] });
      } else settle({ action: message.type });
    });
    panel.onDidDispose(() => settle({ action: 'cancel' }));
    signal?.addEventListener('abort', () => settle({ action: 'cancel' }), { once: true });
  });
}
