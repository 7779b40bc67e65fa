/**
 * Finds the hosts an argument would make a server contact:
 * - URLs anywhere in any string (`http`, `https`, `ws`, `wss`, `ftp`, `sftp`, `ssh`, `redis`, `mongodb`,
 *   `postgres`…), also when embedded in another URL's query (`?next=http://127.0.0.1/`);
 * - the whole value of a host-like key (`host`, `hostname`, `server`, `address`, `ip`, `domain`,
 *   `endpoint`, `target`, `proxy`, `remote`, `url`, `uri`, `href`, `origin`), with or without a scheme
 *   or port, also when it is a number (`2130706433`);
 * - bare IPv4 literals, `[IPv6]` literals, `localhost:port`, `*.localhost` and `name.tld:port` anywhere
 *   (not as a path segment: `https://example.com/docs/127.0.0.1` names example.com only).
 *
 * A URL is judged as the WHATWG URL parser reads it (what Node's `fetch`, browsers and most clients
 * connect to): ASCII TAB, CR and LF anywhere in it are dropped and leading or trailing control
 * characters and spaces are trimmed before anything else, so `http://loc<TAB>alhost/` is
 * `http://localhost/`. A whole string value is parsed as one URL exactly as given; URLs inside longer
 * text are found by their scheme and read with the same removals. The authority is also read the ways
 * other parsers read it: every piece split at `@`, `\`, `?` and `#`, so `http://good.com@127.0.0.1/`,
 * `http://127.0.0.1\@good.com/` and `http://good.com#@127.0.0.1/` are all refused whichever piece the
 * server's HTTP library believes. `file:`, `gopher:`, `dict:`, `jar:`, `netdoc:` and `tftp:` URLs are
 * refused by their scheme.
 */
import { judgeHost, type HostVerdict } from '../../net/hosts';
import { boundedSet, nameWords } from './text';
import type { Leaf } from './walk';

export interface Found {
  verdict: HostVerdict;
  /** The host a parser would connect to (not a userinfo piece): worth a DNS lookup even without a dot. */
  primary: boolean;
  /** Where in the string, for the excerpt. */
  index: number;
  length: number;
}

export interface SchemeFound {
  scheme: string;
  index: number;
  length: number;
}

const NETWORK_SCHEMES = String.raw`https?|wss?|ftps?|sftp|ssh|telnet|rtsp|ldaps?|smb|nfs|redis|mongodb(?:\+srv)?|mysql|postgres(?:ql)?|amqps?|mqtts?|git|svn`;
const URL_START = new RegExp(String.raw`(?<![a-z0-9+.-])(${NETWORK_SCHEMES}):[\\/]*`, 'gi');
const NETWORK_SCHEME = new RegExp(String.raw`^(?:${NETWORK_SCHEMES}):$`, 'i');
/** WHATWG URL §4.4 (basic URL parser), first steps: these are removed from anywhere in the input. */
const TAB_OR_NEWLINE = /[\t\n\r]/g;
/** …and these trimmed from both ends (C0 controls and space). */
const C0_OR_SPACE_EDGES = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;
const BLOCKED_SCHEME =
  /(?<![a-z0-9+.-])(?:file:[\\/]|gopher:[\\/]{2}|dict:[\\/]{2}|tftp:[\\/]{2}|netdoc:[\\/]|jar:[a-z]+:)/gi;
const AUTHORITY_END = /[\s/"'<>`(),;]/;
const BARE_LITERAL =
  /(?<![\w./\\])(?:\d{1,3}(?:\.\d{1,3}){3}(?![\w.])|\[[0-9a-f:.]+(?:%\w+)?\](?::\d+)?|(?:[\w-]{1,63}\.){1,10}localhost(?::\d+)?(?![\w.-])|localhost:\d+|(?:[a-z0-9-]{1,63}\.){1,10}[a-z]{2,24}:\d{2,5}(?![\w.]))/gi;
const HOST_KEY_WORDS = new Set([
  'host',
  'hostname',
  'hosts',
  'server',
  'address',
  'addr',
  'ip',
  'ips',
  'domain',
  'endpoint',
  'target',
  'proxy',
  'remote',
  'url',
  'urls',
  'uri',
  'href',
  'origin',
  'webhook',
  'callback',
  'redirect',
]);

/** Keys whose numbers are addresses too (`ip: 2130706433`); a `target: 5` is a count, not 0.0.0.5. */
const NUMERIC_HOST_KEY_WORDS = new Set(['host', 'hostname', 'ip', 'addr', 'address']);

type HostKey = 'none' | 'string' | 'number';
const hostKeyCache = new Map<string, HostKey>();

function hostKey(key: string): HostKey {
  const known = hostKeyCache.get(key);
  if (known !== undefined) return known;
  const words = nameWords(key);
  const kind = words.some((w) => NUMERIC_HOST_KEY_WORDS.has(w))
    ? 'number'
    : words.some((w) => HOST_KEY_WORDS.has(w))
      ? 'string'
      : 'none';
  return boundedSet(hostKeyCache, key, kind);
}

function withoutPort(piece: string): string {
  if (piece.startsWith('[')) return piece.slice(0, piece.indexOf(']') + 1 || undefined);
  const colons = piece.split(':').length - 1;
  return colons === 1 ? piece.slice(0, piece.indexOf(':')) : piece;
}

/** Every host a parser might take from `authority`, the likely real ones marked primary. */
function authorityHosts(
  authority: string,
  urlText: string | undefined,
): { host: string; primary: boolean }[] {
  const main = withoutPort(authority.slice(authority.lastIndexOf('@') + 1).split(/[\\?#]/)[0]);
  const hosts = new Map<string, boolean>(
    authority.split(/[@\\?#]/).map((piece) => [withoutPort(piece), false]),
  );
  hosts.set(main, true);
  if (urlText) {
    try {
      hosts.set(new URL(urlText).hostname, true);
    } catch {
      // Not a URL to WHATWG; the pieces above still stand.
    }
  }
  hosts.delete('');
  return [...hosts].map(([host, primary]) => ({ host, primary }));
}

/** Longer authorities are cut here: no real host name is longer, and it bounds the work per URL. */
const MAX_AUTHORITY = 1024;

/** The authority starting at `start`, read as WHATWG reads it: TAB, CR and LF skipped, not ending it. */
function authorityAt(text: string, start: number): { authority: string; end: number } {
  let authority = '';
  let i = start;
  for (; i < text.length && authority.length < MAX_AUTHORITY; i++) {
    const c = text[i];
    if (c === '\t' || c === '\n' || c === '\r') continue;
    if (AUTHORITY_END.test(c)) break;
    authority += c;
  }
  return { authority, end: i };
}

function urlsIn(text: string, found: Found[]): void {
  for (const m of text.matchAll(URL_START)) {
    const start = (m.index ?? 0) + m[0].length;
    const { authority, end } = authorityAt(text, start);
    for (const { host, primary } of authorityHosts(authority, `${m[1]}://${authority}/`)) {
      const verdict = judgeHost(host);
      if (verdict)
        found.push({ verdict, primary, index: m.index ?? 0, length: end - (m.index ?? 0) });
    }
  }
}

/**
 * URLs whose scheme a TAB or line break splits (`ht<TAB>tp://`): searched again in the text with those
 * removed, as a parser handed that stretch of text would see it; offsets are mapped back.
 */
function urlsInJoined(text: string, found: Found[]): void {
  const kept: number[] = [];
  let joined = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\t' || text[i] === '\n' || text[i] === '\r') continue;
    kept.push(i);
    joined += text[i];
  }
  kept.push(text.length);
  const more: Found[] = [];
  urlsIn(joined, more);
  for (const f of more) {
    const index = kept[f.index];
    found.push({ ...f, index, length: kept[f.index + f.length] - index });
  }
}

/**
 * A whole value that is one URL, parsed exactly as a client would parse it. The scheme may itself be
 * split by a TAB (`ht<TAB>tp://`), which the search by scheme in `urlsIn` cannot see.
 */
function wholeUrl(text: string, found: Found[]): void {
  if (!/^[\u0000-\u0020]*[a-z][a-z0-9+.\-\t\n\r]*:/i.test(text)) return;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return;
  }
  if (!NETWORK_SCHEME.test(url.protocol) || url.hostname === '') return;
  const verdict = judgeHost(url.hostname);
  if (verdict) found.push({ verdict, primary: true, index: 0, length: text.length });
}

function literalsIn(text: string, found: Found[]): void {
  for (const m of text.matchAll(BARE_LITERAL)) {
    const verdict = judgeHost(withoutPort(m[0]));
    if (verdict) found.push({ verdict, primary: true, index: m.index ?? 0, length: m[0].length });
  }
}

function hostValue(value: string, found: Found[]): void {
  const trimmed = value
    .replace(TAB_OR_NEWLINE, '')
    .replace(C0_OR_SPACE_EDGES, '')
    .replace(/^\/\//, '');
  if (trimmed === '' || /\s/.test(trimmed) || /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return;
  const authority = trimmed.slice(0, MAX_AUTHORITY).split('/')[0];
  for (const { host, primary } of authorityHosts(authority, `http://${authority}/`)) {
    const verdict = judgeHost(host);
    if (verdict) found.push({ verdict, primary, index: 0, length: value.length });
  }
}

/** The hosts in one argument value, and any URL with a refused scheme. */
export function hostsIn(leaf: Leaf): { hosts: Found[]; schemes: SchemeFound[] } {
  const hosts: Found[] = [];
  const schemes: SchemeFound[] = [];
  const keyKind = hostKey(leaf.key);
  if (typeof leaf.value === 'number' && keyKind === 'number') hostValue(String(leaf.value), hosts);
  if (typeof leaf.value !== 'string') return { hosts, schemes };
  const text = leaf.value;
  for (const m of text.matchAll(BLOCKED_SCHEME))
    schemes.push({ scheme: m[0].replace(/[\\/]+$/, ''), index: m.index ?? 0, length: m[0].length });
  urlsIn(text, hosts);
  if (/[\t\n\r]/.test(text)) urlsInJoined(text, hosts);
  wholeUrl(text, hosts);
  literalsIn(text, hosts);
  if (keyKind !== 'none') hostValue(text, hosts);
  return { hosts, schemes };
}
