/**
 * The virtualized table: only the rows in view (plus OVERSCAN on each side) exist in the DOM, a fixed
 * pool of row elements re-filled as it scrolls. Items come from the host page by page (PAGE_SIZE); a
 * row whose page has not arrived yet is drawn as a placeholder and filled when it does, so scrolling
 * never waits on the host. Keyboard: the table is one tab stop; arrows, Page Up/Down, Home/End move
 * the active row (aria-activedescendant), Enter opens a record or a group, Left/Right close and open.
 */
import type { AuditItem, AuditViewState } from '@shared/auditMessages';
import { PAGE_SIZE, pagesCovering, rowWindow, scrollTopFor } from '@shared/auditMessages';
import { auditTypeWords } from '@shared/auditSentence';
import { el, isProblemResult, localTime } from './dom';

const OVERSCAN = 10;
/** Pages kept beyond the ones in view; the farthest are dropped first. */
const MAX_PAGES = 40;
type ColumnKey =
  'seq' | 'time' | 'sentence' | 'permission' | 'result' | 'type' | 'server' | 'tool' | 'trace';
/** What a person reads first comes first; the ids a filter or a support ticket needs follow. */
const COLUMNS: { key: ColumnKey; label: string; hint?: string }[] = [
  { key: 'seq', label: '#', hint: "The record's number in the log" },
  { key: 'time', label: 'Time' },
  { key: 'sentence', label: 'What happened' },
  {
    key: 'permission',
    label: 'Permission',
    hint: 'The permission, or how a tool call was approved (once, this session, always…)',
  },
  { key: 'result', label: 'Result' },
  { key: 'type', label: 'Event', hint: 'The event type as the log stores it (MGP §6.4)' },
  { key: 'server', label: 'Server' },
  { key: 'tool', label: 'Tool' },
  {
    key: 'trace',
    label: 'Trace',
    hint: 'The id shared by the records of one request: an approval and its call',
  },
];
const col = (key: ColumnKey) => COLUMNS.findIndex((c) => c.key === key);

export interface TableEvents {
  requestRows(version: number, start: number, count: number): void;
  openRecord(seq: number): void;
  toggleGroup(trace: string, expand?: boolean): void;
  /** The user scrolled away from the newest row (or back to it) while following. */
  followChanged(follow: boolean): void;
  /** The Time column's header asks for the other order. */
  orderChanged(newestFirst: boolean): void;
}

/** Cached pages moved down by `by` items (rows added on top): each item keeps its new index. */
function shiftPages(pages: Map<number, AuditItem[]>, by: number): Map<number, AuditItem[]> {
  const out = new Map<number, AuditItem[]>();
  for (const [page, items] of pages)
    items.forEach((item, k) => {
      const index = page * PAGE_SIZE + k + by;
      const target = Math.floor(index / PAGE_SIZE);
      let list = out.get(target);
      if (!list) out.set(target, (list = []));
      list[index - target * PAGE_SIZE] = item;
    });
  return out;
}

export class VirtualTable {
  readonly element: HTMLElement;
  private readonly viewport: HTMLElement;
  private readonly header: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly window: HTMLElement;
  private readonly pool: HTMLElement[] = [];
  private readonly empty: HTMLElement;
  private view: AuditViewState | undefined;
  private pages = new Map<number, AuditItem[]>();
  private stale = new Map<number, AuditItem[]>();
  private readonly requested = new Set<number>();
  private rowHeight = 22;
  private active = -1;
  private selectedSeq: number | undefined;
  private frame = 0;
  private expectedScrollTop: number | undefined;
  private scrolledAt: number | undefined;
  private readonly orderButton: HTMLButtonElement;
  follow = false;

  constructor(private readonly events: TableEvents) {
    this.orderButton = el('button', { type: 'button', class: 'order', 'data-action': 'order' });
    this.orderButton.addEventListener('click', () => events.orderChanged(!this.newestFirst));
    this.header = el(
      'div',
      { class: 'row header', role: 'row', 'aria-rowindex': '1' },
      ...COLUMNS.map((c) =>
        el(
          'div',
          { class: 'cell', role: 'columnheader', 'data-col': c.key, title: c.hint },
          c.key === 'time' ? this.orderButton : c.label,
        ),
      ),
    );
    this.showOrder();
    this.window = el('div', { class: 'window', role: 'rowgroup' });
    this.spacer = el('div', { class: 'spacer' }, this.window);
    this.empty = el('div', { class: 'empty-table', hidden: '' }, 'No record matches the filter.');
    this.viewport = el(
      'div',
      {
        class: 'viewport',
        tabindex: '0',
        role: 'grid',
        'aria-label': 'Audit records',
        'aria-rowcount': '1',
        'aria-colcount': String(COLUMNS.length),
      },
      this.header,
      this.spacer,
      this.empty,
    );
    this.element = el('div', { class: 'table' }, this.viewport);
    this.viewport.addEventListener('scroll', () => this.onScroll());
    this.viewport.addEventListener('keydown', (event) => this.onKey(event));
    this.window.addEventListener('click', (event) => this.onClick(event));
    new ResizeObserver(() => this.schedule()).observe(this.viewport);
  }

  /** Reads the row height from the stylesheet (`--row-height`), once laid out. */
  measure(): void {
    const height = parseFloat(getComputedStyle(this.element).getPropertyValue('--row-height'));
    if (height > 0) this.rowHeight = height;
  }

  private get bodyHeight(): number {
    return Math.max(this.rowHeight, this.viewport.clientHeight - this.header.offsetHeight);
  }

  get total(): number {
    return this.view?.total ?? 0;
  }

  /** Newest records on top (the default): following then means staying at the top. */
  get newestFirst(): boolean {
    return this.view?.options.newestFirst ?? true;
  }

  private showOrder(): void {
    const newest = this.newestFirst;
    this.orderButton.textContent = `Time ${newest ? '↓' : '↑'}`;
    this.orderButton.title = newest
      ? 'Newest first. Click for oldest first.'
      : 'Oldest first. Click for newest first.';
    this.orderButton.parentElement?.setAttribute('aria-sort', newest ? 'descending' : 'ascending');
  }

  setView(view: AuditViewState): void {
    const previous = this.view;
    const sameOptions =
      previous !== undefined && JSON.stringify(previous.options) === JSON.stringify(view.options);
    const kept = new Map<number, AuditItem[]>();
    const dropped = new Map<number, AuditItem[]>();
    for (const [page, items] of this.pages)
      ((page + 1) * PAGE_SIZE <= view.stable ? kept : dropped).set(page, items);
    this.pages = kept;
    // Rows that may have moved stay on screen until their fresh copy arrives (no flicker on a live append).
    this.stale = sameOptions ? new Map([...this.stale, ...dropped]) : new Map();
    if (sameOptions && view.prepended > 0) this.stale = shiftPages(this.stale, view.prepended);
    this.requested.clear();
    this.view = view;
    this.showOrder();
    this.viewport.setAttribute('aria-rowcount', String(view.total + 1));
    this.spacer.style.height = `${rowWindow({ scrollTop: 0, viewportHeight: this.bodyHeight, rowHeight: this.rowHeight, total: view.total, overscan: 0 }).scrollHeight}px`;
    this.empty.hidden = view.total > 0;
    if (!sameOptions) this.active = Math.min(this.active, view.total - 1);
    else if (view.prepended > 0 && this.active >= 0) this.active += view.prepended;
    const reordered = previous?.options.newestFirst !== view.options.newestFirst;
    if (this.follow) this.scrollToLive();
    else if (reordered) this.scrollTo(0);
    else if (sameOptions && view.prepended > 0)
      // Not following: the rows in view stay in view while new ones arrive above them.
      this.scrollTo(this.viewport.scrollTop + view.prepended * this.rowHeight);
    this.schedule();
  }

  receive(version: number, start: number, items: AuditItem[]): void {
    if (version !== this.view?.version) return;
    const page = Math.floor(start / PAGE_SIZE);
    this.pages.set(page, items);
    this.stale.delete(page);
    this.schedule();
  }

  /** The item at display index i, if fetched (fresh or stale). */
  private item(i: number): AuditItem | undefined {
    const page = Math.floor(i / PAGE_SIZE);
    return (this.pages.get(page) ?? this.stale.get(page))?.[i - page * PAGE_SIZE];
  }

  setSelected(seq: number | undefined): void {
    this.selectedSeq = seq;
    this.schedule();
  }

  focus(): void {
    this.viewport.focus();
  }

  /** To the newest row: the top when newest first, else the bottom. */
  scrollToLive(): void {
    if (this.newestFirst) {
      this.scrollTo(0);
      return;
    }
    this.scrollTo(
      scrollTopFor(this.total - 1, 'end', {
        viewportHeight: this.bodyHeight,
        rowHeight: this.rowHeight,
        total: this.total,
      }),
    );
  }

  get scrollTop(): number {
    return this.viewport.scrollTop;
  }

  scrollTo(top: number): void {
    this.expectedScrollTop = top;
    this.viewport.scrollTop = top;
    this.schedule();
  }

  private atLiveEdge(): boolean {
    if (this.newestFirst) return this.viewport.scrollTop <= 2;
    return this.viewport.scrollTop + this.viewport.clientHeight >= this.viewport.scrollHeight - 2;
  }

  private onScroll(): void {
    const ours =
      this.expectedScrollTop !== undefined &&
      Math.abs(this.viewport.scrollTop - this.expectedScrollTop) < 2;
    this.expectedScrollTop = undefined;
    if (!ours) {
      this.scrolledAt ??= performance.now();
      const follow = this.atLiveEdge();
      if (follow !== this.follow) {
        this.follow = follow;
        this.events.followChanged(follow);
      }
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private render(): void {
    const total = this.total;
    const w = rowWindow({
      scrollTop: this.viewport.scrollTop,
      viewportHeight: this.bodyHeight,
      rowHeight: this.rowHeight,
      total,
      overscan: OVERSCAN,
    });
    this.request(w.start, w.end);
    this.window.style.transform = `translateY(${w.top}px)`;
    const count = w.end - w.start;
    while (this.pool.length < count) this.pool.push(this.window.appendChild(this.newRow()));
    let complete = true;
    for (let k = 0; k < count; k++) {
      const row = this.pool[k];
      const index = w.start + k;
      const item = this.item(index);
      if (
        !item &&
        index >= w.first &&
        index < w.first + Math.ceil(this.bodyHeight / this.rowHeight)
      )
        complete = false;
      this.fill(row, index, item);
    }
    while (this.pool.length > count) this.pool.pop()?.remove();
    this.viewport.setAttribute(
      'aria-activedescendant',
      this.active >= w.start && this.active < w.end ? `row-${this.active}` : '',
    );
    this.element.dataset.first = String(w.first);
    this.element.dataset.rendered = String(count);
    if (complete && this.scrolledAt !== undefined) {
      this.element.dataset.renderMs = (performance.now() - this.scrolledAt).toFixed(1);
      this.scrolledAt = undefined;
    }
    this.element.dataset.complete = String(complete);
  }

  private request(start: number, end: number): void {
    const view = this.view;
    if (!view) return;
    const wanted = pagesCovering(
      Math.max(0, start - PAGE_SIZE / 2),
      Math.min(view.total, end + PAGE_SIZE / 2),
    );
    for (const page of wanted) {
      if (this.pages.has(page) || this.requested.has(page)) continue;
      this.requested.add(page);
      this.events.requestRows(view.version, page * PAGE_SIZE, PAGE_SIZE);
    }
    if (this.pages.size > MAX_PAGES) {
      const centre = wanted[0] ?? 0;
      const far = [...this.pages.keys()].sort(
        (a, b) => Math.abs(b - centre) - Math.abs(a - centre),
      );
      for (const page of far.slice(0, this.pages.size - MAX_PAGES)) this.pages.delete(page);
    }
  }

  private newRow(): HTMLElement {
    return el(
      'div',
      { class: 'row', role: 'row' },
      ...COLUMNS.map((c) => el('div', { class: 'cell', role: 'gridcell', 'data-col': c.key })),
    );
  }

  private fill(row: HTMLElement, index: number, item: AuditItem | undefined): void {
    row.hidden = false;
    row.id = `row-${index}`;
    row.setAttribute('aria-rowindex', String(index + 2));
    const cells = row.children as HTMLCollectionOf<HTMLElement>;
    let values: Partial<Record<ColumnKey, string>>;
    let kind = 'row';
    let actor = '';
    if (!item) {
      values = { seq: '…' };
      kind = 'row loading';
      delete row.dataset.seq;
      delete row.dataset.trace;
    } else if (item.kind === 'group') {
      values = {
        seq: `${item.expanded ? '▾' : '▸'} ${item.count}`,
        time: localTime(item.first),
        sentence: `${item.count} event${item.count === 1 ? '' : 's'} of one request`,
        type: item.types.map(auditTypeWords).join(' → '),
        server: item.server,
        tool: item.tool,
        result: `${item.problem ? '✗ ' : ''}${auditTypeWords(item.result)}`,
        trace: item.trace,
      };
      kind = `row group${item.problem ? ' problem' : ''}`;
      row.dataset.trace = item.trace;
      delete row.dataset.seq;
    } else {
      const problem = isProblemResult(item.result);
      values = {
        seq: String(item.seq),
        time: localTime(item.time),
        sentence: item.sentence,
        permission: item.permission,
        type: auditTypeWords(item.type),
        server: item.server,
        tool: item.tool,
        result: `${problem ? '✗ ' : ''}${auditTypeWords(item.result)}`,
        trace: item.trace,
      };
      actor = item.actor;
      kind = `row${item.inGroup ? ' member' : ''}${problem ? ' problem' : ''}`;
      row.dataset.seq = String(item.seq);
      row.dataset.trace = item.trace;
    }
    if (item?.kind === 'group') row.setAttribute('aria-expanded', String(item.expanded));
    else row.removeAttribute('aria-expanded');
    const selected = item?.kind === 'row' && item.seq === this.selectedSeq;
    row.className = `${kind}${index === this.active ? ' active' : ''}${selected ? ' selected' : ''}`;
    row.setAttribute('aria-selected', String(selected));
    for (let c = 0; c < COLUMNS.length; c++) {
      const value = values[COLUMNS[c].key] ?? '';
      if (cells[c].textContent !== value) cells[c].textContent = value;
    }
    // The cells most often cut short say all of it on hover; the sentence also names the actor's id.
    const sentence = values.sentence ?? '';
    cells[col('sentence')].title = actor ? `${sentence}\nActor: ${actor}` : sentence;
    // The words on show; the names as the log stores them on hover (what a filter or query takes).
    cells[col('type')].title =
      item?.kind === 'group' ? item.types.join(' → ') : item?.kind === 'row' ? item.type : '';
    cells[col('result')].title = item?.kind === 'group' || item?.kind === 'row' ? item.result : '';
    cells[col('trace')].title = values.trace ?? '';
  }

  private onClick(event: MouseEvent): void {
    const row = (event.target as HTMLElement).closest<HTMLElement>('.row');
    if (!row?.id) return;
    this.activate(Number(row.id.slice(4)));
    this.focus();
  }

  /** Makes row `index` active and acts on it: a record opens in the detail pane, a group opens or closes. */
  private activate(index: number, toggle = true): void {
    this.setActive(index);
    const item = this.item(index);
    if (item?.kind === 'row' && this.follow) {
      // The record being read must not slide away under new ones: opening it pauses following.
      this.follow = false;
      this.events.followChanged(false);
    }
    if (item?.kind === 'row') this.events.openRecord(item.seq);
    else if (item?.kind === 'group' && toggle) this.events.toggleGroup(item.trace);
  }

  private setActive(index: number): void {
    if (this.total === 0) return;
    this.active = Math.max(0, Math.min(this.total - 1, index));
    const geometry = {
      viewportHeight: this.bodyHeight,
      rowHeight: this.rowHeight,
      total: this.total,
    };
    const top = this.viewport.scrollTop;
    const shown = rowWindow({ ...geometry, scrollTop: top, overscan: 0 });
    const firstCut = top > scrollTopFor(shown.first, 'start', geometry) + 1;
    const lastFull =
      shown.first + Math.floor(this.bodyHeight / this.rowHeight) - (firstCut ? 0 : 1);
    if (this.active < shown.first || (this.active === shown.first && firstCut))
      this.scrollTo(scrollTopFor(this.active, 'start', geometry));
    else if (this.active > lastFull) this.scrollTo(scrollTopFor(this.active, 'end', geometry));
    this.schedule();
  }

  private onKey(event: KeyboardEvent): void {
    const page = Math.max(1, Math.floor(this.bodyHeight / this.rowHeight) - 1);
    const item = this.active >= 0 ? this.item(this.active) : undefined;
    const moves: Record<string, () => void> = {
      ArrowDown: () => this.setActive(this.active + 1),
      ArrowUp: () => this.setActive(Math.max(0, this.active - 1)),
      PageDown: () => this.setActive(this.active + page),
      PageUp: () => this.setActive(this.active - page),
      Home: () => this.setActive(0),
      End: () => this.setActive(this.total - 1),
      Enter: () => this.activate(Math.max(0, this.active)),
      ' ': () => item?.kind === 'group' && this.events.toggleGroup(item.trace),
      ArrowRight: () =>
        item?.kind === 'group' && !item.expanded && this.events.toggleGroup(item.trace),
      ArrowLeft: () =>
        item?.kind === 'group' && item.expanded && this.events.toggleGroup(item.trace),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    move();
  }
}
