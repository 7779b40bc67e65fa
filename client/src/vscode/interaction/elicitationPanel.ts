import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import * as vscode from 'vscode';
import type { ElicitationFromWebview, ElicitationToWebview } from '@shared/elicitationMessages';
import { isElicitationFromWebview } from '@shared/elicitationMessages';
import { ArgumentChecker } from '../../kernel';
import { WebviewPanel } from '../common/webviewPanel';

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
  return new Promise<ElicitResult>((resolve) => {
    const form = new ElicitationForm(extensionUri, serverId, params, resolve);
    signal?.addEventListener('abort', () => form.settle({ action: 'cancel' }), { once: true });
  });
}

class ElicitationForm extends WebviewPanel<ElicitationToWebview, ElicitationFromWebview> {
  private readonly ask: ElicitationToWebview & { type: 'ask' };
  private settled = false;

  constructor(
    extensionUri: vscode.Uri,
    serverId: string,
    params: FormParams,
    private readonly resolve: (result: ElicitResult) => void,
  ) {
    super(
      extensionUri,
      {
        viewType: 'mgp.elicitation',
        title: `${serverId} asks for information`,
        retainContextWhenHidden: true,
      },
      { title: 'Elicitation', script: 'dist/elicitation.js', stylesheet: 'elicitation.css' },
      isElicitationFromWebview,
    );
    this.ask = {
      type: 'ask',
      serverId,
      message: params.message,
      schema: params.requestedSchema as Record<string, unknown>,
    };
    this.onDidEnd(() => this.settle({ action: 'cancel' }));
  }

  protected receive(message: ElicitationFromWebview): void {
    if (message.type === 'ready') this.post(this.ask);
    else if (message.type === 'accept') {
      // The answer must fit what the server asked for: checked here, before anything is sent.
      const content = withoutEmptyText(message.content);
      const { errors } = validator.check(this.ask.schema, content);
      if (errors.length) this.post({ type: 'refused', errors });
      else this.settle({ action: 'accept', content: content as ElicitResult['content'] });
    } else this.settle({ action: message.type });
  }

  settle(result: ElicitResult): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve(result);
    this.dispose();
  }
}
