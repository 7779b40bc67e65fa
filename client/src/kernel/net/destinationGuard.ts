/**
 * The one judgement of where the kernel may go on a server's word (a URL a server named: OAuth
 * metadata, registration, authorization and token endpoints, icons). A server is not trusted
 * (SECURITY.md), so it may not aim the kernel at this machine or its network: a loopback, private
 * (CGNAT and unique local among them), link-local, multicast or metadata address is refused, unless
 * the user's own config names it. A name is resolved here and every address it resolves to is
 * judged; the request then connects to the address that was judged (guardedFetch.ts), so a name
 * cannot resolve publicly for the check and privately for the connection.
 */
import { KernelError } from '../domain/errors';
import { judgeHost, judgeResolved } from './hosts';
import type { Restriction } from './ipAddress';
import { systemResolve, type Resolver } from './resolve';

/** What the config names: reached whatever it resolves to. */
export interface NamedDestinations {
  /** Origins the config gives a server (its own URL's): the kernel connects to them anyway. */
  origins?: readonly string[];
  /** Hosts the user's own config names, on any port and scheme. */
  hosts?: readonly string[];
}

export interface GuardOptions {
  named?: NamedDestinations;
  /** Resolves a host name to its addresses (tests give their own). */
  resolve?: Resolver;
  /** Why an address may not be reached, if it may not (tests give their own). */
  restrictionOf?: (address: string) => Restriction | undefined;
}

/** A named destination (reached as usual), or the checked address to connect to. */
export type Destination = { named: true } | { named: false; address: string };

/** A host as the WHATWG URL parser writes it (`2130706433` → `127.0.0.1`, `::1` → `[::1]`). */
export function normalizedHost(host: string): string | undefined {
  const written = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  try {
    const url = new URL(`http://${written}/`);
    return url.host === url.hostname ? url.hostname : undefined;
  } catch {
    return undefined;
  }
}

/** The URL without its query, fragment or credentials: enough to say where, nothing a server hid in it. */
export function whereOf(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

function refused(url: URL, why: string): KernelError {
  return new KernelError('UrlRejected', `refused a request to ${whereOf(url)}: ${why}`);
}

function isNamed(url: URL, named: NamedDestinations | undefined): boolean {
  if (named?.origins?.some((origin) => origin === url.origin)) return true;
  return named?.hosts?.some((host) => normalizedHost(host) === url.hostname) ?? false;
}

const NOT_NAMED = 'which your own config does not name';

/**
 * Where a request to `url` may go. Throws a `UrlRejected` error saying why when it may not: a scheme
 * other than http and https, credentials in the URL, a host refused by name or address, a name that
 * does not resolve or resolves to any address refused.
 */
export async function checkDestination(url: URL, options: GuardOptions = {}): Promise<Destination> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refused(url, `${url.protocol} is not http or https`);
  if (url.username || url.password) throw refused(url, 'the URL carries credentials');
  if (isNamed(url, options.named)) return { named: true };
  const verdict = judgeHost(url.hostname);
  if (!verdict) throw refused(url, 'not a valid host');
  if (verdict.kind === 'restricted')
    throw refused(url, `${url.hostname} is ${verdict.restriction.label}, ${NOT_NAMED}`);
  if (verdict.kind === 'public')
    return { named: false, address: url.hostname.replace(/^\[|\]$/g, '') };
  let addresses: string[];
  try {
    addresses = await (options.resolve ?? systemResolve)(url.hostname);
  } catch (error) {
    throw refused(url, `${url.hostname} does not resolve (${(error as Error).message})`);
  }
  if (addresses.length === 0) throw refused(url, `${url.hostname} does not resolve`);
  const restrictionOf = options.restrictionOf ?? judgeResolved;
  for (const address of addresses) {
    const restriction = restrictionOf(address);
    if (restriction)
      throw refused(
        url,
        `${url.hostname} resolves to ${address}, ${restriction.label}, ${NOT_NAMED}`,
      );
  }
  return { named: false, address: addresses[0] };
}
