/**
 * One event as a read-only document, `mgp-event:/<server> <channel>.jsonc`, opened by a click in the
 * Events view: a few lines in plain words first (as comments), then what the server sent (its data,
 * or an MCPL push event's content and origin) and what the kernel decided, as JSON. The text is made
 * when the event is clicked and kept for that tab only.
 */
import * as vscode from 'vscode';
import { visibleText } from '@shared/untrustedText';

export const EVENT_SCHEME = 'mgp-event';
const KEPT = 50;

export class EventDetails implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(
    EVENT_SCHEME,
    this,
  );
  private next = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.query) ?? '// This event is no longer kept: click it again.';
  }

  async show(title: string, summary: string[], detail: Record<string, unknown>): Promise<void> {
    const key = String(++this.next);
    const lines = summary.map((line) => `// ${visibleText(line).replace(/[\r\n]+/g, ' ')}`);
    this.texts.set(key, [...lines, visibleText(JSON.stringify(detail, null, 2))].join('\n'));
    if (this.texts.size > KEPT) this.texts.delete(this.texts.keys().next().value as string);
    const name = title.replace(/[/\\]/g, '∕').slice(0, 100);
    const uri = vscode.Uri.from({ scheme: EVENT_SCHEME, path: `/${name}.jsonc`, query: key });
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: true });
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
