/**
 * IP addresses the kernel does not reach on a server's word: the ones the network_restricted validator
 * refuses (MGP §4.5: "localhost, private IPs, metadata endpoints") and the destination guard
 * (destinationGuard.ts) refuses. Loopback, private (with CGNAT and unique local), link-local,
 * multicast, reserved and the cloud metadata endpoints.
 *
 * IPv4 is parsed the way `inet_aton` and URL parsers do, so the obfuscated spellings of 127.0.0.1 are
 * caught too: `2130706433`, `0x7f000001`, `0177.0.0.1`, `127.1`, `0x7f.1`. IPv6 addresses that carry an
 * IPv4 address (mapped `::ffff:127.0.0.1`, compatible `::7f00:1`, NAT64 `64:ff9b::`, 6to4 `2002::`, Teredo)
 * are judged by that IPv4 address.
 */
import { isIPv6 } from 'node:net';

export interface Restriction {
  /** `loopback`, `private`, `link-local`, `metadata`… */
  kind: string;
  /** For the message: "a loopback address (127.0.0.0/8)". */
  label: string;
}

interface V4Range {
  base: number;
  bits: number;
  kind: string;
  label: string;
}

function v4(text: string): number {
  return text.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

const V4_RANGES: V4Range[] = [
  ['0.0.0.0', 8, 'unspecified', 'an unspecified "this network" address (0.0.0.0/8)'],
  ['10.0.0.0', 8, 'private', 'a private address (10.0.0.0/8)'],
  ['100.64.0.0', 10, 'private', 'a shared CGNAT address (100.64.0.0/10)'],
  ['127.0.0.0', 8, 'loopback', 'a loopback address (127.0.0.0/8)'],
  ['169.254.0.0', 16, 'link-local', 'a link-local address (169.254.0.0/16)'],
  ['172.16.0.0', 12, 'private', 'a private address (172.16.0.0/12)'],
  ['192.0.0.0', 24, 'private', 'an IETF protocol address (192.0.0.0/24)'],
  ['192.168.0.0', 16, 'private', 'a private address (192.168.0.0/16)'],
  ['224.0.0.0', 4, 'multicast', 'a multicast address (224.0.0.0/4)'],
  ['240.0.0.0', 4, 'reserved', 'a reserved or broadcast address (240.0.0.0/4)'],
].map(([base, bits, kind, label]) => ({
  base: v4(base as string),
  bits: bits as number,
  kind: kind as string,
  label: label as string,
}));

const METADATA_V4 = new Map<number, string>([
  [v4('169.254.169.254'), 'the cloud metadata endpoint (AWS, GCP, Azure, OpenStack)'],
  [v4('169.254.170.2'), 'the AWS ECS task metadata endpoint'],
  [v4('100.100.100.200'), 'the Alibaba Cloud metadata endpoint'],
  [v4('192.0.0.192'), 'the Oracle Cloud metadata endpoint'],
]);

function parseV4Part(part: string): number | undefined {
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]+$/.test(part)) return parseInt(part, 8);
  if (/^(?:0|[1-9]\d*)$/.test(part)) return Number(part);
  return undefined;
}

/** An IPv4 address in any spelling `inet_aton` accepts (1 to 4 parts, decimal, octal or hex), as a number. */
export function parseIPv4(text: string): number | undefined {
  if (!/^[0-9a-fx.]+$/i.test(text) || text.length > 64) return undefined;
  const parts = text.endsWith('.') ? text.slice(0, -1).split('.') : text.split('.');
  if (parts.length > 4) return undefined;
  const values = parts.map(parseV4Part);
  if (values.some((v) => v === undefined)) return undefined;
  const numbers = values as number[];
  const last = numbers.pop() as number;
  if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) return undefined;
  return numbers.reduce((acc, n, i) => acc + n * 256 ** (3 - i), 0) + last;
}

export function formatIPv4(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

export function classifyIPv4(n: number): Restriction | undefined {
  const metadata = METADATA_V4.get(n);
  if (metadata) return { kind: 'metadata', label: metadata };
  const range = V4_RANGES.find(
    (r) => Math.floor(n / 2 ** (32 - r.bits)) === Math.floor(r.base / 2 ** (32 - r.bits)),
  );
  return range && { kind: range.kind, label: range.label };
}

/** An IPv6 address (brackets and a zone id allowed) as eight 16-bit groups. */
export function parseIPv6(text: string): number[] | undefined {
  let address = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIPv6(address)) return undefined;
  const dotted = /\d+\.\d+\.\d+\.\d+$/.exec(address);
  if (dotted) {
    const n = v4(dotted[0]);
    address = `${address.slice(0, dotted.index)}${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`;
  }
  const hex = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const [head, rest] = address.split('::');
  if (rest === undefined) return hex(head);
  const left = hex(head);
  const right = hex(rest);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function embeddedV4(g: number[]): number | undefined {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const low = g[6] * 65536 + g[7];
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return low;
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return low;
  if (g[0] === 0x64 && g[1] === 0xff9b) return low;
  if (g[0] === 0x2002) return g[1] * 65536 + g[2];
  if (g[0] === 0x2001 && g[1] === 0) return ~low >>> 0;
  return undefined;
}

export function classifyIPv6(g: number[]): Restriction | undefined {
  if (g.every((x) => x === 0))
    return { kind: 'unspecified', label: 'the unspecified address (::)' };
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1)
    return { kind: 'loopback', label: 'the loopback address (::1)' };
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254) {
    return { kind: 'metadata', label: 'the AWS metadata endpoint (fd00:ec2::254)' };
  }
  if ((g[0] & 0xfe00) === 0xfc00)
    return { kind: 'private', label: 'a unique local address (fc00::/7)' };
  if ((g[0] & 0xffc0) === 0xfe80)
    return { kind: 'link-local', label: 'a link-local address (fe80::/10)' };
  if ((g[0] & 0xffc0) === 0xfec0)
    return { kind: 'private', label: 'a site-local address (fec0::/10)' };
  if ((g[0] & 0xff00) === 0xff00)
    return { kind: 'multicast', label: 'a multicast address (ff00::/8)' };
  const inner = embeddedV4(g);
  const restriction = inner === undefined ? undefined : classifyIPv4(inner);
  return (
    restriction && { kind: restriction.kind, label: `${restriction.label} inside an IPv6 address` }
  );
}
