/**
 * URL-mode elicitation (MCP 2025-11-25, Elicitation "URL mode"): a server asks the person to open an
 * address. Only a web address may be offered: `file:`, `vscode:`, `command:` and other schemes would
 * open files or run editor commands on the server's say-so (issue 24, item 20). The address is read
 * with the WHATWG parser, as the browser will read it.
 */
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';

/** Why the URL of a URL-mode elicitation may not be offered, or undefined when it may. */
export function elicitationUrlRefusal(params: ElicitRequest['params']): string | undefined {
  if (params.mode !== 'url') return undefined;
  let url: URL;
  try {
    url = new URL(String(params.url ?? ''));
  } catch {
    return 'its URL does not parse';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return `it asks to open a ${url.protocol} address; only http and https addresses are opened`;
  if (url.username || url.password) return 'its URL carries a user name or password';
  return undefined;
}

type Elicit = (
  serverId: string,
  params: ElicitRequest['params'],
  signal: AbortSignal,
) => Promise<ElicitResult>;

/** `elicit`, declining without asking anyone a URL that may not be offered. */
export function guardUrlElicitation(elicit: Elicit): Elicit {
  return async (serverId, params, signal) =>
    elicitationUrlRefusal(params) ? { action: 'decline' } : elicit(serverId, params, signal);
}
