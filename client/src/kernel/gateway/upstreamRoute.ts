/**
 * Which gateway client answers a server's own request (MCP client features). The client whose call to
 * that server is in flight, when it declared the capability, answers on that call's stream; with no
 * call in flight, a lone client that declared it answers; otherwise the kernel answers as it does
 * without a gateway.
 */
import type { ClientCapabilities, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { UpstreamAnswer, UpstreamRoute } from '../host/upstreamClients';
import type { GatewaySession } from './gatewaySession';

/** An answer from an upstream client may take as long as its user needs; the server's own timeout applies. */
const UPSTREAM_TIMEOUT_MS = 30 * 60 * 1000;

interface Pick {
  session: GatewaySession;
  relatedRequestId?: RequestId;
}

function pick(
  sessions: Iterable<GatewaySession>,
  serverId: string,
  able: (capabilities: ClientCapabilities) => boolean,
): Pick | undefined {
  const all = [...sessions].filter((session) => session.initialized);
  const capable = (session: GatewaySession) => able(session.server.getClientCapabilities() ?? {});
  const calling = all.filter(
    (session) => session.callTo(serverId) !== undefined && capable(session),
  );
  if (calling.length > 0) {
    const session = calling[calling.length - 1];
    return { session, relatedRequestId: session.callTo(serverId) };
  }
  return all.length === 1 && capable(all[0]) ? { session: all[0] } : undefined;
}

function answer<T>(
  picked: Pick | undefined,
  ask: (p: Pick) => Promise<T>,
): UpstreamAnswer<T> | undefined {
  return picked && { by: picked.session.identity.agentId, answer: ask(picked) };
}

export function gatewayUpstreamRoute(sessions: () => Iterable<GatewaySession>): UpstreamRoute {
  return {
    roots: (serverId) =>
      answer(
        pick(sessions(), serverId, (c) => Boolean(c.roots)),
        ({ session, relatedRequestId }) =>
          session.server
            .listRoots(undefined, { relatedRequestId, timeout: UPSTREAM_TIMEOUT_MS })
            .then((result) => result.roots),
      ),
    createMessage: (serverId, params, signal) =>
      answer(
        pick(sessions(), serverId, (c) =>
          Boolean(c.sampling && (!params.tools || c.sampling.tools)),
        ),
        ({ session, relatedRequestId }) =>
          session.server.createMessage(params, {
            relatedRequestId,
            signal,
            timeout: UPSTREAM_TIMEOUT_MS,
          }),
      ),
    elicit: (serverId, params, signal) =>
      answer(
        pick(sessions(), serverId, (c) => {
          const elicitation = c.elicitation as { form?: object; url?: object } | undefined;
          if (!elicitation) return false;
          if (params.mode === 'url') return Boolean(elicitation.url);
          // An empty elicitation capability means form mode (MCP 2025-11-25).
          return Boolean(elicitation.form) || !elicitation.url;
        }),
        ({ session, relatedRequestId }) =>
          session.server.elicitInput(params as never, {
            relatedRequestId,
            signal,
            timeout: UPSTREAM_TIMEOUT_MS,
          }),
      ),
  };
}
