/**
 * The Seatbelt profile (`sandbox-exec -p`) that confines one server on macOS: writes only to the
 * folders it may write, its own temporary folder and the terminal devices; no read of a denied path;
 * the network as its policy says (for `domains`, only the kernel's proxy on loopback).
 */
import type { NetworkAccess } from '../config/types';
import type { ExistingPath } from './paths';

export interface SeatbeltConfinement {
  write: string[];
  denyRead: ExistingPath[];
  tmp: string;
  network: NetworkAccess;
  /** Loopback TCP ports it may connect to: the allowed ones, or the proxy's. */
  loopbackPorts: number[];
}

/** A string literal of the profile language (a Scheme string). */
function quoted(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function networkRules(confinement: SeatbeltConfinement): string[] {
  if (confinement.network === 'all') return [];
  const rules = [
    '(deny network*)',
    '(allow network* (local unix))',
    '(allow network* (remote unix))',
  ];
  for (const port of confinement.loopbackPorts)
    rules.push(`(allow network-outbound (remote tcp ${quoted(`localhost:${port}`)}))`);
  return rules;
}

export function seatbeltProfile(confinement: SeatbeltConfinement): string {
  const writable = [...confinement.write, confinement.tmp].map((p) => `(subpath ${quoted(p)})`);
  const denied = confinement.denyRead.map((d) =>
    d.directory ? `(subpath ${quoted(d.path)})` : `(literal ${quoted(d.path)})`,
  );
  return [
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    `(allow file-write* ${writable.join(' ')} (literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/tty") (regex #"^/dev/fd/"))`,
    ...(denied.length ? [`(deny file-read* file-write* ${denied.join(' ')})`] : []),
    ...networkRules(confinement),
  ].join('\n');
}
