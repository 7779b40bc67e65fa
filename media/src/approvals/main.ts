import { el, focusedHere, type Child } from '../shared/dom';
import type {
  ApprovalsFromWebview,
  ApprovalsState,
  ApprovalsToWebview,
  DecisionView,
  GrantSection,
  GrantView,
  PendingRequestView,
} from '@shared/approvalsMessages';
import {
  ALLOW_SCOPES,
  allowScopeChoice,
  requesterName,
  type AllowScope,
} from '@shared/approvalScopes';

declare function acquireVsCodeApi(): { postMessage(message: ApprovalsFromWebview): void };

const vscode = acquireVsCodeApi();
const app = document.getElementById('app') as HTMLElement;
app.removeAttribute('aria-live'); // the whole panel re-renders on each change: only the notice announces itself

/** A button that posts `message`; `focusKey` lets focus survive a re-render. */
function button(
  label: string,
  message: ApprovalsFromWebview,
  focusKey: string,
  attrs: Record<string, string | undefined> = {},
): HTMLButtonElement {
  const node = el('button', { type: 'button', 'data-focus-key': focusKey, ...attrs }, label);
  node.addEventListener('click', () => {
    node.disabled = true;
    vscode.postMessage(message);
  });
  return node;
}

const RISK_MARK: Record<string, string> = { safe: '●', moderate: '◆', dangerous: '▲' };

function riskBadge(risk: string): HTMLElement {
  return el(
    'span',
    { class: `risk risk-${risk}`, 'data-risk': risk },
    `${RISK_MARK[risk] ?? '◆'} ${risk}`,
  );
}

function when(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const today = new Date().toDateString() === date.toDateString();
  return today
    ? date.toLocaleTimeString()
    : date.toLocaleString(undefined, {
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      });
}

/** The scope chosen beside each pending request's Allow, kept across re-renders. */
const chosenScope = new Map<string, AllowScope>();

/** One Allow with its scope chosen beside it, and Deny (VS Code's own pattern for tool approvals). */
function answerBar(request: PendingRequestView): HTMLElement {
  const scope = chosenScope.get(request.id) ?? 'once';
  const allow = el(
    'button',
    {
      type: 'button',
      class: 'primary',
      'data-focus-key': `answer:${request.id}:allow`,
      'data-answer': scope,
    },
    'Allow',
  );
  allow.addEventListener('click', () => {
    allow.disabled = true;
    const answer = chosenScope.get(request.id) ?? 'once';
    vscode.postMessage({ type: 'answer', requestId: request.id, answer });
  });
  const covers = el(
    'span',
    { class: 'covers muted', id: `covers-${request.id}` },
    allowScopeChoice(scope).covers(request.serverId, request.toolName),
  );
  const select = el(
    'select',
    {
      class: 'scope',
      'data-focus-key': `scope:${request.id}`,
      'aria-label': `How long the approval of ${request.toolName} lasts`,
      'aria-describedby': `covers-${request.id}`,
    },
    ...ALLOW_SCOPES.map((choice) =>
      el(
        'option',
        { value: choice.scope, ...(choice.scope === scope ? { selected: '' } : {}) },
        choice.label(request.serverId),
      ),
    ),
  ) as HTMLSelectElement;
  select.addEventListener('change', () => {
    const chosen = select.value as AllowScope;
    chosenScope.set(request.id, chosen);
    allow.dataset.answer = chosen;
    covers.textContent = allowScopeChoice(chosen).covers(request.serverId, request.toolName);
  });
  return el(
    'div',
    {
      class: 'actions',
      role: 'group',
      'aria-label': `Answer for ${request.serverId} · ${request.toolName}`,
    },
    allow,
    el('span', { class: 'for muted' }, 'for'),
    select,
    button(
      'Deny',
      { type: 'answer', requestId: request.id, answer: 'deny' },
      `answer:${request.id}:deny`,
      { class: 'deny', 'data-answer': 'deny' },
    ),
    covers,
  );
}

const ANSWER_TEXT: Record<DecisionView['answer'], string> = {
  once: 'Allowed once',
  session: 'Allowed this session',
  always: 'Always allowed in this workspace',
  server_session: 'Whole server allowed this session',
  deny: 'Denied',
  policy_denied: 'Denied by policy',
};

function fact(term: string, ...value: Child[]): Node[] {
  return [el('dt', {}, term), el('dd', {}, ...value)];
}

function pendingCard(request: PendingRequestView): HTMLElement {
  const heading = `request-${request.id}`;
  const sideEffects = request.sideEffects.length ? request.sideEffects.join(', ') : 'none declared';
  return el(
    'article',
    {
      class: `request risk-edge-${request.risk}`,
      'aria-labelledby': heading,
      'data-request': request.id,
      'data-server': request.serverId,
      'data-tool': request.toolName,
    },
    el(
      'h3',
      { id: heading },
      el('span', { class: 'server' }, request.serverId),
      ' · ',
      el('span', { class: 'tool' }, request.toolName),
    ),
    el(
      'dl',
      { class: 'facts' },
      ...fact(
        'Risk',
        el(
          'span',
          { title: `Where this risk comes from: ${request.riskSource}` },
          riskBadge(request.risk),
        ),
        ...(request.serverClaim
          ? [el('span', { class: 'claim' }, ` — the server claims "${request.serverClaim}"`)]
          : []),
      ),
      ...fact(
        'Changes',
        `${sideEffects}${request.reversible === false ? ' · cannot be undone' : ''}`,
      ),
      ...(request.permissions.length ? fact('Permissions', request.permissions.join(', ')) : []),
      ...fact(
        'Requested by',
        el('span', { title: `Agent id: ${request.agentId}` }, requesterName(request.agentId)),
        el('span', { class: 'muted' }, ` at ${when(request.requestedAt)}`),
      ),
      ...fact('Trace', el('code', {}, request.traceId)),
    ),
    el('div', { class: 'label' }, `Arguments${request.argsTruncated ? ' (shortened)' : ''}`),
    el(
      'pre',
      { class: 'args', tabindex: '0', 'aria-label': `Arguments of ${request.toolName}` },
      request.argsText,
    ),
    el(
      'div',
      { class: 'untrusted', role: 'note' },
      el('strong', {}, 'From the server — untrusted: '),
      request.description
        ? el('span', { class: 'description' }, request.description)
        : el('span', { class: 'muted' }, 'no description given.'),
      el(
        'div',
        { class: 'muted' },
        'Tool names and descriptions come from the server and may be misleading.',
      ),
    ),
    answerBar(request),
  );
}

function pendingSection(pending: PendingRequestView[]): HTMLElement {
  return el(
    'section',
    { 'aria-labelledby': 'pending-heading', id: 'pending' },
    el(
      'h2',
      { id: 'pending-heading', tabindex: '-1' },
      `Waiting for your answer (${pending.length})`,
    ),
    ...(pending.length
      ? pending.map(pendingCard)
      : [el('p', { class: 'empty' }, 'No tool call is waiting for approval.')]),
  );
}

/** A table that scrolls sideways on its own when the panel is narrow. */
function table(headers: string[], rows: HTMLTableRowElement[]): HTMLElement {
  return el(
    'div',
    { class: 'table-wrap' },
    el(
      'table',
      {},
      el('thead', {}, el('tr', {}, ...headers.map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, ...rows),
    ),
  );
}

const SECTIONS: { section: GrantSection; title: string; subject: string; decided: string }[] = [
  { section: 'tools', title: 'Tool approvals', subject: 'Tool', decided: 'Granted' },
  {
    section: 'permissions',
    title: 'Server permissions',
    subject: 'Permission',
    decided: 'Decided',
  },
  { section: 'access', title: 'Agent access', subject: 'Tool', decided: 'Granted' },
];

/** Revoke for what allows; Approve and Reset for a denied server permission (MGP §3). */
function grantActions(grant: GrantView): HTMLElement[] {
  const of = `${grant.serverId} ${grant.subject === '*' ? '' : grant.subject}`.trim();
  if (grant.decide) {
    const { serverId, permission } = grant.decide;
    return [
      button(
        'Approve',
        { type: 'permission', serverId, permission, action: 'approve' },
        `approve:${grant.key}`,
        { class: 'secondary small', 'aria-label': `Approve ${permission} for ${serverId}` },
      ),
      button(
        'Reset',
        { type: 'permission', serverId, permission, action: 'reset' },
        `reset:${grant.key}`,
        {
          class: 'secondary small',
          title: 'Forget this decision: the server is asked again',
          'aria-label': `Reset the decision on ${permission} for ${serverId}, to be asked again`,
        },
      ),
    ];
  }
  if (!grant.revoke) return [];
  return [
    button('Revoke', { type: 'revoke', target: grant.revoke }, `revoke:${grant.key}`, {
      class: 'secondary small',
      'aria-label': `Revoke ${grant.scope.toLowerCase()} of ${of}`,
    }),
  ];
}

function grantRow(grant: GrantView): HTMLTableRowElement {
  const expiry = grant.expiresAt
    ? `${grant.expired ? 'expired ' : ''}${when(grant.expiresAt)}`
    : grant.section === 'tools' && grant.scope !== 'Always allowed'
      ? 'end of session'
      : grant.decide
        ? 'until changed'
        : 'until revoked';
  const granted = [grant.grantedBy, when(grant.grantedAt)].filter(Boolean).join(', ');
  return el(
    'tr',
    { 'data-grant': grant.key, class: grant.expired ? 'expired' : undefined },
    el('td', {}, grant.serverId),
    el(
      'td',
      {},
      grant.subject === '*'
        ? el('span', { class: 'muted' }, 'every tool')
        : el('code', {}, grant.subject),
    ),
    el(
      'td',
      {},
      el('span', { class: `effect effect-${grant.effect}` }, grant.scope),
      ...(grant.note ? [el('div', { class: 'muted' }, grant.note)] : []),
    ),
    el('td', {}, granted || el('span', { class: 'muted' }, '—')),
    el('td', {}, expiry),
    el('td', { class: 'action' }, ...grantActions(grant)),
  );
}

function grantsSection(grants: GrantView[]): HTMLElement {
  const parts = SECTIONS.map(({ section, title, subject, decided }) => {
    const mine = grants.filter((g) => g.section === section);
    return el(
      'div',
      { class: 'grants', 'data-section': section },
      el('h3', {}, `${title} (${mine.length})`),
      mine.length
        ? table(['Server', subject, 'Grant', decided, 'Expires', ''], mine.map(grantRow))
        : el('p', { class: 'empty' }, 'None.'),
    );
  });
  return el(
    'section',
    { 'aria-labelledby': 'grants-heading', id: 'grants' },
    el('h2', { id: 'grants-heading' }, 'Standing grants'),
    ...parts,
  );
}

function historyRow(decision: DecisionView): HTMLTableRowElement {
  const denied = decision.answer === 'deny' || decision.answer === 'policy_denied';
  return el(
    'tr',
    { 'data-decision': decision.id, 'data-answer': decision.answer },
    el('td', {}, when(decision.decidedAt)),
    el('td', {}, decision.serverId),
    el('td', {}, el('code', {}, decision.toolName)),
    el('td', {}, riskBadge(decision.risk)),
    el(
      'td',
      {},
      el(
        'span',
        { class: `effect effect-${denied ? 'deny' : 'allow'}` },
        ANSWER_TEXT[decision.answer],
      ),
    ),
    el('td', { title: `Agent id: ${decision.agentId}` }, requesterName(decision.agentId)),
    el(
      'td',
      { class: 'action' },
      button(
        'Audit trail',
        { type: 'showTrace', traceId: decision.traceId },
        `trace:${decision.id}`,
        {
          class: 'link',
          title: `Show trace ${decision.traceId} in the audit trail`,
          'aria-label': `Show the audit events of this ${decision.toolName} call`,
        },
      ),
    ),
  );
}

function historySection(history: DecisionView[]): HTMLElement {
  return el(
    'section',
    { 'aria-labelledby': 'history-heading', id: 'history' },
    el('h2', { id: 'history-heading' }, `Past decisions (${history.length})`),
    history.length
      ? table(
          ['Time', 'Server', 'Tool', 'Risk', 'Answer', 'Requested by', ''],
          history.map(historyRow),
        )
      : el('p', { class: 'empty' }, 'No decision yet in this session.'),
  );
}

const notice = el('div', { class: 'notice', role: 'status', 'aria-live': 'polite' });
let lastState: ApprovalsState | undefined;

function render(state: ApprovalsState): void {
  const focused = focusedHere()?.dataset?.focusKey;
  const hadPending = new Set(lastState?.pending.map((p) => p.id));
  const arrived = state.pending.find((p) => !hadPending.has(p.id));
  lastState = state;
  app.replaceChildren(
    el(
      'header',
      {},
      el('h1', {}, 'Approvals'),
      el(
        'p',
        { class: 'muted' },
        'Tool calls that need your answer, what you decided, and what stays allowed until you revoke it.',
      ),
    ),
    notice,
    pendingSection(state.pending),
    grantsSection(state.grants),
    historySection(state.history),
  );
  app.dataset.state = 'ready';
  const again = focused
    ? document.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(focused)}"]`)
    : null;
  if (again) again.focus();
  else if (focused?.startsWith('answer:'))
    (
      document.querySelector<HTMLElement>('#pending [data-answer="once"]') ??
      document.getElementById('pending-heading')
    )?.focus();
  if (arrived)
    document
      .querySelector(`[data-request="${CSS.escape(arrived.id)}"]`)
      ?.scrollIntoView({ block: 'nearest' });
}

window.addEventListener('message', (event: MessageEvent<ApprovalsToWebview>) => {
  const message = event.data;
  if (message?.type === 'state') render(message.state);
  else if (message?.type === 'notice') {
    notice.textContent = message.text;
    notice.className = `notice ${message.level}`;
    if (lastState) render(lastState); // re-enable the buttons of a request that is still there
  }
});

app.replaceChildren(el('p', { class: 'muted' }, 'Loading…'));
vscode.postMessage({ type: 'ready' });
