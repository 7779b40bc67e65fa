/**
 * A fetch for requests made on a server's word: each request, and each redirect it is given, goes
 * through the destination guard (destinationGuard.ts) before anything is sent. A named destination
 * is fetched as usual; any other is connected to the address the guard checked (pinnedRequest.ts).
 * Redirects are never left to the platform: `manual` hands the redirect back, `error` fails on it,
 * `follow` (the default) follows at most MAX_REDIRECTS, each hop judged again, with the method and
 * headers a browser would keep (Fetch Standard, HTTP-redirect fetch).
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { KernelError } from '../domain/errors';
import { checkDestination, type Destination, type GuardOptions, whereOf } from './destinationGuard';
import { requestAt, type PinnedRequest } from './pinnedRequest';

export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers not carried to another origin by a redirect. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];

export interface GuardedFetchOptions extends GuardOptions {
  /** How a named destination is fetched (the platform's fetch). */
  base?: FetchLike;
  /** Certificate authorities to trust instead of the system's (tests give their own). */
  ca?: string | Buffer;
  /** Told of each refusal, in words (a server's log). */
  onRefused?(message: string): void;
}

async function firstHop(input: string | URL, init: RequestInit): Promise<PinnedRequest> {
  // The URL was judged already: credentials in it were refused, so `Request` takes it.
  const url = new URL(input);
  const request = new Request(url, init);
  return {
    url,
    method: request.method,
    headers: new Headers(request.headers),
    body: request.body ? await request.arrayBuffer() : undefined,
    signal: init.signal ?? undefined,
  };
}

/** The request a redirect asks for (Fetch Standard §4.4: 303, and 301/302 after POST, become GET). */
function redirected(from: PinnedRequest, status: number, to: URL): PinnedRequest {
  const headers = new Headers(from.headers);
  const toGet =
    (status === 303 && from.method !== 'GET' && from.method !== 'HEAD') ||
    ((status === 301 || status === 302) && from.method === 'POST');
  const contentHeaders: string[] = [];
  headers.forEach((_value, name) => {
    if (name.startsWith('content-')) contentHeaders.push(name);
  });
  if (toGet) for (const name of contentHeaders) headers.delete(name);
  if (to.origin !== from.url.origin) for (const name of CREDENTIAL_HEADERS) headers.delete(name);
  return {
    url: to,
    method: toGet ? 'GET' : from.method,
    headers,
    body: toGet ? undefined : from.body,
    signal: from.signal,
  };
}

function judge(url: URL, options: GuardedFetchOptions): Promise<Destination> {
  return checkDestination(url, options).catch((error: Error) => {
    options.onRefused?.(error.message);
    throw error;
  });
}

function send(
  hop: PinnedRequest,
  destination: Destination,
  options: GuardedFetchOptions,
): Promise<Response> {
  if (!destination.named) return requestAt(destination.address, hop, options.ca);
  return (options.base ?? fetch)(hop.url, {
    method: hop.method,
    headers: hop.headers,
    body: hop.body,
    redirect: 'manual',
    signal: hop.signal,
  });
}

function redirectTarget(response: Response, from: URL): URL | undefined {
  const location = REDIRECT_STATUSES.has(response.status) && response.headers.get('location');
  if (!location) return undefined;
  try {
    return new URL(location, from);
  } catch {
    throw new KernelError('UrlRejected', `${whereOf(from)} redirected to an invalid URL`);
  }
}

export function guardedFetch(options: GuardedFetchOptions = {}): FetchLike {
  return async (input, init = {}) => {
    const mode = init.redirect ?? 'follow';
    let destination = await judge(new URL(input), options);
    // A named destination whose redirects come back unfollowed: the request goes as it was made.
    if (destination.named && mode === 'manual') return (options.base ?? fetch)(input, init);
    let hop = await firstHop(input, init);
    for (let followed = 0; ; followed++) {
      const response = await send(hop, destination, options);
      const target = mode === 'manual' ? undefined : redirectTarget(response, hop.url);
      if (!target) return response;
      await response.body?.cancel();
      if (mode === 'error')
        throw new KernelError(
          'UrlRejected',
          `${whereOf(hop.url)} redirected; no redirect is taken here`,
        );
      if (followed === MAX_REDIRECTS)
        throw new KernelError(
          'UrlRejected',
          `more than ${MAX_REDIRECTS} redirects from ${whereOf(hop.url)}`,
        );
      hop = redirected(hop, response.status, target);
      destination = await judge(hop.url, options);
    }
  };
}
