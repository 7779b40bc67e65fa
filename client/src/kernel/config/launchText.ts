/**
 * A server's launch as the person asked to allow it reads it: the whole command line (each word
 * quoted as a POSIX shell would need it, so `sh -c 'touch x'` is not mistaken for four words) or the
 * URL, and the environment it adds. It comes from a repository's file: every control, line break and
 * bidi character in it is shown as a visible escape.
 */
import { oneLine } from '@shared/untrustedText';
import type { ConfiguredServer } from './types';

const PLAIN_WORD = /^[A-Za-z0-9_./:=@%+,-]+$/;

/** One word as a shell would have to be given it (single quotes unless it needs none), one line. */
export function shellWord(word: string): string {
  return oneLine(PLAIN_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
}

/** `stdio: sh -c 'touch x'`, `http: https://…`, or `A2A agent: https://…`. */
export function launchTarget(server: ConfiguredServer): string {
  if (server.a2a) return `A2A agent: ${oneLine(server.url ?? '')}`;
  const what =
    server.transport === 'stdio'
      ? [server.command ?? '', ...server.args].map(shellWord).join(' ')
      : oneLine(server.url ?? '');
  return `${server.transport}: ${what}`;
}

/**
 * Lines under the target: the variables it sets (as written: `${…}` references stay references),
 * those it passes through from your environment, and the names of the headers it sends.
 */
export function launchDetails(server: ConfiguredServer): string[] {
  const { env, passEnv, headers } = server.settings;
  const lines: string[] = [];
  const set = Object.entries(env).map(([name, value]) => shellWord(`${name}=${value}`));
  if (set.length) lines.push(`env: ${set.join(' ')}`);
  if (passEnv.length) lines.push(`passes your ${passEnv.map(oneLine).join(', ')}`);
  const headerNames = Object.keys(headers);
  if (headerNames.length) lines.push(`headers: ${headerNames.map(oneLine).join(', ')}`);
  return lines;
}
