/**
 * The Run Tool panel: a picker of every tool; for the chosen one its effective security, a form from
 * its inputSchema, Run, the result, and its history. Each tool opened keeps its own form and run, so
 * switching away and back keeps what was typed and a run going on.
 */
import type {
  RunToolFromWebview,
  RunToolToWebview,
  ToolChoiceView,
  ToolKey,
  ToolView,
} from '@shared/toolPanelMessages';
import { button, el } from '../shared/dom';
import { ToolRun } from '../shared/toolRun';
import { securityFacts, untrustedDescription } from '../shared/toolParts';
import { HistoryView } from './history';

interface SavedState {
  /** Tool id → whether the person last ticked "Stream the output" for it. */
  stream?: Record<string, boolean>;
}

declare function acquireVsCodeApi(): {
  postMessage(message: RunToolFromWebview): void;
  getState(): SavedState | undefined;
  setState(state: SavedState): void;
};

interface Pane {
  /** The tool as last shown: the same again (the server reconnected) keeps the pane. */
  shown: string;
  element: HTMLElement;
  run: ToolRun;
}

const vscode = acquireVsCodeApi();
const post = (message: RunToolFromWebview) => vscode.postMessage(message);
const app = document.getElementById('app') as HTMLElement;
const panes = new Map<string, Pane>();
const idOf = (key: ToolKey) => `${key.serverId}\u0000${key.toolName}`;
let selected: ToolKey | undefined;

const picker = el('select', { id: 'tool-picker', class: 'tool-picker' });
picker.addEventListener('change', () => {
  const [serverId, toolName] = picker.value.split('\u0000');
  if (serverId && toolName) post({ type: 'select', serverId, toolName });
});
const gone = el('div', { class: 'notice warning', role: 'status', hidden: 'true' });
const paneSlot = el('div', { class: 'tool-pane' });
const history = new HistoryView({
  post,
  load: (args) => current()?.run.load(args),
  rerun: (args) => current()?.run.rerun(args),
  rerunWithSeed: (args, seed) => current()?.run.rerunWithSeed(args, seed),
  takesSeed: () => current()?.run.takesSeed === true,
});

function current(): Pane | undefined {
  return selected ? panes.get(idOf(selected)) : undefined;
}

function showChoices(tools: ToolChoiceView[], chosen: ToolKey): void {
  const byServer = new Map<string, ToolChoiceView[]>();
  for (const tool of tools)
    byServer.set(tool.serverId, [...(byServer.get(tool.serverId) ?? []), tool]);
  const groups = [...byServer].map(([serverId, list]) =>
    el(
      'optgroup',
      { label: list[0]?.kernel ? `${serverId} (kernel)` : serverId },
      ...list.map((tool) =>
        el(
          'option',
          { value: idOf(tool) },
          `${tool.toolName}${tool.title ? ` — ${tool.title}` : ''} (${tool.risk})`,
        ),
      ),
    ),
  );
  const listed = tools.some((t) => idOf(t) === idOf(chosen));
  const missing = listed
    ? []
    : [
        el(
          'option',
          { value: idOf(chosen) },
          `${chosen.serverId} · ${chosen.toolName} (not available now)`,
        ),
      ];
  picker.replaceChildren(...missing, ...groups);
  picker.value = idOf(chosen);
}

function paneOf(tool: ToolView): Pane {
  const id = idOf(tool);
  const shown = JSON.stringify(tool);
  const existing = panes.get(id);
  if (existing && existing.shown === shown) return existing;
  const run = new ToolRun(tool, {
    post,
    stream: tool.kernel ? 'never' : 'checkbox',
    streamChoice: {
      checked: vscode.getState()?.stream?.[id] ?? false,
      onChange: (checked) => {
        const saved = vscode.getState() ?? {};
        vscode.setState({ ...saved, stream: { ...saved.stream, [id]: checked } });
      },
    },
    runLabel: 'Run',
    workbench: true,
    tasks: true,
  });
  const element = el(
    'div',
    { class: 'tool', 'data-tool': `${tool.serverId}.${tool.toolName}` },
    el(
      'header',
      {},
      el(
        'h1',
        {},
        el('span', { class: 'tool-name' }, tool.toolName),
        tool.title ? el('span', { class: 'muted tool-title' }, ` — ${tool.title}`) : '',
      ),
      el(
        'p',
        { class: 'muted' },
        tool.kernel ? 'A kernel tool' : 'On server ',
        tool.kernel ? '' : el('code', { class: 'server-id' }, tool.serverId),
        el('span', { class: 'keys' }, ' · Ctrl+Enter runs'),
      ),
    ),
    untrustedDescription(tool.description),
    el(
      'section',
      { 'aria-labelledby': 'security-heading' },
      el('h2', { id: 'security-heading' }, 'Security (effective)'),
      securityFacts(tool.security),
    ),
    el(
      'section',
      { 'aria-labelledby': 'args-heading' },
      el('h2', { id: 'args-heading' }, 'Arguments'),
      run.element,
    ),
  );
  const pane = { shown, element, run };
  panes.set(id, pane);
  return pane;
}

function showTool(tool: ToolView): void {
  selected = { serverId: tool.serverId, toolName: tool.toolName };
  const pane = paneOf(tool);
  pane.run.setAvailable(true);
  gone.hidden = true;
  if (paneSlot.firstElementChild !== pane.element) paneSlot.replaceChildren(pane.element);
  document.title = `Run ${tool.serverId} · ${tool.toolName}`;
  app.dataset.tool = `${tool.serverId}.${tool.toolName}`;
  app.dataset.state = 'ready';
}

/** What the notice says and offers: a switch the person turned off is theirs to turn on again. */
function goneNotice(message: RunToolToWebview & { type: 'toolGone' }): (Node | string)[] {
  const { key, reason, turnedOff } = message;
  if (!turnedOff)
    return [`This tool is not available now: ${reason}. It can run again when the server is back.`];
  const what = turnedOff === 'server' ? 'its server is' : 'it is';
  return [
    `This tool is turned off: ${reason}, so ${what} not offered to you or to agents, and a call of it is refused. `,
    button(turnedOff === 'server' ? 'Turn Server On' : 'Turn On', () =>
      post({ type: 'turnOn', ...key }),
    ),
  ];
}

function showGone(message: RunToolToWebview & { type: 'toolGone' }): void {
  const { key } = message;
  selected = key;
  gone.replaceChildren(...goneNotice(message));
  gone.hidden = false;
  const pane = panes.get(idOf(key));
  pane?.run.setAvailable(false);
  paneSlot.replaceChildren(...(pane ? [pane.element] : []));
  document.title = `Run ${key.serverId} · ${key.toolName}`;
  app.dataset.tool = `${key.serverId}.${key.toolName}`;
}

window.addEventListener('message', (event: MessageEvent<RunToolToWebview>) => {
  const message = event.data;
  switch (message?.type) {
    case 'tools':
      showChoices(message.tools, message.selected);
      return;
    case 'tool':
      showTool(message.tool);
      return;
    case 'toolGone':
      showGone(message);
      return;
    case 'history':
      if (selected && idOf(message) === idOf(selected)) history.show(message, message.entries);
      return;
    case 'copied':
      current()?.run.handle(message);
      return;
    default:
      if (message) for (const pane of panes.values()) if (pane.run.handle(message)) return;
  }
});

app.replaceChildren(
  el('div', { class: 'picker-row' }, el('label', { for: 'tool-picker' }, 'Tool'), picker),
  gone,
  paneSlot,
  history.element,
);
post({ type: 'ready' });
