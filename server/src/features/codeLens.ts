import type { CodeLens } from 'vscode-languageserver/node';
import type { KernelStateParams, LiveServerState } from '@shared/lspMessages';
import { locate, pointerOf } from '@shared/configCheck/pointers';
import { asString, isTable } from '@shared/configCheck/semantic/context';
import { oneLine } from '@shared/untrustedText';
import type { Analysis } from '../analysis';

/** The editor's commands the lenses run, each with the server id (client/src/vscode/servers/serverCommands.ts). */
const START = 'mgp.startServer';
const STOP = 'mgp.stopServer';
const RESTART = 'mgp.restartServer';
const SHOW_LOG = 'mgp.showServerLog';
const VALIDATE = 'mgp.validateServer';

const ICON: Record<string, string> = {
  connected: '$(pass-filled)',
  connecting: '$(sync~spin)',
  restarting: '$(sync~spin)',
  draining: '$(watch)',
  error: '$(error)',
  disconnected: '$(circle-slash)',
  registered: '$(circle-outline)',
};

const ERROR_CHARS = 80;

/** What the state line says: the state (MGP §11.2), its tools once connected, its error. */
function stateTitle(live: LiveServerState): string {
  const parts = [`${ICON[live.state] ?? '$(circle-outline)'} ${live.state}`];
  if (live.toolCount !== undefined)
    parts.push(`${live.toolCount} tool${live.toolCount === 1 ? '' : 's'}`);
  if (live.error) {
    // The server's words: on one line, no theme icon of its own, cut short (the hover has it all).
    const error = oneLine(live.error).replace(/\$\(/g, '$\u200b(');
    parts.push(error.length > ERROR_CHARS ? `${error.slice(0, ERROR_CHARS - 1)}…` : error);
  }
  return parts.join(' · ');
}

function actions(state: string): [title: string, command: string][] {
  const startable = ['registered', 'disconnected', 'error'].includes(state);
  const stoppable = ['connected', 'connecting', 'restarting'].includes(state);
  return [
    ...(startable ? [['$(debug-start) Start', START] as [string, string]] : []),
    ...(stoppable ? [['$(debug-stop) Stop', STOP] as [string, string]] : []),
    ...(state === 'connected' || state === 'error'
      ? [['$(debug-restart) Restart', RESTART] as [string, string]]
      : []),
  ];
}

/**
 * Lenses over each server table of the file, as VS Code shows over mcp.json: its live state and
 * tool count, then Start, Stop or Restart, and Validate for one started from a command. A server the kernel does not run from this file (another
 * file's definition wins, or none is loaded yet) gets none.
 */
export function serverLenses(
  analysis: Analysis,
  state: KernelStateParams,
  file: string,
): CodeLens[] {
  const { pointers, value } = analysis;
  if (!pointers || !value) return [];
  const openfang = analysis.format === 'openfang';
  const listKey = openfang ? 'mcp_servers' : 'servers';
  const list = Array.isArray(value[listKey]) ? (value[listKey] as unknown[]) : [];
  const lenses: CodeLens[] = [];
  list.forEach((table, index) => {
    if (!isTable(table)) return;
    const id = asString(openfang ? table.name : table.id);
    const live = id && state.servers.find((s) => s.id === id && s.file === file);
    const header = locate(pointers, pointerOf([listKey, index]), ['header']);
    if (!live || !header) return;
    const range = { start: header.start, end: header.start };
    lenses.push({
      range,
      command: { title: stateTitle(live), command: SHOW_LOG, arguments: [live.id] },
    });
    for (const [title, command] of actions(live.state))
      lenses.push({ range, command: { title, command, arguments: [live.id] } });
    // A server it starts from a command can be validated from here (MGP §17.8).
    if (asString(table.command) !== undefined)
      lenses.push({
        range,
        command: { title: '$(checklist) Validate', command: VALIDATE, arguments: [live.id] },
      });
  });
  return lenses;
}
