/**
 * Judges one host as written in an argument: an IP address in any spelling, a name that is local by
 * definition, or a name to resolve.
 *
 * Refused by name, without DNS: `localhost` and `*.localhost`, `localhost.localdomain`, `ip6-localhost`;
 * metadata names (`metadata.google.internal`, `metadata.goog`, `metadata`, `instance-data`); names under
 * private-use suffixes (`.internal`, `.local`, `.localdomain`, `.home.arpa`, `.lan`, `.intranet`,
 * `.corp`, `.home`, `.private`); public names that exist to point at loopback (`localtest.me`, `lvh.me`,
 * `vcap.me`, `lacolhost.com` and their subdomains); and wildcard-DNS names that spell an IP address
 * (`127.0.0.1.nip.io`, `10-0-0-1.sslip.io`, `7f000001.nip.io`), judged by that address.
 */
import {
  classifyIPv4,
  classifyIPv6,
  formatIPv4,
  parseIPv4,
  parseIPv6,
  type Restriction,
} from './ipAddress';

export type HostVerdict =
  | { kind: 'restricted'; host: string; address?: string; restriction: Restriction }
  | { kind: 'name'; host: string }
  | { kind: 'public'; host: string };

const LOOPBACK_NAME =
  /^(?:localhost|localhost\.localdomain|ip6-localhost|ip6-loopback|localtest\.me|lvh\.me|vcap\.me|lacolhost\.com)$|\.(?:localhost|localtest\.me|lvh\.me|vcap\.me|lacolhost\.com)$/;
const METADATA_NAME =
  /^(?:metadata|metadata\.google\.internal|metadata\.goog|instance-data|instance-data\.ec2\.internal)$/;
const PRIVATE_SUFFIX =
  /(?:^|\.)(?:internal|local|localdomain|home\.arpa|lan|intranet|corp|home|private)$/;
const EMBEDDED_IP =
  /(?:^|[.-])((?:\d{1,3}[.-]){3}\d{1,3}|[0-9a-f]{8})\.(?:nip\.io|sslip\.io|xip\.io|traefik\.me)$/;
const HOST_NAME = /^[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)*$/u;

function normalize(raw: string): string {
  let host = raw.trim();
  if (host.includes('%')) {
    try {
      host = decodeURIComponent(host);
    } catch {
      // Not percent-encoded after all; judge it as written.
    }
  }
  // A parser written in C stops at a NUL or another control character; judge what it would see.
  return host
    .split(/[\u0000-\u0020]/)[0]
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '');
}

function judgeAddress(host: string, raw: string): HostVerdict | undefined {
  if (host.includes(':')) {
    const groups = parseIPv6(host);
    if (!groups) return undefined;
    const restriction = classifyIPv6(groups);
    return restriction
      ? { kind: 'restricted', host: raw, address: host, restriction }
      : { kind: 'public', host: raw };
  }
  const n = parseIPv4(host);
  if (n === undefined) return undefined;
  const restriction = classifyIPv4(n);
  return restriction
    ? { kind: 'restricted', host: raw, address: formatIPv4(n), restriction }
    : { kind: 'public', host: raw };
}

function judgeName(host: string, raw: string): HostVerdict | undefined {
  if (METADATA_NAME.test(host))
    return {
      kind: 'restricted',
      host: raw,
      restriction: { kind: 'metadata', label: 'a cloud metadata host name' },
    };
  if (LOOPBACK_NAME.test(host))
    return {
      kind: 'restricted',
      host: raw,
      restriction: { kind: 'loopback', label: 'a loopback host name' },
    };
  if (PRIVATE_SUFFIX.test(host))
    return {
      kind: 'restricted',
      host: raw,
      restriction: { kind: 'private', label: 'a private-use domain' },
    };
  const embedded = EMBEDDED_IP.exec(host);
  if (embedded) {
    const spelled =
      embedded[1].includes('.') || embedded[1].includes('-')
        ? embedded[1].replace(/-/g, '.')
        : `0x${embedded[1]}`;
    const verdict = judgeAddress(spelled, raw);
    if (verdict?.kind === 'restricted') return verdict;
  }
  return HOST_NAME.test(host) ? { kind: 'name', host } : undefined;
}

/** What to make of `raw` as a host; undefined when it is not a host at all. */
export function judgeHost(raw: string): HostVerdict | undefined {
  const host = normalize(raw);
  if (host === '') return undefined;
  return judgeAddress(host, raw) ?? judgeName(host, raw);
}

/** What to make of an address a resolver returned. */
export function judgeResolved(address: string): Restriction | undefined {
  const verdict = judgeAddress(address.toLowerCase(), address);
  return verdict?.kind === 'restricted' ? verdict.restriction : undefined;
}
