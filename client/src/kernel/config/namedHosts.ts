/**
 * What the config names for a server's requests made on its word (net/destinationGuard.ts): the
 * server's own origin, which the kernel connects to anyway; its host, on any port, when the user's
 * own config names the server; and `[kernel] private_hosts`, which only the user's own files set
 * (workspacePolicy.ts). A workspace file is not the user's own (SECURITY.md): the loopback or private
 * host of a server it names is not named for anything but that server's own origin.
 */
import type { NamedDestinations } from '../net/destinationGuard';
import type { ConfigOrigin } from './discover';
import type { ConfiguredServer } from './types';

function urlOf(text: string | undefined): URL | undefined {
  try {
    return text ? new URL(text) : undefined;
  } catch {
    return undefined;
  }
}

/** The hosts a server from a file of `origin` may have the kernel reach, besides its own origin. */
export function namedHostsOf(
  server: ConfiguredServer,
  origin: ConfigOrigin,
  privateHosts: readonly string[],
): string[] {
  const own = origin === 'workspace' ? undefined : urlOf(server.url)?.hostname;
  return [...new Set([...(own ? [own] : []), ...privateHosts])];
}

export function namedDestinationsOf(server: ConfiguredServer): NamedDestinations {
  const url = urlOf(server.url);
  return { origins: url ? [url.origin] : [], hosts: server.namedHosts ?? [] };
}
