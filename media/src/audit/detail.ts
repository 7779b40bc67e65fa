/**
 * The detail pane: first what happened in plain words (who, what, the decision, when), then the whole
 * record as the log holds it, its hash and the hash it chains to.
 */
import {
  actorName,
  auditPermission,
  auditSentence,
  auditTypeWords,
  SentenceRecord,
} from '@shared/auditSentence';
import { el, isProblemResult, localTime } from './dom';

export interface DetailEvents {
  close(): void;
  filterTrace(traceId: string): void;
}

export class DetailPane {
  readonly element: HTMLElement;
  private readonly heading = el('h2', { id: 'detail-heading', tabindex: '-1' });
  private readonly body = el('div', { class: 'detail-body' });
  private traceId = '';
  seq: number | undefined;

  constructor(events: DetailEvents) {
    const close = el(
      'button',
      {
        type: 'button',
        class: 'secondary small',
        'data-action': 'close-detail',
        'aria-label': 'Close the record',
      },
      'Close',
    );
    close.addEventListener('click', () => events.close());
    const trace = el(
      'button',
      { type: 'button', class: 'secondary small', 'data-action': 'filter-trace' },
      'Only this trace',
    );
    trace.addEventListener('click', () => this.traceId && events.filterTrace(this.traceId));
    this.element = el(
      'aside',
      { class: 'detail', 'aria-labelledby': 'detail-heading', hidden: '' },
      el(
        'div',
        { class: 'detail-head' },
        this.heading,
        el('span', { class: 'spring' }),
        trace,
        close,
      ),
      this.body,
    );
    this.element.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      events.close();
    });
  }

  loading(seq: number): void {
    this.seq = seq;
    this.element.hidden = false;
    this.heading.textContent = `Record ${seq}`;
    this.body.replaceChildren(el('p', { class: 'muted' }, 'Reading the record…'));
  }

  show(
    seq: number,
    record: Record<string, unknown> | undefined,
    problem: string | undefined,
  ): void {
    if (seq !== this.seq) return;
    if (!record) {
      this.body.replaceChildren(
        el('p', { class: 'empty' }, problem ?? 'The record could not be read.'),
      );
      return;
    }
    this.traceId = typeof record.trace_id === 'string' ? record.trace_id : '';
    const field = (name: string, value: unknown) => [
      el('dt', {}, name),
      el('dd', {}, el('code', { 'data-field': name }, String(value ?? '—'))),
    ];
    this.heading.textContent = `Record ${seq} · ${auditTypeWords(String(record.event_type ?? ''))}`;
    this.body.replaceChildren(
      summary(record),
      el('h3', {}, 'The record as the log keeps it'),
      el(
        'dl',
        { class: 'hashes' },
        ...field('seq', record.seq),
        ...field('timestamp', record.timestamp),
        ...field('trace_id', record.trace_id),
        ...field('hash', record.hash),
        ...field('prev_hash', record.prev_hash),
      ),
      el(
        'pre',
        { class: 'record-json', tabindex: '0', 'aria-label': 'The whole record as JSON' },
        JSON.stringify(record, null, 2),
      ),
    );
  }

  hide(): void {
    this.seq = undefined;
    this.element.hidden = true;
  }
}

/** Who, what, the decision and when, above the record itself. */
function summary(record: Record<string, unknown>): HTMLElement {
  const fields = {
    event_type: String(record.event_type ?? ''),
    actor: record.actor as SentenceRecord['actor'],
    target: record.target as SentenceRecord['target'],
    result: String(record.result ?? ''),
    details: (record.details ?? {}) as Record<string, unknown>,
  };
  const actor = fields.actor;
  const server = fields.target?.server_id ?? '';
  const tool = fields.target?.tool_name ?? '';
  const permission = auditPermission(fields);
  const time = Date.parse(String(record.timestamp ?? ''));
  const row = (name: string, value: string, hover?: string) => [
    el('dt', {}, name),
    el('dd', { 'data-summary': name.toLowerCase(), title: hover }, value),
  ];
  return el(
    'section',
    { class: 'summary', 'aria-label': 'Summary' },
    el('p', { class: 'sentence', 'data-field': 'sentence' }, auditSentence(fields)),
    el(
      'dl',
      {},
      // The actor's id (operator:agent.vscode) is for a hover, and in the record below.
      ...row('Who', actorName(actor), `${actor?.type ?? ''}:${actor?.id ?? ''}`),
      ...row('What', tool ? `${server}.${tool}` : server || '—'),
      ...row(
        'Decision',
        `${isProblemResult(fields.result) ? '✗ ' : ''}${auditTypeWords(fields.result)}${permission ? ` · ${permission}` : ''}`,
        fields.result,
      ),
      ...row('When', Number.isNaN(time) ? '—' : localTime(time)),
    ),
  );
}
