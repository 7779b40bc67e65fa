import type { AboutFromWebview, AboutToWebview, KernelStatus } from '@shared/aboutMessages';

declare function acquireVsCodeApi(): { postMessage(message: AboutFromWebview): void };

const vscode = acquireVsCodeApi();
const app = document.getElementById('app') as HTMLElement;

type Child = Node | string;

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

function button(
  label: string,
  message: AboutFromWebview,
  attrs: Record<string, string> = {},
): HTMLButtonElement {
  const node = el('button', { type: 'button', ...attrs }, label);
  node.addEventListener('click', () => vscode.postMessage(message));
  return node;
}

function facts(status: KernelStatus): HTMLElement {
  const rows: [string, Child, string][] = [
    ['Version', status.version, 'version'],
    ['VS Code', status.vscodeVersion, 'vscode-version'],
    ['Extension host', `Node ${status.extensionHostNode}`, 'node-version'],
    [
      'Workspace',
      status.workspaceTrusted
        ? 'Trusted'
        : 'Restricted mode: servers from workspace configs will not start',
      'trust',
    ],
    ['Config language server', status.languageServer, 'language-server'],
  ];
  return el(
    'dl',
    { class: 'facts' },
    ...rows.flatMap(([term, value, id]) => [
      el('dt', {}, term),
      el('dd', { 'data-fact': id }, value),
    ]),
  );
}

function configFiles(status: KernelStatus): HTMLElement {
  if (status.configFiles.length === 0) {
    return el(
      'p',
      { class: 'empty' },
      'No config file found. MGP Kernel reads mgp.toml, mcp.toml, ~/.config/mgp/servers.toml, $MGP_CONFIG_PATH and OpenFang config.toml.',
    );
  }
  return el(
    'ul',
    { class: 'files' },
    ...status.configFiles.map((file) =>
      el(
        'li',
        {},
        button(
          file.displayPath,
          { type: 'openConfig', displayPath: file.displayPath },
          { class: 'link', title: `Open ${file.displayPath}` },
        ),
        el('span', { class: 'badge' }, file.format === 'openfang' ? 'OpenFang' : 'MGP'),
        el(
          'span',
          { class: 'muted' },
          `${file.serverCount} server${file.serverCount === 1 ? '' : 's'}`,
        ),
        ...(file.error ? [el('div', { class: 'error', role: 'alert' }, file.error)] : []),
      ),
    ),
  );
}

function servers(status: KernelStatus): HTMLElement {
  if (status.servers.length === 0) return el('p', { class: 'empty' }, 'No servers configured.');
  const head = el(
    'tr',
    {},
    ...['Server', 'Transport', 'Command or URL', 'Declared in'].map((h) =>
      el('th', { scope: 'col' }, h),
    ),
  );
  const rows = status.servers.map((server) =>
    el(
      'tr',
      { class: server.shadowedBy ? 'shadowed' : '', 'data-server': server.id },
      el('td', {}, server.id),
      el('td', {}, server.transport),
      el('td', {}, el('code', {}, server.target)),
      el(
        'td',
        {},
        server.source,
        ...(server.shadowedBy
          ? [el('div', { class: 'muted' }, `overridden by ${server.shadowedBy}`)]
          : []),
      ),
    ),
  );
  return el('table', { class: 'servers' }, el('thead', {}, head), el('tbody', {}, ...rows));
}

/** Each running server's instructions, collapsed, as text: they are the server's words, not ours. */
function instructions(status: KernelStatus): HTMLElement {
  if (status.instructions.length === 0)
    return el('p', { class: 'empty' }, 'No running server sent instructions.');
  return el(
    'div',
    { class: 'instructions-list' },
    ...status.instructions.map((entry) =>
      el(
        'details',
        { 'data-instructions': entry.serverId },
        el('summary', {}, entry.serverId),
        el('pre', { class: 'instructions' }, entry.text),
      ),
    ),
  );
}

function render(status: KernelStatus): void {
  // A server's instructions the user opened stay open when the panel draws again.
  const opened = new Set(
    Array.from(app.querySelectorAll<HTMLDetailsElement>('details[open]')).map(
      (d) => d.dataset.instructions,
    ),
  );
  app.replaceChildren(
    el(
      'header',
      {},
      el('h1', {}, 'MGP Kernel'),
      el('p', { class: 'muted' }, 'A secure, observable host for MCP, MGP and MCPL tool servers.'),
    ),
    facts(status),
    el('section', {}, el('h2', {}, 'Config files'), configFiles(status)),
    el(
      'section',
      {},
      el('h2', {}, `Servers (${status.servers.filter((s) => !s.shadowedBy).length})`),
      servers(status),
    ),
    el(
      'section',
      {},
      el('h2', {}, 'Server instructions'),
      el(
        'p',
        { class: 'muted' },
        'What each running server tells a model about its tools, in its own words (not checked).',
      ),
      instructions(status),
    ),
    el(
      'div',
      { class: 'actions' },
      button('Reload configuration', { type: 'refresh' }, { id: 'refresh' }),
      button('Show kernel log', { type: 'showLog' }, { class: 'secondary' }),
    ),
  );
  app
    .querySelectorAll<HTMLDetailsElement>('details[data-instructions]')
    .forEach((details) => (details.open = opened.has(details.dataset.instructions)));
  app.dataset.state = 'ready';
}

window.addEventListener('message', (event: MessageEvent<AboutToWebview>) => {
  if (event.data?.type === 'status') render(event.data.status);
});

app.replaceChildren(el('p', { class: 'muted' }, 'Loading…'));
vscode.postMessage({ type: 'ready' });
