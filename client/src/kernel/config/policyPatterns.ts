/**
 * The managed policy's server patterns: `id:PATTERN` (or a bare pattern) against the server's id,
 * `command:PATTERN` against its command line, `url:PATTERN` against its URL. `*` matches any run of
 * characters, everything else itself; the whole value must match.
 */
import type { ConfiguredServer } from './types';

/** A glob with `*` only, as an anchored regular expression. */
export function globPattern(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`, 's');
}

/** The command line a `command:` pattern is matched against: the command, then each argument. */
export function commandLine(
  server: Pick<ConfiguredServer, 'command' | 'args'>,
): string | undefined {
  return server.command ? [server.command, ...server.args].join(' ') : undefined;
}

export function matchesServer(
  pattern: string,
  server: Pick<ConfiguredServer, 'id' | 'command' | 'args' | 'url'>,
): boolean {
  const split = /^(id|command|url):(.*)$/s.exec(pattern);
  const kind = split?.[1] ?? 'id';
  const glob = globPattern(split ? split[2] : pattern);
  if (kind === 'id') return glob.test(server.id);
  if (kind === 'url') return server.url !== undefined && glob.test(server.url);
  const line = commandLine(server);
  // `command:npx*` matches `npx -y pkg`; `command:*server-filesystem*` matches it anywhere.
  return line !== undefined && (glob.test(line) || glob.test(server.command ?? ''));
}
