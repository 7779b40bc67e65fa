/**
 * One event as a read-only document, `mgp-event:/<server> <channel>.jsonc`, opened by a click in the
 * Events view: a few lines in plain words first (as comments), then what the server sent (its data,
 * or an MCPL push event's content and origin) and what the kernel decided, as JSON. The text is made
 * when the event is clicked and kept for that tab only.
 */
import * as vscode from 'vscode';
import { visibleText } from '@shared/untrustedText';
import { ReadOnlyTexts } from '../common/readOnlyTexts';

export const EVENT_SCHEME = 'mgp-event';
const KEPT = 50;

export class EventDetails implements vscode.Disposable {
  private readonly texts = new ReadOnlyTexts(
    EVENT_SCHEME,
    KEPT,
    '// This event is no longer kept: click it again.',
  );

  async show(title: string, summary: string[], detail: Record<string, unknown>): Promise<void> {
    const lines = summary.map((line) => `// ${visibleText(line).replace(/[\r\n]+/g, ' ')}`);
    const text = [...lines, visibleText(JSON.stringify(detail, null, 2))].join('\n');
    await this.texts.show(`${title.slice(0, 100)}.jsonc`, text, { preview: true });
  }

  dispose(): void {
    this.texts.dispose();
  }
}
