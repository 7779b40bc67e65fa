/**
 * One task delegated to an external A2A agent: its state, the states it passed through, the messages
 * both ways and the artifacts; Refresh, Cancel while it runs, and a box to answer when the agent asks
 * for input. Everything the agent sent is set as text and marked as the agent's words.
 */
import {
  type AgentArtifactView,
  type AgentMessageView,
  type AgentPartView,
  type AgentTaskFromWebview,
  type AgentTaskToWebview,
  type AgentTaskView,
  MAX_ANSWER_CHARS,
} from '@shared/agentTaskMessages';
import { button, el, focusedHere } from '../shared/dom';

declare function acquireVsCodeApi(): { postMessage(message: AgentTaskFromWebview): void };

const vscode = acquireVsCodeApi();
const app = document.getElementById('app') as HTMLElement;
app.removeAttribute('aria-live');

const STATE_WORDS: Record<string, string> = {
  submitted: 'Submitted',
  working: 'Working',
  'input-required': 'Waiting for your answer',
  'auth-required': 'Waiting for sign-in',
  completed: 'Completed',
  failed: 'Failed',
  canceled: 'Cancelled',
  rejected: 'Rejected',
  unknown: 'Unknown',
};
const STATE_MARKS: Record<string, string> = {
  completed: '✓',
  failed: '✗',
  rejected: '✗',
  canceled: '⊘',
  'input-required': '?',
  'auth-required': '?',
};

const header = el('header', {});
const notice = el('p', { class: 'notice', role: 'status' });
const body = el('div', { class: 'task-body' });
let busy = false;
let current: AgentTaskView | undefined;

const refreshButton = button('Refresh', () => act({ type: 'refresh' }, 'Reading the task…'), {
  class: 'secondary',
  title: 'Read the task from the agent again (get_task)',
});
const cancelButton = button('Cancel Task', () => act({ type: 'cancel' }, 'Cancelling…'), {
  class: 'deny',
  title: 'Cancel the task at the agent (cancel_task)',
});
const answerBox = el('textarea', {
  class: 'answer-text',
  rows: '3',
  maxlength: String(MAX_ANSWER_CHARS),
  'aria-label': 'Your answer to the agent',
  placeholder: 'Your answer; Ctrl+Enter sends it',
});
const answerButton = el('button', { type: 'submit', class: 'primary' }, 'Send Answer');
const answerForm = el(
  'form',
  { class: 'answer' },
  el('h2', {}, 'Answer the agent'),
  answerBox,
  el(
    'p',
    { class: 'muted' },
    'Your answer goes to the agent through the kernel, as a delegation of this task: asked and audited like any.',
  ),
  answerButton,
);

function act(message: AgentTaskFromWebview, doing: string): void {
  if (busy) return;
  busy = true;
  notice.textContent = doing;
  notice.className = 'notice';
  setButtons();
  vscode.postMessage(message);
}

function sendAnswer(): void {
  const text = answerBox.value;
  if (!text.trim()) return;
  act({ type: 'answer', text }, 'Sending your answer…');
}

answerForm.addEventListener('submit', (event) => {
  event.preventDefault();
  sendAnswer();
});
answerBox.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    sendAnswer();
  }
});

function setButtons(): void {
  refreshButton.disabled = busy;
  cancelButton.disabled = busy || !current || current.ended;
  answerButton.disabled = busy;
  answerBox.disabled = busy;
}

function time(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

function stateLabel(state: string): HTMLElement {
  const mark = STATE_MARKS[state];
  return el(
    'span',
    { class: `state state-${state}` },
    mark ? `${mark} ` : '',
    STATE_WORDS[state] ?? state,
  );
}

function part(view: AgentPartView): HTMLElement {
  if (view.kind === 'text') return el('div', { class: 'part text' }, view.text);
  if (view.kind === 'data') return el('pre', { class: 'part data' }, view.text);
  return el('div', { class: 'part file' }, el('span', { class: 'muted' }, 'File: '), view.text);
}

function message(view: AgentMessageView): HTMLElement {
  const who =
    view.role === 'agent'
      ? el('span', { class: 'author', title: "The agent's words, not verified" }, 'Agent')
      : el('span', { class: 'author' }, 'Sent to the agent');
  return el(
    'li',
    { class: `message ${view.role}`, 'data-role': view.role },
    el('div', { class: 'meta' }, who),
    ...view.parts.map(part),
  );
}

function artifact(view: AgentArtifactView, index: number): HTMLElement {
  return el(
    'li',
    { class: 'artifact' },
    el('h3', {}, view.name ?? `Artifact ${index + 1}`),
    view.description ? el('p', { class: 'muted' }, view.description) : '',
    ...view.parts.map(part),
  );
}

function facts(task: AgentTaskView): HTMLElement {
  const rows: [string, Node | string][] = [
    ['State', stateLabel(task.state)],
    ['Agent', `${task.agentName} (${task.serverId})`],
  ];
  if (task.cardName)
    rows.push(['Its card names it', el('span', { class: 'untrusted' }, task.cardName)]);
  if (task.endpoint) rows.push(['Endpoint', el('code', {}, task.endpoint)]);
  if (task.dialect) rows.push(['Speaks', task.dialect]);
  rows.push(['Task id', el('code', {}, task.taskId)]);
  if (task.contextId) rows.push(['Context id', el('code', {}, task.contextId)]);
  rows.push(['Started', time(task.startedAt)], ['Last seen', time(task.updatedAt)]);
  return el(
    'dl',
    { class: 'facts' },
    ...rows.flatMap(([term, value]) => [el('dt', {}, term), el('dd', {}, value)]),
  );
}

function show(task: AgentTaskView): void {
  current = task;
  const focused = focusedHere();
  header.replaceChildren(
    el(
      'h1',
      {},
      'Task ',
      el('code', {}, task.taskId.slice(0, 8)),
      ' ',
      el('span', { class: 'muted' }, `· ${task.agentName}`),
    ),
    el('div', { class: 'actions' }, refreshButton, task.ended ? '' : cancelButton),
  );
  const sections: HTMLElement[] = [facts(task)];
  if (task.statusText)
    sections.push(
      el(
        'section',
        { class: `status-message${task.waiting ? ' waiting' : ''}` },
        el('h2', {}, task.waiting ? 'The agent asks' : 'Its last word'),
        el('p', { class: 'muted' }, "The agent's words, not verified."),
        el('div', { class: 'part text' }, task.statusText),
      ),
    );
  if (task.waiting && task.state === 'input-required') sections.push(answerForm);
  sections.push(
    el('h2', {}, 'Messages'),
    task.messages.length
      ? el('ol', { class: 'messages', 'aria-label': 'Messages' }, ...task.messages.map(message))
      : el(
          'p',
          { class: 'empty' },
          task.firstMessage ? `Sent: ${task.firstMessage}` : 'No messages kept.',
        ),
    el('h2', {}, 'Artifacts'),
    task.artifacts.length
      ? el('ol', { class: 'artifacts', 'aria-label': 'Artifacts' }, ...task.artifacts.map(artifact))
      : el('p', { class: 'empty' }, 'No artifacts.'),
    el('h2', {}, 'History'),
    el(
      'ol',
      { class: 'states', 'aria-label': 'States' },
      ...task.states.map((seen) =>
        el('li', {}, el('time', { datetime: seen.at }, time(seen.at)), ' ', stateLabel(seen.state)),
      ),
    ),
  );
  body.replaceChildren(...sections);
  setButtons();
  if (focused === answerBox && answerForm.isConnected) answerBox.focus();
  app.dataset.state = task.state;
}

window.addEventListener('message', (event: MessageEvent<AgentTaskToWebview>) => {
  const data = event.data;
  if (data?.type === 'show') show(data.task);
  else if (data?.type === 'gone') {
    current = undefined;
    header.replaceChildren(el('h1', {}, 'Task not kept'));
    body.replaceChildren(el('p', { class: 'empty' }, data.message));
    app.dataset.state = 'gone';
  } else if (data?.type === 'done') {
    busy = false;
    if (data.error) {
      notice.textContent = `${data.action === 'cancel' ? 'Not cancelled' : data.action === 'answer' ? 'Not sent' : 'Not read'}: ${data.error}`;
      notice.className = 'notice error';
    } else {
      notice.textContent = '';
      notice.className = 'notice';
      if (data.action === 'answer') answerBox.value = '';
    }
    setButtons();
  }
});

app.replaceChildren(header, notice, body);
vscode.postMessage({ type: 'ready' });
