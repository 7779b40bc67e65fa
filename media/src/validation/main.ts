/**
 * The validation report page: a server's checks grouped by tier as they end, each with its status,
 * the sections it cites as links (they open the spec at that section), what was seen, and for a FAIL
 * what was expected, what came and the exchange; the result line; Re-run. What the server sent is
 * set as text. Opened exchanges and the keyboard focus survive each redraw.
 */
import { sectionLinks } from '@shared/specSections';
import type {
  ValidationCheckView,
  ValidationFromWebview,
  ValidationResultView,
  ValidationToWebview,
  ValidationView,
} from '@shared/validationMessages';
import { button, el, focusedHere, formatDuration, type Child } from '../shared/dom';

declare function acquireVsCodeApi(): { postMessage(message: ValidationFromWebview): void };

const vscode = acquireVsCodeApi();
const post = (message: ValidationFromWebview) => vscode.postMessage(message);
const app = document.getElementById('app') as HTMLElement;

const STATUS = {
  pass: '✓ PASS',
  fail: '✕ FAIL',
  missing: '– MISSING',
  skipped: '○ SKIPPED',
} as const;

const GROUPS: [group: string, title: string, about: string][] = [
  ['MCP', 'Base MCP', 'What every MCP server must do (MCP 2025-11-25).'],
  ['Tier 1', 'Tier 1', 'Negotiation, security metadata, permission declarations.'],
  ['Tier 2', 'Tier 2', 'The permission flow, audit, structured errors, access control.'],
  ['Tier 3', 'Tier 3', 'Health and lifecycle, streaming, events and callbacks, discovery.'],
  ['Tier 4', 'Tier 4', 'Dynamic tool discovery.'],
  ['MCPL', 'MCPL', 'MCP Live, for a server that advertises it.'],
];

/** Exchanges the person opened, by check id: kept open when the page draws again. */
const opened = new Set<string>();
let allowDangerous = false;

function sectionRefs(section: string): Child[] {
  const links = sectionLinks(section);
  if (!links.length) return [section];
  return links.flatMap((link, index) => [
    ...(index ? [', '] : []),
    button(link.label, () => post({ type: 'openSection', spec: link.spec, anchor: link.anchor }), {
      class: 'link',
      'data-focus-key': `${link.label}`,
      title: link.spec === 'mcp' ? 'Open the MCP specification' : `Open ${link.label}`,
    }),
  ]);
}

function facts(rows: [string, Child, string][]): HTMLElement {
  return el(
    'dl',
    { class: 'facts' },
    ...rows.flatMap(([term, value, id]) => [
      el('dt', {}, term),
      el('dd', { 'data-fact': id }, value),
    ]),
  );
}

function failure(check: ValidationCheckView): HTMLElement[] {
  const rows: [string, Child, string][] = [];
  if (check.expected) rows.push(['Expected', check.expected, 'expected']);
  if (check.received) rows.push(['Came', el('code', {}, check.received), 'received']);
  const parts: HTMLElement[] = rows.length ? [facts(rows)] : [];
  if (check.exchange) {
    const details = el(
      'details',
      { class: 'exchange' },
      el('summary', {}, 'The exchange that showed it'),
      el('h4', {}, 'Sent'),
      el('pre', {}, check.exchange.sent),
      el('h4', {}, 'Answer'),
      el('pre', {}, check.exchange.received),
    );
    details.open = opened.has(check.id);
    details.addEventListener('toggle', () =>
      details.open ? opened.add(check.id) : opened.delete(check.id),
    );
    parts.push(details);
  }
  return parts;
}

function checkItem(check: ValidationCheckView): HTMLElement {
  return el(
    'li',
    { class: `check status-${check.status}`, 'data-check': check.id, 'data-status': check.status },
    el(
      'div',
      { class: 'check-head' },
      el('span', { class: `status status-${check.status}` }, STATUS[check.status]),
      ' ',
      el('span', { class: 'check-title' }, check.title),
      ' ',
      el('span', { class: 'section muted' }, '(', ...sectionRefs(check.section), ')'),
    ),
    el('p', { class: 'detail' }, check.detail),
    ...(check.status === 'fail' ? failure(check) : []),
    ...(check.advice && check.status !== 'pass'
      ? [el('p', { class: 'advice' }, el('strong', {}, 'To do: '), check.advice)]
      : []),
  );
}

function groups(view: ValidationView): HTMLElement[] {
  return GROUPS.flatMap(([group, title, about]) => {
    const checks = view.checks.filter((check) => check.group === group);
    if (!checks.length) return [];
    const id = `group-${group.replace(' ', '-').toLowerCase()}`;
    const failed = checks.filter((check) => check.status === 'fail').length;
    const passed = checks.filter((check) => check.status === 'pass').length;
    return [
      el(
        'section',
        { 'aria-labelledby': id, 'data-group': group },
        el(
          'h2',
          { id },
          title,
          ' ',
          el(
            'span',
            { class: 'muted count' },
            `${passed} of ${checks.length} pass${failed ? ` · ${failed} fail` : ''}`,
          ),
        ),
        el('p', { class: 'muted' }, about),
        el('ul', { class: 'checks' }, ...checks.map(checkItem)),
      ),
    ];
  });
}

function result(r: ValidationResultView): HTMLElement[] {
  const rows: [string, Child, string][] = [];
  if (r.server) rows.push(['Server says it is', r.server, 'server']);
  if (r.protocolVersion) rows.push(['MCP version', r.protocolVersion, 'protocol']);
  rows.push(['MGP', r.mgpVersion ? `MGP ${r.mgpVersion}` : 'does not speak MGP', 'mgp']);
  if (r.mcpl) rows.push(['MCPL', r.mcpl, 'mcpl']);
  if (r.isolation) rows.push(['Server process', r.isolation, 'isolation']);
  rows.push([
    'Validated',
    `${new Date(r.startedAt).toLocaleString()} · took ${formatDuration(r.durationMs)}`,
    'when',
  ]);
  const badge = r.mcpCompliant && r.tier > 0 ? `MGP Tier ${r.tier}` : 'no MGP tier';
  return [
    el(
      'p',
      { class: 'result', role: 'status', 'data-tier': String(r.tier) },
      el('span', { class: 'tier-badge' }, badge),
      ' ',
      el('span', { 'data-result': '' }, r.result),
    ),
    facts(rows),
  ];
}

function toolbar(view: ValidationView): HTMLElement {
  const dangerous = el('input', {
    type: 'checkbox',
    id: 'allow-dangerous',
    'data-focus-key': 'allow-dangerous',
  });
  dangerous.checked = allowDangerous;
  dangerous.disabled = view.running;
  dangerous.addEventListener('change', () => (allowDangerous = dangerous.checked));
  return el(
    'div',
    { class: 'actions', role: 'toolbar', 'aria-label': 'Validation' },
    button(
      view.running ? 'Running…' : view.result || view.error ? 'Re-run' : 'Validate',
      () => post({ type: 'rerun', allowDangerous }),
      {
        'data-action': 'rerun',
        disabled: view.running ? '' : undefined,
      },
    ),
    el('label', { class: 'option' }, dangerous, ' Let checks call tools marked dangerous'),
    button('Show server', () => post({ type: 'showServer' }), {
      class: 'secondary',
      'data-action': 'showServer',
    }),
  );
}

function progress(view: ValidationView): HTMLElement[] {
  if (view.running)
    return [
      el(
        'p',
        { class: 'notice', role: 'status', 'data-progress': '' },
        `Running the checks: ${view.checks.length} of ${view.total} done.`,
      ),
    ];
  if (view.error)
    return [el('p', { class: 'notice error', role: 'alert' }, `Not validated: ${view.error}`)];
  if (!view.result)
    return [
      el(
        'p',
        { class: 'empty' },
        'Not validated yet. Validate runs the server as the kernel would and drives it through each check, tier by tier.',
      ),
    ];
  return [];
}

function render(view: ValidationView): void {
  const focused = focusedHere();
  const focusKey = focused?.dataset.focusKey ?? focused?.dataset.action;
  app.dataset.running = String(view.running);
  app.replaceChildren(
    el('header', {}, el('h1', {}, `Validation: ${view.serverId}`), toolbar(view)),
    ...progress(view),
    ...(view.result && !view.running ? result(view.result) : []),
    ...groups(view),
  );
  if (focusKey)
    app
      .querySelector<HTMLElement>(
        `[data-focus-key="${CSS.escape(focusKey)}"], [data-action="${CSS.escape(focusKey)}"]`,
      )
      ?.focus();
}

window.addEventListener('message', (event: MessageEvent<ValidationToWebview>) => {
  if (event.data?.type === 'report') render(event.data.view);
});
post({ type: 'ready' });
