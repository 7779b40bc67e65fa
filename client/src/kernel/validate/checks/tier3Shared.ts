/** What the Tier 3 checks share: an extension the server must list, and what it sent. */
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { type CheckContext, exchangeOf, missing } from '../context';
import type { Notice, Probe } from '../probe';
import { PLAIN_MCP } from './tier1';

export function needs(context: CheckContext, extension: string, advice: string) {
  if (!context.serverMgp) return missing(PLAIN_MCP);
  if (!context.negotiated.has(extension))
    return missing(`the server does not list the "${extension}" extension`, advice);
  return undefined;
}

export const sameId = (a: unknown, b: RequestId | undefined) =>
  b !== undefined && String(a) === String(b);

export function noticesOf(probe: Probe, method: string): Notice[] {
  return probe.notices.filter((notice) => notice.method === method);
}

export function exchangeOfLast(probe: Probe, method: string) {
  const sent = probe.lastSent(method);
  return sent && 'id' in sent ? exchangeOf(probe, sent.id) : undefined;
}
