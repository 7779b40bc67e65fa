/**
 * What a request to the gateway's HTTP endpoint must show before anything else reads it: a loopback
 * `Host` and, when a browser sends one, a loopback `Origin` (DNS rebinding: a page whose name resolves
 * to 127.0.0.1 must not reach the kernel, the lesson of CVE-2025-49596), then the bearer token.
 * Headers are parsed as URLs, never matched as text.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

export type Refusal = { status: 401 | 403; message: string };

/** The host name of a Host header that is `name[:port]` and nothing more. */
export function hostnameOf(host: string): string | undefined {
  try {
    const url = new URL(`http://${host}`);
    const bare = url.pathname === '/' && !url.username && !url.password && !url.search && !url.hash;
    return bare && !host.includes('/') ? url.hostname.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/** A Host header (`name[:port]`) naming this machine's loopback interface. */
export function loopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = hostnameOf(host);
  return name !== undefined && LOOPBACK_HOSTNAMES.has(name);
}

/** No Origin (not a browser), or an http(s) origin on a loopback name. */
export function loopbackOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    LOOPBACK_HOSTNAMES.has(url.hostname.toLowerCase())
  );
}

export function tokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]);
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** Why a request is refused (403 for a foreign Host or Origin, 401 without the token), or undefined. */
export function refusal(headers: IncomingHttpHeaders, token: string): Refusal | undefined {
  if (!loopbackHost(headers.host))
    return { status: 403, message: 'Forbidden: the Host header must name the loopback interface' };
  const origin = Array.isArray(headers.origin) ? headers.origin[0] : headers.origin;
  if (!loopbackOrigin(origin))
    return { status: 403, message: `Forbidden: requests from origin ${origin} are not accepted` };
  if (!tokenMatches(headers.authorization, token))
    return {
      status: 401,
      message: 'Unauthorized: send the token mgp serve printed, as "Authorization: Bearer TOKEN"',
    };
  return undefined;
}
