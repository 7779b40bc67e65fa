/** One stream of the Streaming Output panel: its tab, live text, rate, progress, Cancel and final state. */
import type { ProgressView } from '@shared/toolPanelMessages';
import type { StreamView } from '@shared/streamMessages';
import { button, el, formatBytes, formatCount, formatDuration } from '../shared/dom';
import { progressBar, type ProgressBar } from '../shared/toolParts';
import { RateMeter, TailOutput } from './output';
import type { JobEventView } from '@shared/draftViews';
import { determinismNode, PhaseLanes } from '../shared/draftParts';

const MARKS: Record<string, string> = { running: '◌', done: '✓', cancelled: '⊘', error: '✗' };

export interface StreamTabActions {
  select(tab: StreamTab): void;
  cancel(id: string): void;
  openText(id: string): void;
  close(tab: StreamTab): void;
}

export class StreamTab {
  readonly tab: HTMLButtonElement;
  readonly panel: HTMLElement;
  private readonly output: TailOutput;
  private readonly rate = new RateMeter();
  private readonly stats = el('span', { class: 'stats' });
  private readonly tabMark = el('span', { class: 'tab-mark', 'aria-hidden': 'true' });
  private readonly stateLine = el('div', { class: 'final', role: 'status' });
  private readonly note = el('div', { class: 'notice tail-note', hidden: 'true' });
  private readonly bar: ProgressBar = progressBar('Progress of the stream');
  /** MCP draft §4 and §2: the job's events by phase, the seed it says it used. */
  private readonly lanes: PhaseLanes;
  private readonly determinism = el('div', { class: 'stream-determinism' });
  private readonly cancelButton: HTMLButtonElement;
  private readonly closeButton: HTMLButtonElement;
  private readonly scroller: HTMLElement;
  private pending: string[] = [];
  private pendingChars = 0;
  private progress: ProgressView | undefined;
  private progressAt = 0;
  private dirty = true;
  view: StreamView;
  totalChars: number;

  constructor(
    view: StreamView,
    private readonly cap: number,
    actions: StreamTabActions,
  ) {
    this.view = view;
    this.totalChars = view.textLength;
    this.lanes = new PhaseLanes(view.jobs);
    const tabId = `tab-${view.id}`;
    const panelId = `panel-${view.id}`;
    this.tab = el(
      'button',
      {
        type: 'button',
        role: 'tab',
        id: tabId,
        'aria-controls': panelId,
        'aria-selected': 'false',
        tabindex: '-1',
        class: 'tab',
        'data-stream-id': view.id,
      },
      this.tabMark,
      ` ${view.serverId} · ${view.toolName}`,
    );
    this.tab.addEventListener('click', () => actions.select(this));
    const pre = el('div', { class: 'output-text' });
    this.scroller = el(
      'div',
      {
        class: 'output',
        tabindex: '0',
        role: 'log',
        'aria-label': `Output of ${view.toolName}`,
        'aria-live': 'off',
      },
      pre,
    );
    this.output = new TailOutput(pre, cap);
    this.cancelButton = button(
      'Cancel',
      () => {
        this.cancelButton.disabled = true;
        actions.cancel(view.id);
      },
      { class: 'secondary cancel' },
    );
    this.closeButton = button('Close', () => actions.close(this), {
      class: 'secondary close',
      hidden: 'true',
    });
    const openText = button('Open the whole text in an editor', () => actions.openText(view.id), {
      class: 'link',
    });
    this.note.append(el('span', { class: 'tail-words' }), ' ', openText);
    this.panel = el(
      'section',
      {
        role: 'tabpanel',
        id: panelId,
        'aria-labelledby': tabId,
        class: 'stream',
        hidden: 'true',
        'data-stream-id': view.id,
      },
      el(
        'div',
        { class: 'stream-head' },
        el(
          'h2',
          {},
          el('span', { class: 'tool' }, view.toolName),
          el('span', { class: 'muted' }, ' on '),
          el('code', {}, view.serverId),
        ),
        el('div', { class: 'stream-actions' }, this.cancelButton, this.closeButton),
      ),
      el(
        'div',
        { class: 'stream-meta' },
        this.stats,
        el('span', { class: 'muted trace' }, ' · trace '),
        el('code', {}, view.traceId),
      ),
      this.bar.element,
      this.stateLine,
      this.determinism,
      this.lanes.element,
      this.note,
      this.scroller,
    );
    if (view.text) this.pushText(view.text, view.chunks, Date.now());
    this.totalChars = view.textLength;
    this.output.dropped = Math.max(0, view.textLength - view.text.length);
    if (view.progress) this.setProgress(view.progress);
  }

  get id(): string {
    return this.view.id;
  }

  get running(): boolean {
    return this.view.state === 'running';
  }

  /** Text waiting for the next frame; bounded by the cap while the panel is hidden and frames stop. */
  pushText(text: string, chunks: number, at: number): void {
    this.pending.push(text);
    this.pendingChars += text.length;
    this.totalChars += text.length;
    this.view.chunks = chunks;
    this.rate.add(at, chunks);
    if (this.pendingChars > this.cap * 2) {
      const joined = this.pending.join('');
      const kept = joined.slice(joined.length - this.cap);
      this.output.dropped += joined.length - kept.length;
      this.pending = [kept];
      this.pendingChars = kept.length;
    }
    this.dirty = true;
  }

  setProgress(progress: ProgressView): void {
    this.progress = progress;
    this.progressAt = Date.now();
    this.dirty = true;
  }

  end(view: StreamView): void {
    this.view = { ...view, text: '', chunks: Math.max(view.chunks, this.view.chunks) };
    if (view.jobs) this.lanes.setDuplicates(view.jobs.duplicates);
    this.dirty = true;
  }

  addJobEvent(event: JobEventView): void {
    this.lanes.add(event);
    this.dirty = true;
  }

  setSelected(selected: boolean): void {
    this.tab.setAttribute('aria-selected', String(selected));
    this.tab.tabIndex = selected ? 0 : -1;
    this.panel.hidden = !selected;
    if (selected) this.dirty = true;
  }

  /** Once per frame: appends what arrived, then updates the figures. */
  render(now: number): void {
    if (this.pendingChars) {
      const follow =
        !this.panel.hidden &&
        this.scroller.scrollHeight - this.scroller.scrollTop - this.scroller.clientHeight < 32;
      this.output.append(this.pending.length === 1 ? this.pending[0] : this.pending.join(''));
      this.pending = [];
      this.pendingChars = 0;
      if (follow) this.scroller.scrollTop = this.scroller.scrollHeight;
    }
    if (this.dirty || this.running) this.renderFigures(now);
    this.dirty = false;
  }

  private renderFigures(now: number): void {
    const v = this.view;
    const end = v.endedAt ?? now;
    const elapsed = Math.max(0, end - v.startedAt);
    const rate = this.running ? this.rate.rate(now) : elapsed > 0 ? (v.chunks * 1000) / elapsed : 0;
    this.stats.textContent = `${formatCount(v.chunks)} chunk${v.chunks === 1 ? '' : 's'} · ${rate > 0 && rate < 10 ? rate.toFixed(1) : formatCount(Math.round(rate))} chunks/s${this.running ? '' : ' on average'} · ${formatDuration(elapsed)}`;
    this.panel.dataset.state = v.state;
    this.panel.dataset.chunks = String(v.chunks);
    this.panel.dataset.rate = String(Math.round(rate));
    this.tab.dataset.state = v.state;
    this.tabMark.textContent = MARKS[v.state] ?? '◌';
    this.tab.title = `${v.serverId} · ${v.toolName}: ${v.state}`;
    this.bar.update(this.running ? this.progress : undefined, this.progressAt, now);
    this.cancelButton.hidden = !this.running;
    this.closeButton.hidden = this.running;
    this.stateLine.textContent = this.finalWords();
    this.stateLine.dataset.state = v.state;
    this.lanes.render();
    this.determinism.replaceChildren(...(v.determinism ? [determinismNode(v.determinism)] : []));
    const dropped = this.output.dropped;
    this.note.hidden = dropped === 0;
    if (dropped)
      (this.note.querySelector('.tail-words') as HTMLElement).textContent =
        `Showing the last ${formatCount(this.output.shownChars)} characters; the first ${formatBytes(dropped)} are not kept in this panel.`;
  }

  private finalWords(): string {
    const v = this.view;
    switch (v.state) {
      case 'running':
        return '';
      case 'done':
        return `${MARKS.done} Done: ${formatCount(this.totalChars)} characters.`;
      case 'cancelled':
        return `${MARKS.cancelled} Cancelled: the partial output (${formatCount(this.totalChars)} characters) is kept.`;
      case 'error':
        return `${MARKS.error} Ended with an error: ${v.error ?? 'unknown'}`;
    }
  }
}
