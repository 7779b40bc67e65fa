/**
 * The identity of a gateway client (MGP §5): `agent.gateway.<client name>`, an agent (never an
 * operator), from the name it gave at initialize (untrusted: reduced to letters, digits, `-` and `_`,
 * lower case, at most 48 characters; `unknown` when nothing is left).
 */
import type { Caller } from '../pipeline/caller';

export const GATEWAY_AGENT_PREFIX = 'agent.gateway.';

export function gatewayAgentId(clientName: string | undefined): string {
  const slug = (clientName ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return `${GATEWAY_AGENT_PREFIX}${slug || 'unknown'}`;
}

export function gatewayCaller(clientName: string | undefined): Caller {
  return { agentId: gatewayAgentId(clientName), kind: 'agent' };
}
