import { isIP } from 'node:net';
import { RuleContext } from './context';
import type { ServerView } from './servers';

const METADATA_HOSTS = new Set([
  '169.254.169.254',
  'metadata.google.internal',
  'metadata',
  '100.100.100.200',
  'fd00:ec2::254',
  '169.254.170.2',
]);

function ipv4Parts(host: string): number[] | undefined {
  return isIP(host) === 4 ? host.split('.').map(Number) : undefined;
}

/** RFC 1918, carrier-grade NAT, link-local and IPv6 unique-local / link-local addresses. */
export function isPrivateAddress(host: string): boolean {
  const v4 = ipv4Parts(host);
  if (v4) {
    const [a, b] = v4;
    return (
      a === 10 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (isIP(host) === 6) {
    const lower = host.toLowerCase();
    return /^f[cd][0-9a-f]{2}:/.test(lower) || /^fe[89ab][0-9a-f]:/.test(lower);
  }
  return false;
}

export function isMetadataEndpoint(host: string): boolean {
  return METADATA_HOSTS.has(host.toLowerCase());
}

/** A URL at a cloud metadata endpoint or a private address gets a warning; a malformed URL an error. */
export function checkUrls(ctx: RuleContext, servers: ServerView[]): void {
  for (const server of servers) {
    if (!server.url || server.url.includes('${')) continue;
    let url: URL;
    try {
      url = new URL(server.url);
    } catch {
      continue; // the schema's `format: uri` reports it
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isMetadataEndpoint(host)) {
      ctx.report(
        server.urlPath,
        ['value'],
        'warning',
        'metadata-endpoint',
        `${host} is a cloud metadata endpoint: the kernel refuses to connect there`,
      );
    } else if (isPrivateAddress(host)) {
      ctx.report(
        server.urlPath,
        ['value'],
        'warning',
        'private-address',
        `${host} is a private network address: make sure this server is meant to be reached from here`,
      );
    }
  }
}
