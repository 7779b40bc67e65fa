/**
 * The elicitation form: a server asks for information, the person sees every field at once (from the
 * requested schema) and answers Submit, Decline or Cancel.
 */
import type { ElicitationFromWebview, ElicitationToWebview } from '@shared/elicitationMessages';
import { button, el } from '../shared/dom';
import { SchemaForm } from '../shared/schemaForm';
import type { Schema } from '../shared/schemaModel';

declare function acquireVsCodeApi(): { postMessage(message: ElicitationFromWebview): void };

const vscode = acquireVsCodeApi();
const app = document.getElementById('app') as HTMLElement;

let form: SchemaForm | undefined;

function render(ask: Extract<ElicitationToWebview, { type: 'ask' }>): void {
  form = new SchemaForm(ask.schema as Schema, { onChange: () => undefined });
  const submit = () => {
    if (!form) return;
    const { value, problems } = form.value();
    form.revealAll();
    if (problems.length || !value) {
      form.showErrors(problems);
      form.focusFirstError();
      return;
    }
    app.dataset.state = 'checking';
    vscode.postMessage({ type: 'accept', content: value });
  };
  const formNode = el(
    'form',
    { class: 'elicitation-form', novalidate: 'true' },
    form.element,
    el(
      'div',
      { class: 'actions' },
      el('button', { type: 'submit', class: 'primary', 'data-answer': 'accept' }, 'Submit'),
      button('Decline', () => vscode.postMessage({ type: 'decline' }), {
        class: 'secondary',
        'data-answer': 'decline',
        title: 'Say no: the server is told you declined',
      }),
      button('Cancel', () => vscode.postMessage({ type: 'cancel' }), {
        class: 'secondary',
        'data-answer': 'cancel',
        title: 'Dismiss without answering',
      }),
    ),
  );
  formNode.addEventListener('submit', (event) => {
    event.preventDefault();
    submit();
  });
  formNode.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      submit();
    }
  });
  app.replaceChildren(
    el(
      'header',
      {},
      el('h1', {}, el('code', { class: 'server-id' }, ask.serverId), ' asks for information'),
    ),
    el(
      'div',
      { class: 'untrusted', role: 'note' },
      el('strong', {}, 'From the server — untrusted: '),
      el('span', { class: 'message' }, ask.message),
    ),
    formNode,
    el('p', { class: 'muted' }, 'Only what you submit is sent to the server. Ctrl+Enter submits.'),
  );
  app.dataset.state = 'ready';
  app.querySelector<HTMLElement>('input, select, textarea')?.focus();
}

/** The host refused the answer against the requested schema: each problem next to its field. */
function refused(errors: { pointer: string; message: string }[]): void {
  form?.showErrors(errors);
  form?.focusFirstError();
  app.dataset.state = 'refused';
}

window.addEventListener('message', (event: MessageEvent<ElicitationToWebview>) => {
  if (event.data?.type === 'ask') render(event.data);
  else if (event.data?.type === 'refused') refused(event.data.errors);
});

app.replaceChildren(el('p', { class: 'muted' }, 'Loading…'));
vscode.postMessage({ type: 'ready' });
