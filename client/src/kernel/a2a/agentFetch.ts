/**
 * The fetch the kernel talks to an external agent with. Every request, and every redirect, goes
 * through the destination guard (net/destinationGuard.ts): a card is the agent's word, and the
 * endpoint it names may not aim the kernel at this machine or its network unless the user's own
 * config names that host (`network_restricted` semantics). Responses are bounded in size; each
 * request says who is asking (`User-Agent`, OpenFang, A2A Security); the bearer key goes only to the
 * origin the config names, never to another one a card points at.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { MGP_KERNEL_VERSION } from '@shared/version';
import type { ConfiguredServer } from '../config/types';
import { sizeLimitedFetch } from '../connection/limitedFetch';
import { guardedFetch, type GuardedFetchOptions } from '../net/guardedFetch';
import type { NamedDestinations } from '../net/destinationGuard';
import { fetchAgentCard, type FetchedCard } from './card';

export const A2A_USER_AGENT = `MGP-Kernel/${MGP_KERNEL_VERSION} A2A`;
/** Largest card accepted: a card is a page of JSON, not a download. */
export const MAX_CARD_BYTES = 1024 * 1024;
/** Largest message (a JSON body, or one server-sent event) accepted from an agent. */
export const MAX_AGENT_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * Where an agent may have the kernel go: its configured origin when the user's own config names it
 * (a workspace file's agent on this machine or a private network is not reached on its word), and
 * the hosts the user's own config names (`[kernel] private_hosts`).
 */
export function agentDestinations(server: ConfiguredServer): NamedDestinations {
  let origin: string | undefined;
  try {
    origin = server.url ? new URL(server.url).origin : undefined;
  } catch {
    origin = undefined;
  }
  const yours = server.source.origin !== 'workspace';
  return { origins: yours && origin ? [origin] : [], hosts: server.namedHosts ?? [] };
}

export interface AgentFetchOptions {
  /** The URL the config (or the person) gives for the agent: its origin gets the bearer key. */
  url: string;
  /** Where else the agent may have the kernel go (agentDestinations). */
  named: NamedDestinations;
  /** The resolved headers of the agent's config (its `Authorization` among them). */
  headers: Record<string, string>;
  maxBytes: number;
  onRefused?(message: string): void;
  /** Tests give their own resolver and restrictions. */
  guard?: Pick<GuardedFetchOptions, 'resolve' | 'restrictionOf'>;
}

export function agentFetch(options: AgentFetchOptions): FetchLike {
  const configured = new URL(options.url).origin;
  const guarded = guardedFetch({
    named: options.named,
    onRefused: options.onRefused,
    ...options.guard,
  });
  const limited = sizeLimitedFetch(options.maxBytes, guarded);
  return (input, init = {}) => {
    const url = new URL(input instanceof URL ? input.href : String(input));
    const headers = new Headers(init.headers);
    headers.set('User-Agent', A2A_USER_AGENT);
    for (const [name, value] of Object.entries(options.headers))
      if (url.origin === configured || name.toLowerCase() !== 'authorization')
        headers.set(name, value);
    return limited(url, { ...init, headers });
  };
}

/** Reads the card at a URL the person gave (`mgp a2a card URL`): theirs to name, so reached. */
export function cardAt(url: string): Promise<FetchedCard> {
  const fetch = agentFetch({
    url,
    named: { origins: [new URL(url).origin] },
    headers: {},
    maxBytes: MAX_CARD_BYTES,
  });
  return fetchAgentCard(url, fetch);
}
