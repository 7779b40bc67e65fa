/**
 * One HTTP(S) request connected to an address checked beforehand (destinationGuard.ts): the socket's
 * lookup answers with that address, so the name is not resolved a second time between the check and
 * the connection. The Host header and the TLS server name stay the URL's. Answers with a WHATWG
 * `Response`; fails as fetch does (a TypeError) when no connection or answer comes.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIPv6, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';

export interface PinnedRequest {
  url: URL;
  method: string;
  headers: Headers;
  body?: ArrayBuffer;
  signal?: AbortSignal;
}

type AllCallback = (error: Error | null, addresses: { address: string; family: number }[]) => void;

function fixedLookup(address: string): LookupFunction {
  const family = isIPv6(address) ? 6 : 4;
  return (_hostname, options, callback) => {
    if (options.all) (callback as unknown as AllCallback)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

const EMPTY_BODY_STATUSES = new Set([204, 205, 304]);

function toResponse(answer: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.set(name, value);
  }
  const status = answer.statusCode ?? 502;
  const empty = method === 'HEAD' || EMPTY_BODY_STATUSES.has(status);
  if (empty) answer.resume();
  const body = empty ? null : (Readable.toWeb(answer) as unknown as ReadableStream<Uint8Array>);
  return new Response(body, { status, statusText: answer.statusMessage ?? '', headers });
}

/** Sends `pinned` to `address` (already checked); `ca` replaces the system's authorities (tests). */
export function requestAt(
  address: string,
  pinned: PinnedRequest,
  ca?: string | Buffer,
): Promise<Response> {
  const send = pinned.url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers: Record<string, string> = {};
  pinned.headers.forEach((value, name) => (headers[name] = value));
  const body = pinned.body ? Buffer.from(pinned.body) : undefined;
  if (body) headers['content-length'] = String(body.byteLength);
  return new Promise((resolve, reject) => {
    const outgoing = send(pinned.url, {
      method: pinned.method,
      headers,
      lookup: fixedLookup(address),
      agent: false,
      ...(pinned.signal ? { signal: pinned.signal } : {}),
      ...(ca ? { ca } : {}),
    });
    outgoing.once('response', (answer) => resolve(toResponse(answer, pinned.method)));
    outgoing.once('error', (error) =>
      reject(
        pinned.signal?.aborted
          ? (pinned.signal.reason ?? error)
          : new TypeError(`fetch failed (${error.message})`, { cause: error }),
      ),
    );
    outgoing.end(body);
  });
}
