/**
 * The Streaming Output panel: one tab per stream. Batches from the host are taken in as they come and
 * drawn once per animation frame; the DOM keeps at most CAP characters per stream.
 */
import type {
  StreamsFromWebview,
  StreamsToWebview,
  StreamUpdate,
  StreamView,
} from '@shared/streamMessages';
import { el } from '../shared/dom';
import { StreamTab } from './streamTab';

declare function acquireVsCodeApi(): { postMessage(message: StreamsFromWebview): void };

/** Characters of each stream kept in the DOM (the host keeps the same tail; the editor shows all). */
const CAP = 200_000;

const vscode = acquireVsCodeApi();
const app = document.getElementById('app') as HTMLElement;
const tabs = new Map<string, StreamTab>();
const tabList = el('div', { role: 'tablist', class: 'tabs', 'aria-label': 'Streams' });
const panels = el('div', { class: 'panels' });
const empty = el(
  'p',
  { class: 'empty' },
  'No streams yet. Run a tool with "Stream the output" in the Run Tool panel, or "Try it" in Tool Discovery: its output shows here live.',
);
let selected: StreamTab | undefined;
let ready = false;
let frame = 0;
/** The person picked a tab: new streams get a tab but do not take the view. */
let pinnedByUser = false;

const actions = {
  select: (tab: StreamTab) => {
    pinnedByUser = true;
    select(tab, true);
  },
  cancel: (id: string) => vscode.postMessage({ type: 'cancel', id }),
  openText: (id: string) => vscode.postMessage({ type: 'openText', id }),
  close: (tab: StreamTab) => {
    const ordered = [...tabs.values()];
    const index = ordered.indexOf(tab);
    tabs.delete(tab.id);
    tab.tab.remove();
    tab.panel.remove();
    if (selected === tab) {
      selected = undefined;
      const next = ordered[index + 1] ?? ordered[index - 1];
      if (next && next !== tab) select(next, true);
    }
    layout();
  },
};

function select(tab: StreamTab, focus = false): void {
  if (selected && selected !== tab) selected.setSelected(false);
  selected = tab;
  tab.setSelected(true);
  if (focus) tab.tab.focus();
  schedule();
}

function layout(): void {
  empty.hidden = tabs.size > 0;
  tabList.hidden = tabs.size === 0;
  app.dataset.streams = String(tabs.size);
}

function add(view: StreamView): StreamTab {
  const existing = tabs.get(view.id);
  if (existing) return existing;
  const tab = new StreamTab(view, CAP, actions);
  tabs.set(view.id, tab);
  tabList.append(tab.tab);
  panels.append(tab.panel);
  layout();
  return tab;
}

function apply(update: StreamUpdate, at: number): void {
  switch (update.kind) {
    case 'started': {
      const tab = add(update.stream);
      if (!selected || (!pinnedByUser && !selected.running) || (!pinnedByUser && selected === tab))
        select(tab);
      return;
    }
    case 'text':
      tabs.get(update.id)?.pushText(update.appended, update.chunks, at);
      return;
    case 'progress':
      tabs.get(update.id)?.setProgress(update.progress);
      return;
    case 'jobEvent':
      tabs.get(update.id)?.addJobEvent(update.event);
      return;
    case 'ended':
      tabs.get(update.stream.id)?.end(update.stream);
      return;
  }
}

function schedule(): void {
  if (!frame) frame = requestAnimationFrame(draw);
}

function draw(): void {
  frame = 0;
  const now = Date.now();
  for (const tab of tabs.values()) tab.render(now);
}

function onKey(event: KeyboardEvent): void {
  const ordered = [...tabs.values()];
  const index = ordered.findIndex((t) => t.tab === event.target);
  if (index < 0) return;
  const target = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: ordered.length - 1 }[
    event.key
  ];
  if (target === undefined) return;
  event.preventDefault();
  actions.select(ordered[(target + ordered.length) % ordered.length]);
}

window.addEventListener('message', (event: MessageEvent<StreamsToWebview>) => {
  const message = event.data;
  switch (message?.type) {
    case 'streams': {
      ready = true;
      for (const view of message.streams) add(view);
      const focus = message.focus ? tabs.get(message.focus) : undefined;
      const running = [...tabs.values()].filter((t) => t.running);
      const last = focus ?? running[running.length - 1] ?? [...tabs.values()].pop();
      if (last) select(last);
      if (focus) pinnedByUser = true;
      break;
    }
    case 'batch': {
      if (!ready) return;
      // The rate is timed by this page's clock, when the text arrives: a batch can take longer to
      // come than the rate's window (a remote or busy host), and timed by when it was sent, the
      // newest text would already look a window old.
      const at = Date.now();
      for (const update of message.updates) apply(update, at);
      break;
    }
    case 'focus': {
      const tab = tabs.get(message.id);
      if (tab) actions.select(tab);
      break;
    }
  }
  schedule();
});

// Elapsed time, rate and time left move on while a stream runs, even between batches.
setInterval(() => {
  if ([...tabs.values()].some((t) => t.running)) schedule();
}, 250);

tabList.addEventListener('keydown', onKey);
app.replaceChildren(el('h1', {}, 'Streaming Output'), empty, tabList, panels);
layout();
vscode.postMessage({ type: 'ready' });
