/**
 * The identities agents call under (MGP §5): each front end's model has its own `agent_id`, so access
 * grants, approvals and the audit trail tell them apart from each other and from the person at the
 * keyboard. Agents are never operators: the kernel's administrative tools are not theirs.
 */
import type { Caller } from '../domain/caller';

/** The model behind the @mgp chat participant. */
export const CHAT_AGENT_ID = 'agent.chat';
/** Any VS Code agent (Copilot's agent mode and others) through the language-model tools. */
export const COPILOT_AGENT_ID = 'agent.copilot';
/** The model `mgp agent` runs in the terminal. */
export const CLI_AGENT_ID = 'agent.cli';
/** Prefix of the clients of the gateway (`mgp serve`): `agent.gateway.<client name>`. */
export const GATEWAY_AGENT_PREFIX = 'agent.gateway.';

/** An agent caller (never an operator). */
export function agentCaller(agentId: string): Caller {
  return { agentId, kind: 'agent' };
}

/**
 * The id of a gateway client, from the name it gave at `initialize` (untrusted: reduced to letters,
 * digits, `-` and `_`, lower case, at most 48 characters; `unknown` when nothing is left), and, on
 * a team gateway, `@<user>`: the person its token names (`agent.gateway.<client>@<user>`).
 */
export function gatewayAgentId(clientName: string | undefined, user?: string): string {
  const slug = (clientName ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  const id = `${GATEWAY_AGENT_PREFIX}${slug || 'unknown'}`;
  return user === undefined ? id : `${id}@${gatewayUser(user)}`;
}

/**
 * A team gateway caller's person, from the token the authorization server signed: letters, digits,
 * `.`, `_`, `+` and `-`, lower case, at most 64 characters (`@` and anything else become `-`).
 */
export function gatewayUser(user: string): string {
  const slug = user
    .toLowerCase()
    .replace(/[^a-z0-9._+-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return slug || 'unknown';
}
