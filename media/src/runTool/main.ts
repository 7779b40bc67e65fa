/** The Run Tool panel: one tool, its effective security, a form from its inputSchema, Run, the result. */
import type { RunToolFromWebview, RunToolToWebview, ToolView } from '@shared/toolPanelMessages';
import { el } from '../shared/dom';
import { ToolRun } from '../shared/toolRun';
import { securityFacts, untrustedDescription } from '../shared/toolParts';

declare function acquireVsCodeApi(): { postMessage(message: RunToolFromWebview): void };

const vscode = acquireVsCodeApi();
const app = document.getElementById('app') as HTMLElement;
let run: ToolRun | undefined;
let shownTool = '';

function render(tool: ToolView): void {
  // The same tool again (the server reconnected): keep what was typed.
  const key = JSON.stringify(tool);
  if (key === shownTool) return;
  shownTool = key;
  run = new ToolRun(tool, {
    post: (m) => vscode.postMessage(m),
    stream: tool.kernel ? 'never' : 'checkbox',
    runLabel: 'Run',
  });
  app.replaceChildren(
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
  app.dataset.state = 'ready';
}

window.addEventListener('message', (event: MessageEvent<RunToolToWebview>) => {
  const message = event.data;
  switch (message?.type) {
    case 'tool':
      document.getElementById('gone')?.remove();
      render(message.tool);
      return;
    case 'toolGone': {
      let banner = document.getElementById('gone');
      if (!banner) {
        banner = el('div', { id: 'gone', class: 'notice warning', role: 'status' });
        app.prepend(banner);
      }
      banner.textContent = `This tool is not available now: ${message.reason}. It can run again when the server is back.`;
      return;
    }
    default:
      if (message) run?.handle(message);
  }
});

app.replaceChildren(el('p', { class: 'muted' }, 'Loading…'));
vscode.postMessage({ type: 'ready' });
