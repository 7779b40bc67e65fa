/**
 * The Run Tool panel's history of the shown tool: its past runs, newest first (kept by the host across
 * reloads). Choosing one shows its arguments and how it ended; Re-run sends its arguments again.
 */
import type { HistoryEntryView, RunToolFromWebview, ToolKey } from '@shared/toolPanelMessages';
import { button, el, formatDuration } from '../shared/dom';
import { outcomeNode } from '../shared/runOutcome';

export interface HistoryActions {
  post(message: RunToolFromWebview): void;
  /** Fills the form with the arguments. */
  load(args: Record<string, unknown>): void;
  /** Fills the form with the arguments and runs. */
  rerun(args: Record<string, unknown>): void;
  /** Runs with the arguments and a seed, when the tool takes one (MCP draft §2). */
  rerunWithSeed(args: Record<string, unknown>, seed: number): void;
  /** Whether the shown tool takes a seed. */
  takesSeed(): boolean;
}

const MARK: Record<string, string> = {
  ok: '✓',
  error: '✗',
  failed: '✗',
  blocked: '■',
  cancelled: '⊘',
};

export function stateOf(entry: HistoryEntryView): string {
  if (entry.result)
    return entry.result.block
      ? 'blocked'
      : entry.result.cancelled
        ? 'cancelled'
        : entry.result.isError
          ? 'error'
          : 'ok';
  return entry.error?.block ? 'blocked' : 'failed';
}

const STATE_WORDS: Record<string, string> = {
  ok: 'succeeded',
  error: 'tool error',
  failed: 'failed',
  blocked: 'blocked by the kernel',
  cancelled: 'cancelled',
};

function argsSummary(args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function timeOf(at: number): string {
  return new Date(at).toLocaleTimeString([], {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

export class HistoryView {
  readonly element = el('section', { id: 'history', 'aria-labelledby': 'history-heading' });
  private key: ToolKey | undefined;
  private entries: HistoryEntryView[] = [];
  private chosen: string | undefined;

  constructor(private readonly actions: HistoryActions) {}

  show(key: ToolKey, entries: HistoryEntryView[]): void {
    if (this.key?.serverId !== key.serverId || this.key.toolName !== key.toolName)
      this.chosen = undefined;
    this.key = key;
    this.entries = entries;
    this.render();
  }

  private render(): void {
    const key = this.key;
    if (!key) return;
    const heading = el(
      'div',
      { class: 'history-head' },
      el('h2', { id: 'history-heading' }, `History (${this.entries.length})`),
      this.entries.length
        ? button('Clear', () => this.actions.post({ type: 'clearHistory', ...key }), {
            class: 'secondary small clear-history',
            title: `Forget the past runs of ${key.toolName} in this workspace`,
          })
        : '',
    );
    if (!this.entries.length) {
      this.element.replaceChildren(
        heading,
        el(
          'p',
          { class: 'muted empty' },
          'No runs yet. Each run of this tool is kept here, the last 20.',
        ),
      );
      return;
    }
    const chosen = this.entries.find((entry) => entry.id === this.chosen);
    this.element.replaceChildren(
      heading,
      el('ol', { class: 'history-list' }, ...this.entries.map((entry) => this.row(entry))),
      ...(chosen ? [this.detail(chosen)] : []),
    );
  }

  private row(entry: HistoryEntryView): HTMLElement {
    const state = stateOf(entry);
    const duration = entry.result ? ` · ${formatDuration(entry.result.durationMs)}` : '';
    const label = document.createDocumentFragment();
    label.append(
      el('span', { class: 'history-mark', 'aria-hidden': 'true' }, MARK[state] ?? '•'),
      ` ${timeOf(entry.at)} · ${STATE_WORDS[state] ?? state}${duration} · `,
      el('code', {}, argsSummary(entry.args)),
    );
    const choose = button(
      label,
      () => {
        this.chosen = this.chosen === entry.id ? undefined : entry.id;
        this.render();
        this.element.querySelector<HTMLElement>(`[data-entry="${CSS.escape(entry.id)}"]`)?.focus();
      },
      {
        class: 'history-entry',
        'data-entry': entry.id,
        'data-state': state,
        'aria-expanded': String(this.chosen === entry.id),
      },
    );
    return el('li', {}, choose);
  }

  private detail(entry: HistoryEntryView): HTMLElement {
    return el(
      'div',
      { class: 'history-detail', 'aria-label': `The run of ${timeOf(entry.at)}` },
      el(
        'div',
        { class: 'history-args-head' },
        el('span', { class: 'label' }, 'Arguments'),
        button('Load into the form', () => this.actions.load(entry.args), {
          class: 'secondary small load-args',
        }),
      ),
      el('pre', { class: 'history-args', tabindex: '0' }, JSON.stringify(entry.args, null, 2)),
      outcomeNode(entry, {
        post: this.actions.post,
        rerun: () => this.actions.rerun(entry.args),
        ...(this.actions.takesSeed()
          ? { rerunWithSeed: (seed: number) => this.actions.rerunWithSeed(entry.args, seed) }
          : {}),
        openLink: (link) =>
          this.key &&
          this.actions.post({
            type: 'openResource',
            serverId: this.key.serverId,
            uri: link.uri,
            name: link.name,
            ...(link.mimeType ? { mimeType: link.mimeType } : {}),
          }),
      }),
    );
  }
}
