/**
 * The server detail page: one server's state, identity, capabilities, negotiated extensions,
 * permissions, instructions and tools with their switches. Everything the server sent is set as text.
 * It draws again on every update from the host, keeping the keyboard focus on the control it was on.
 */
import type {
  ServerAction,
  ServerDetailFromWebview,
  ServerDetailTool,
  ServerDetailToWebview,
  ServerDetailView,
} from '@shared/serverDetailMessages';
import { button, el, focusedHere, type Child } from '../shared/dom';

declare function acquireVsCodeApi(): { postMessage(message: ServerDetailFromWebview): void };

const vscode = acquireVsCodeApi();
const post = (message: ServerDetailFromWebview) => vscode.postMessage(message);
const app = document.getElementById('app') as HTMLElement;

const STATE_MARKS: Record<string, string> = {
  connected: '●',
  connecting: '◌',
  restarting: '◌',
  error: '✕',
  'turned off': '⊘',
};

function action(label: string, name: ServerAction, primary = false): HTMLButtonElement {
  return button(label, () => post({ type: 'action', action: name }), {
    class: primary ? undefined : 'secondary',
    'data-action': name,
  });
}

function actions(d: ServerDetailView): HTMLElement {
  const running = d.connected || d.state === 'connecting' || d.state === 'restarting';
  const buttons: HTMLElement[] = [];
  if (!d.off && !running) buttons.push(action('Start', 'start', true));
  if (running) buttons.push(action('Restart', 'restart'), action('Stop', 'stop'));
  buttons.push(
    button(
      d.off ? 'Turn server on' : 'Turn server off',
      () => post({ type: 'setServer', enabled: d.off }),
      { class: d.off ? undefined : 'secondary', 'data-action': 'switch' },
    ),
    action('Show log', 'showLog'),
    action('Open config', 'openConfig'),
    action('Validate', 'validate'),
  );
  return el(
    'div',
    { class: 'actions', role: 'toolbar', 'aria-label': 'Server actions' },
    ...buttons,
  );
}

/** The tier badge of its last validation (MGP §17.8), and when; its report opens from the link. */
function validation(v: NonNullable<ServerDetailView['validation']>): HTMLElement {
  const parts: Child[] = [el('span', { class: 'tier-badge' }, v.badge)];
  if (v.failed) parts.push(` · ${v.failed} check${v.failed === 1 ? '' : 's'} failed`);
  if (v.at) parts.push(el('span', { class: 'muted' }, ` · ${new Date(v.at).toLocaleString()}`));
  if (v.running) parts.push(el('span', { class: 'muted' }, ' · validating now'));
  parts.push(
    ' ',
    button('Show report', () => post({ type: 'action', action: 'showValidation' }), {
      class: 'link',
      'data-action': 'showValidation',
    }),
  );
  return el('span', {}, ...parts);
}

function facts(d: ServerDetailView): HTMLElement {
  const rows: [string, Child, string][] = [
    [
      'State',
      el(
        'span',
        { class: `state state-${d.state.replace(' ', '-')}` },
        `${STATE_MARKS[d.state] ?? '○'} ${d.state}`,
      ),
      'state',
    ],
    ['Transport', d.transport, 'transport'],
    [d.transport === 'stdio' ? 'Command' : 'URL', el('code', {}, d.target), 'target'],
    ['Declared in', d.declaredIn, 'declared-in'],
  ];
  if (d.isolation) rows.push(['Isolation', d.isolation, 'isolation']);
  if (d.serverInfo)
    rows.push([
      'Server says it is',
      `${d.serverInfo.title ?? d.serverInfo.name} ${d.serverInfo.version}`,
      'server-info',
    ]);
  if (d.protocolVersion) rows.push(['MCP version', d.protocolVersion, 'protocol']);
  if (d.validation) rows.push(['Validation', validation(d.validation), 'validation']);
  return el(
    'dl',
    { class: 'facts' },
    ...rows.flatMap(([term, value, id]) => [
      el('dt', {}, term),
      el('dd', { 'data-fact': id }, value),
    ]),
  );
}

function chips(names: string[], empty: string, label: string): HTMLElement {
  if (!names.length) return el('p', { class: 'empty' }, empty);
  return el(
    'ul',
    { class: 'chips', 'aria-label': label },
    ...names.map((name) => el('li', { class: 'chip' }, name)),
  );
}

function section(id: string, title: string, ...body: Child[]): HTMLElement {
  return el(
    'section',
    { 'aria-labelledby': `${id}-heading`, 'data-section': id },
    el('h2', { id: `${id}-heading` }, title),
    ...body,
  );
}

function toolRow(tool: ServerDetailTool): HTMLElement {
  const id = `tool-${encodeURIComponent(tool.name)}`;
  const toggle = el('input', {
    type: 'checkbox',
    role: 'switch',
    id,
    'data-focus-key': id,
    'aria-describedby': tool.off ? `${id}-state` : undefined,
  });
  toggle.checked = !tool.off;
  toggle.addEventListener('change', () =>
    post({ type: 'setTool', toolName: tool.name, enabled: toggle.checked }),
  );
  return el(
    'li',
    {
      class: `tool${tool.off ? ' off' : ''}`,
      'data-tool': tool.name,
      'data-off': String(tool.off),
    },
    toggle,
    el(
      'div',
      { class: 'tool-text' },
      el(
        'div',
        {},
        el('label', { for: id, class: 'tool-name' }, tool.label),
        ' ',
        el('span', { class: `risk risk-${tool.risk}`, 'data-risk': tool.risk }, tool.risk),
        ' ',
        ...(tool.off
          ? [el('span', { class: 'muted', id: `${id}-state` }, 'off: offered to no one')]
          : []),
      ),
      ...(tool.description ? [el('div', { class: 'muted description' }, tool.description)] : []),
    ),
  );
}

function tools(d: ServerDetailView): HTMLElement {
  const on = d.tools.filter((t) => !t.off).length;
  const title = d.connected ? `Tools (${on} of ${d.tools.length} on)` : 'Tools';
  const body = !d.connected
    ? el('p', { class: 'empty' }, 'Its tools are listed while it runs.')
    : d.tools.length
      ? el('ul', { class: 'tools', 'aria-label': 'Tools' }, ...d.tools.map(toolRow))
      : el('p', { class: 'empty' }, 'It offers no tools.');
  return section(
    'tools',
    title,
    ...(d.connected && d.tools.length
      ? [
          el(
            'p',
            { class: 'muted' },
            'A tool that is off is offered to no one, and a call of it is refused.',
          ),
        ]
      : []),
    body,
  );
}

function negotiated(d: ServerDetailView): HTMLElement[] {
  if (!d.connected) return [];
  const mgp = d.mgp
    ? [
        el(
          'p',
          { 'data-fact': 'mgp-version' },
          `MGP ${d.mgp.version}${d.mgp.trustLevel ? ` · trust level ${d.mgp.trustLevel}` : ''}`,
        ),
        chips(d.mgp.extensions, 'No MGP extension in common.', 'MGP extensions'),
      ]
    : [
        el(
          'p',
          { class: 'muted', 'data-fact': 'mgp-version' },
          'Plain MCP: it does not speak MGP.',
        ),
      ];
  const mcpl = d.featureSets
    ? [
        el('h3', {}, 'MCPL feature sets'),
        d.featureSets.length
          ? el(
              'ul',
              { class: 'feature-sets' },
              ...d.featureSets.map((set) =>
                el(
                  'li',
                  { 'data-feature-set': set.name },
                  el('span', { class: 'name' }, set.name),
                  el(
                    'span',
                    { class: 'muted' },
                    ` · ${set.enabled ? 'on' : 'off'} · ${set.source}`,
                  ),
                ),
              ),
            )
          : el('p', { class: 'empty' }, 'It declares no feature set.'),
      ]
    : [];
  return [
    section(
      'capabilities',
      'Capabilities',
      chips(d.capabilities, 'It declared none.', 'Capabilities'),
    ),
    section('extensions', 'Extensions', ...mgp, ...mcpl),
  ];
}

function permissions(d: ServerDetailView): HTMLElement {
  if (!d.permissions.length)
    return section('permissions', 'Permissions', el('p', { class: 'empty' }, 'It asked for none.'));
  const rows = d.permissions.map((p) =>
    el(
      'tr',
      { 'data-permission': p.name },
      el('td', {}, el('code', {}, p.name)),
      el(
        'td',
        { 'data-decision': p.decision ?? 'open' },
        p.decision === 'approved'
          ? '✓ granted'
          : p.decision === 'denied'
            ? '✕ denied'
            : 'not decided',
      ),
      el(
        'td',
        { class: 'muted' },
        p.expiresAt ? `until ${new Date(p.expiresAt).toLocaleString()}` : '',
      ),
    ),
  );
  return section(
    'permissions',
    'Permissions',
    el(
      'table',
      { class: 'permissions' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ...['Permission', 'Decision', 'Expires'].map((h) => el('th', { scope: 'col' }, h)),
        ),
      ),
      el('tbody', {}, ...rows),
    ),
    el('p', { class: 'muted' }, 'Change a decision in the Approvals panel.'),
  );
}

function instructions(d: ServerDetailView): HTMLElement[] {
  if (!d.instructions) return [];
  return [
    section(
      'instructions',
      'Instructions',
      el(
        'p',
        { class: 'muted' },
        'What the server tells agents about itself: its own words, not checked.',
      ),
      el('pre', { class: 'instructions' }, d.instructions),
    ),
  ];
}

/** The server's icon, one per theme when they differ; decorative: the heading names the server. */
function serverIcon(d: ServerDetailView): HTMLElement[] {
  if (!d.icon) return [];
  const img = (src: string, theme: string) =>
    el('img', { class: `server-icon${theme}`, src, alt: '', width: '24', height: '24' });
  return d.icon.light === d.icon.dark
    ? [img(d.icon.light, '')]
    : [img(d.icon.light, ' icon-light'), img(d.icon.dark, ' icon-dark')];
}

function render(d: ServerDetailView): void {
  const focused = focusedHere();
  const focusKey = focused?.dataset.focusKey ?? focused?.dataset.action;
  app.replaceChildren(
    el('header', {}, el('h1', {}, ...serverIcon(d), d.id), actions(d)),
    ...(d.stateNote ? [el('div', { class: 'notice', role: 'status' }, d.stateNote)] : []),
    ...(d.lastError
      ? [
          el(
            'div',
            { class: 'notice error', role: 'alert', 'data-fact': 'last-error' },
            `Last error: ${d.lastError}`,
          ),
        ]
      : []),
    facts(d),
    // The short sections first; the tool list and the instructions can be long.
    ...negotiated(d),
    permissions(d),
    tools(d),
    ...instructions(d),
  );
  app.dataset.state = d.state;
  if (focusKey)
    app
      .querySelector<HTMLElement>(
        `[data-focus-key="${CSS.escape(focusKey)}"], [data-action="${CSS.escape(focusKey)}"]`,
      )
      ?.focus();
}

window.addEventListener('message', (event: MessageEvent<ServerDetailToWebview>) => {
  const message = event.data;
  if (message?.type === 'detail') render(message.detail);
  else if (message?.type === 'gone') {
    app.replaceChildren(
      el('h1', {}, message.serverId),
      el('p', { class: 'empty' }, 'This server is no longer configured.'),
    );
    app.dataset.state = 'gone';
  }
});

app.replaceChildren(el('p', { class: 'muted' }, 'Loading…'));
post({ type: 'ready' });
