/**
 * One MCPL channel: its messages (the newest at the bottom, drawn again as they come) and a box to
 * post into it. Everything the server sent is set as text, and marked as the server's.
 */
import type {
  ChannelFromWebview,
  ChannelHeader,
  ChannelLine,
  ChannelToWebview,
} from '@shared/channelMessages';
import { MAX_POST_CHARS } from '@shared/channelMessages';
import { el, focusedHere } from '../shared/dom';

declare function acquireVsCodeApi(): { postMessage(message: ChannelFromWebview): void };

const vscode = acquireVsCodeApi();
const app = document.getElementById('app') as HTMLElement;
app.removeAttribute('aria-live');

const header = el('header', {});
const list = el('ol', { class: 'messages', 'aria-label': 'Messages', 'aria-live': 'polite' });
const notice = el('p', { class: 'notice', role: 'status' });
const box = el('textarea', {
  class: 'post-text',
  rows: '3',
  maxlength: String(MAX_POST_CHARS),
  'aria-label': 'Message to post',
  placeholder: 'Write a message; Ctrl+Enter posts it',
});
const postButton = el('button', { type: 'submit', class: 'primary' }, 'Post');
const form = el('form', { class: 'post' }, box, postButton);
let sending = false;

function post(): void {
  const text = box.value;
  if (sending || !text.trim()) return;
  sending = true;
  postButton.disabled = true;
  notice.textContent = 'Posting…';
  notice.className = 'notice';
  vscode.postMessage({ type: 'publish', text });
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  post();
});
box.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    post();
  }
});

function time(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString();
}

function line(message: ChannelLine): HTMLElement {
  const from =
    message.direction === 'incoming'
      ? el(
          'span',
          { class: 'author untrusted-author', title: 'Named by the server' },
          message.author,
        )
      : el('span', { class: 'author' }, message.author);
  return el(
    'li',
    {
      class: `message ${message.direction}`,
      'data-message-id': message.messageId,
      'data-direction': message.direction,
    },
    el(
      'div',
      { class: 'meta' },
      from,
      el('time', { datetime: message.timestamp }, time(message.timestamp)),
    ),
    el('div', { class: 'text' }, message.text),
  );
}

function showHeader(h: ChannelHeader): void {
  header.replaceChildren(
    el(
      'h1',
      {},
      el('code', {}, h.channelId),
      ' ',
      el('span', { class: 'muted' }, `on ${h.serverId}`),
    ),
    el(
      'p',
      { class: 'muted' },
      'From the server — untrusted: ',
      el('span', { class: 'label-text' }, h.label),
      ` · ${h.type} · ${h.direction}${h.open ? '' : ' · closed'}${h.agentAttached ? ' · @mgp answers here' : ''}`,
    ),
  );
  const refusal = h.publishRefusal;
  box.disabled = Boolean(refusal);
  postButton.disabled = Boolean(refusal) || sending;
  form.title = refusal ? `You cannot post here: ${refusal}` : '';
  if (refusal) {
    notice.textContent = `You cannot post here: ${refusal}`;
    notice.className = 'notice warning';
  }
}

function show(h: ChannelHeader, lines: ChannelLine[]): void {
  showHeader(h);
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  const focused = focusedHere();
  list.replaceChildren(
    ...(lines.length ? lines.map(line) : [el('li', { class: 'empty' }, 'No messages yet.')]),
  );
  if (atBottom) list.scrollTop = list.scrollHeight;
  if (focused === box) box.focus();
  app.dataset.state = 'ready';
}

window.addEventListener('message', (event: MessageEvent<ChannelToWebview>) => {
  const message = event.data;
  if (message?.type === 'show') show(message.header, message.lines);
  else if (message?.type === 'posted') {
    sending = false;
    postButton.disabled = box.disabled;
    if (message.error) {
      notice.textContent = `Not posted: ${message.error}`;
      notice.className = 'notice error';
    } else {
      box.value = '';
      notice.textContent = '';
      notice.className = 'notice';
    }
  }
});

app.replaceChildren(header, list, notice, form);
vscode.postMessage({ type: 'ready' });
