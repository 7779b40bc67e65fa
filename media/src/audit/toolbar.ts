/**
 * The Audit Trail's controls: filters (type, server, tool, result, trace id, time range), grouping,
 * follow, export, the chain-verified badge and the status line.
 */
import type {
  AuditFacets,
  AuditSourceInfo,
  AuditViewFilter,
  AuditViewOptions,
  AuditViewState,
  ExportFormatName,
  VerifyState,
} from '@shared/auditMessages';
import { auditTypeWords } from '@shared/auditSentence';
import { el, formatBytes, formatCount, fromLocalInput, toLocalInput } from './dom';

export interface ToolbarEvents {
  /** `seq` numbers the changes, from 1. */
  optionsChanged(options: AuditViewOptions, seq: number): void;
  expandAll(expanded: boolean): void;
  followChanged(follow: boolean): void;
  export(format: ExportFormatName, encrypt?: boolean): void;
  verify(): void;
}

type FacetKey = keyof AuditFacets;

/** A filter's choice: event types in words, with the stored name as its hover. */
function option(key: FacetKey, value: string): HTMLOptionElement {
  return key === 'types'
    ? el('option', { value, title: value }, auditTypeWords(value))
    : el('option', { value }, value);
}

function labelled(text: string, control: HTMLElement): HTMLElement {
  return el('label', { class: 'field' }, el('span', {}, text), control);
}

function checkbox(id: string, text: string): { label: HTMLElement; input: HTMLInputElement } {
  const input = el('input', { type: 'checkbox', id });
  return { input, label: el('label', { class: 'check', for: id }, input, text) };
}

export class Toolbar {
  readonly element: HTMLElement;
  private readonly source = el('span', { class: 'source muted' });
  private readonly badge = el(
    'span',
    { class: 'badge verify', role: 'status', 'data-state': 'none' },
    'Not verified yet',
  );
  /** The reason of a broken chain, spelled out under the toolbar (not only in a tooltip). */
  private readonly reason = el('div', { class: 'verify-reason', role: 'alert' });
  private readonly status = el('span', { class: 'status muted', role: 'status' });
  private readonly selects: Record<FacetKey, HTMLSelectElement> = {
    types: el('select', { 'data-filter': 'type' }),
    servers: el('select', { 'data-filter': 'server' }),
    tools: el('select', { 'data-filter': 'tool' }),
    results: el('select', { 'data-filter': 'result' }),
  };
  private readonly trace = el('input', {
    type: 'search',
    'data-filter': 'trace',
    placeholder: 'trace id',
    spellcheck: 'false',
    size: '24',
  });
  private readonly since = el('input', {
    type: 'datetime-local',
    step: '1',
    'data-filter': 'since',
  });
  private readonly until = el('input', {
    type: 'datetime-local',
    step: '1',
    'data-filter': 'until',
  });
  private readonly group = checkbox('group-by-trace', 'Group by trace');
  private readonly followBox = checkbox('follow', 'Follow new events');
  private readonly expandButtons: HTMLElement;
  private newestFirst = true;
  private sentOptions = '';
  /** How many changes were sent: a view built before the last of them has stale options. */
  private sentSeq = 0;
  private traceTimer = 0;

  constructor(private readonly events: ToolbarEvents) {
    const anyLabel: Record<FacetKey, string> = {
      types: 'All types',
      servers: 'All servers',
      tools: 'All tools',
      results: 'All results',
    };
    for (const [key, select] of Object.entries(this.selects) as [FacetKey, HTMLSelectElement][]) {
      select.append(el('option', { value: '' }, anyLabel[key]));
      select.addEventListener('change', () => this.changed());
    }
    this.trace.addEventListener('input', () => {
      clearTimeout(this.traceTimer);
      this.traceTimer = window.setTimeout(() => this.changed(), 400);
    });
    this.trace.addEventListener('change', () => this.changed());
    for (const input of [this.since, this.until])
      input.addEventListener('change', () => this.changed());
    this.group.input.addEventListener('change', () => this.changed());
    this.followBox.input.addEventListener('change', () =>
      events.followChanged(this.followBox.input.checked),
    );
    const button = (text: string, attrs: Record<string, string>, action: () => void) => {
      const node = el('button', { type: 'button', class: 'secondary small', ...attrs }, text);
      node.addEventListener('click', action);
      return node;
    };
    this.expandButtons = el(
      'span',
      { class: 'expand', hidden: '' },
      button('Expand all', { 'data-action': 'expand-all' }, () => events.expandAll(true)),
      button('Collapse all', { 'data-action': 'collapse-all' }, () => events.expandAll(false)),
    );
    this.element = el(
      'header',
      { class: 'toolbar' },
      el(
        'div',
        { class: 'line title' },
        el('h1', {}, 'Audit Trail'),
        this.source,
        this.badge,
        button(
          'Verify chain',
          {
            'data-action': 'verify',
            title: "Check every record's hash and the chain linking them",
          },
          () => events.verify(),
        ),
        el('span', { class: 'spring' }),
        button(
          'Export CSV',
          { 'data-action': 'export-csv', title: 'Export the records that pass the filter' },
          () => events.export('csv'),
        ),
        button(
          'Export JSONL',
          {
            'data-action': 'export-jsonl',
            title: 'Export the records that pass the filter, as the log stores them',
          },
          () => events.export('jsonl'),
        ),
        button(
          'Export encrypted',
          {
            'data-action': 'export-encrypted',
            title:
              "Export the records that pass the filter as JSON Lines, encrypted with AES-256-GCM (MCP draft §3); the key stays in VS Code's secret storage",
          },
          () => events.export('jsonl', true),
        ),
      ),
      el(
        'div',
        { class: 'line filters', role: 'group', 'aria-label': 'Filters' },
        labelled('Type', this.selects.types),
        labelled('Server', this.selects.servers),
        labelled('Tool', this.selects.tools),
        labelled('Result', this.selects.results),
        labelled('Trace', this.trace),
        labelled('From', this.since),
        labelled('Before', this.until),
        button('Clear filters', { 'data-action': 'clear' }, () =>
          this.apply(
            { filter: {}, groupByTrace: this.group.input.checked, newestFirst: this.newestFirst },
            true,
          ),
        ),
      ),
      el(
        'div',
        { class: 'line options' },
        this.group.label,
        this.expandButtons,
        this.followBox.label,
        el('span', { class: 'spring' }),
        this.status,
      ),
      this.reason,
    );
  }

  setSource(source: AuditSourceInfo): void {
    this.source.textContent = source.label;
    this.source.title = source.directory;
  }

  setFollow(follow: boolean): void {
    this.followBox.input.checked = follow;
  }

  get options(): AuditViewOptions {
    const filter: AuditViewFilter = {};
    const value = (key: FacetKey) => this.selects[key].value || undefined;
    if (value('types')) filter.types = [value('types') as string];
    filter.serverId = value('servers');
    filter.toolName = value('tools');
    filter.result = value('results');
    filter.traceId = this.trace.value.trim() || undefined;
    filter.since = fromLocalInput(this.since.value);
    filter.until = fromLocalInput(this.until.value);
    for (const key of Object.keys(filter) as (keyof AuditViewFilter)[])
      if (filter[key] === undefined) delete filter[key];
    return { filter, groupByTrace: this.group.input.checked, newestFirst: this.newestFirst };
  }

  /** Newest or oldest records first (the table's Time header asks). */
  setNewestFirst(newestFirst: boolean): void {
    this.newestFirst = newestFirst;
    this.changed();
  }

  private changed(): void {
    clearTimeout(this.traceTimer);
    const options = this.options;
    const text = JSON.stringify(options);
    if (text === this.sentOptions) return;
    this.sentOptions = text;
    this.expandButtons.hidden = !options.groupByTrace;
    this.events.optionsChanged(options, ++this.sentSeq);
  }

  /** Shows `options` in the controls; sends them when `send`. */
  private apply(options: AuditViewOptions, send: boolean): void {
    const f = options.filter;
    const pick = (key: FacetKey, value: string | undefined) => {
      const select = this.selects[key];
      if (value && !Array.from(select.options).some((o) => o.value === value))
        select.append(option(key, value));
      select.value = value ?? '';
    };
    pick('types', f.types?.[0]);
    pick('servers', f.serverId);
    pick('tools', f.toolName);
    pick('results', f.result);
    this.trace.value = f.traceId ?? '';
    this.since.value = toLocalInput(f.since);
    this.until.value = toLocalInput(f.until);
    this.group.input.checked = options.groupByTrace;
    this.newestFirst = options.newestFirst;
    this.expandButtons.hidden = !options.groupByTrace;
    if (send) this.changed();
    else this.sentOptions = JSON.stringify(this.options);
  }

  private setFacets(facets: AuditFacets): void {
    for (const [key, select] of Object.entries(this.selects) as [FacetKey, HTMLSelectElement][]) {
      const values = facets[key];
      const current = select.value;
      const existing = Array.from(select.options)
        .slice(1)
        .map((o) => o.value);
      if (existing.length === values.length && existing.every((v, i) => v === values[i])) continue;
      select.replaceChildren(select.options[0], ...values.map((v) => option(key, v)));
      if (current && !values.includes(current)) select.append(option(key, current));
      select.value = current;
    }
  }

  /** Shows `options` in the controls and sends them. */
  show(options: AuditViewOptions): void {
    this.apply(options, true);
  }

  setView(view: AuditViewState, optionsSeq: number): void {
    this.setFacets(view.facets);
    // Options the host changed (a trace opened from the Approvals panel) show in the controls; a
    // view built before the host took the latest change would undo that change on screen.
    if (optionsSeq === this.sentSeq && JSON.stringify(view.options) !== this.sentOptions)
      this.apply(view.options, false);
    const shown = view.options.groupByTrace
      ? `${formatCount(view.matched)} matching in ${formatCount(view.groups)} trace${view.groups === 1 ? '' : 's'}`
      : `${formatCount(view.matched)} matching`;
    this.status.textContent = `${formatCount(view.records)} records · ${shown} · index ${formatBytes(view.indexBytes)}`;
  }

  setIndexing(records: number): void {
    this.status.textContent = `Reading the log… ${formatCount(records)} records`;
  }

  setVerify(verify: VerifyState): void {
    this.badge.dataset.state = verify.state;
    const text: Record<VerifyState['state'], () => string> = {
      running: () => 'Verifying the chain…',
      verified: () =>
        verify.state === 'verified'
          ? `✓ Chain verified · ${formatCount(verify.records)} records`
          : '',
      broken: () => (verify.state === 'broken' ? `✗ Chain broken at seq ${verify.seq ?? '?'}` : ''),
      failed: () => (verify.state === 'failed' ? `✗ Verification failed` : ''),
    };
    this.badge.textContent = text[verify.state]();
    this.badge.title =
      verify.state === 'broken'
        ? `${verify.reason}${verify.file ? ` (${verify.file}${verify.line ? `:${verify.line}` : ''})` : ''}`
        : verify.state === 'failed'
          ? verify.reason
          : verify.state === 'verified'
            ? `Every record's hash and link checked${verify.lastSeq ? ` up to seq ${formatCount(verify.lastSeq)}` : ''} at ${new Date(verify.at).toLocaleTimeString()}; head hash ${verify.headHash ?? '—'}`
            : '';
    this.reason.textContent =
      verify.state === 'broken'
        ? `Why: ${verify.reason}`
        : verify.state === 'failed'
          ? verify.reason
          : '';
  }
}
