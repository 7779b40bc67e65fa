import type { AuditFromWebview, AuditToWebview } from '@shared/auditMessages';
import { DetailPane } from './detail';
import { el } from './dom';
import { VirtualTable } from './table';
import { Toolbar } from './toolbar';

interface SavedState {
  follow?: boolean;
  scrollTop?: number;
}

declare function acquireVsCodeApi(): {
  postMessage(message: AuditFromWebview): void;
  getState(): SavedState | undefined;
  setState(state: SavedState): void;
};

const vscode = acquireVsCodeApi();
const post = (message: AuditFromWebview) => vscode.postMessage(message);
const saved: SavedState = vscode.getState() ?? {};
const app = document.getElementById('app') as HTMLElement;
app.removeAttribute('aria-live'); // the status line and badge announce themselves; the table must not

const save = () => vscode.setState({ follow: table.follow, scrollTop: table.scrollTop });

const detail = new DetailPane({
  close: () => {
    detail.hide();
    table.setSelected(undefined);
    table.focus();
  },
  filterTrace: (traceId) => toolbar.show({ ...toolbar.options, filter: { traceId } }),
});

const table = new VirtualTable({
  requestRows: (version, start, count) => post({ type: 'rows', version, start, count }),
  openRecord: (seq) => {
    detail.loading(seq);
    table.setSelected(seq);
    post({ type: 'detail', seq });
  },
  toggleGroup: (trace) => post({ type: 'toggleGroup', trace }),
  followChanged: (follow) => {
    toolbar.setFollow(follow);
    save();
  },
  orderChanged: (newestFirst) => toolbar.setNewestFirst(newestFirst),
});

const toolbar = new Toolbar({
  optionsChanged: (options, seq) => post({ type: 'setOptions', options, seq }),
  expandAll: (expanded) => post({ type: 'expandAll', expanded }),
  followChanged: (follow) => {
    table.follow = follow;
    if (follow) table.scrollToLive();
    save();
  },
  export: (format, encrypt) => post({ type: 'export', format, ...(encrypt ? { encrypt } : {}) }),
  verify: () => post({ type: 'verify' }),
});

const notice = el('div', { class: 'notice', role: 'status' });
let noticeTimer = 0;
app.replaceChildren(
  toolbar.element,
  notice,
  el('div', { class: 'content' }, table.element, detail.element),
);
table.measure();
// Newest first at the top, following by default: new events appear where the eye already is.
table.follow = saved.follow ?? true;
toolbar.setFollow(table.follow);
let restoreScroll = saved.scrollTop;

window.addEventListener('message', (event: MessageEvent<AuditToWebview>) => {
  const message = event.data;
  switch (message?.type) {
    case 'source':
      toolbar.setSource(message.source);
      return;
    case 'indexing':
      toolbar.setIndexing(message.records);
      return;
    case 'view':
      toolbar.setView(message.view, message.optionsSeq);
      table.setView(message.view);
      if (restoreScroll !== undefined && !table.follow) table.scrollTo(restoreScroll);
      restoreScroll = undefined;
      app.dataset.state = 'ready';
      return;
    case 'rows':
      table.receive(message.version, message.start, message.items);
      return;
    case 'detail':
      detail.show(message.seq, message.record, message.problem);
      return;
    case 'verify':
      toolbar.setVerify(message.verify);
      return;
    case 'notice':
      notice.textContent = message.text;
      notice.className = `notice ${message.level}`;
      clearTimeout(noticeTimer);
      noticeTimer = window.setTimeout(() => (notice.textContent = ''), 15000);
      return;
  }
});

window.addEventListener('pagehide', save);
document.addEventListener('visibilitychange', save);
post({ type: 'ready' });
