import { SERVER_ID } from '@shared/schemas/vocabulary';
import type { TransportKind } from './types';

/** A server to add to mgp.toml, as the file will say it (references such as `${secret:…}` kept). */
export interface NewServer {
  id: string;
  transport: TransportKind;
  command?: string;
  args?: string[];
  url?: string;
  cwd?: string;
  env?: Record<string, string>;
  headers?: Record<string, string>;
}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** A TOML basic string (TOML 1.0 §String): quotes, backslashes and control characters escaped. */
export function tomlString(value: string): string {
  const escaped = value.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => {
    const named: Record<string, string> = {
      '\\': '\\\\',
      '"': '\\"',
      '\b': '\\b',
      '\t': '\\t',
      '\n': '\\n',
      '\f': '\\f',
      '\r': '\\r',
    };
    return named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `"${escaped}"`;
}

function tomlKey(key: string): string {
  return BARE_KEY.test(key) ? key : tomlString(key);
}

function table(name: string, entries: Record<string, string> | undefined): string[] {
  const keys = Object.keys(entries ?? {});
  if (!entries || keys.length === 0) return [];
  return ['', `[${name}]`, ...keys.map((key) => `${tomlKey(key)} = ${tomlString(entries[key])}`)];
}

/** One `[[servers]]` table (MGP §15.2), with its `env` or `headers` sub-table, as TOML text. */
export function serverBlock(server: NewServer, comment?: string): string {
  const lines = comment ? comment.split('\n').map((line) => `# ${line}`) : [];
  lines.push('[[servers]]', `id = ${tomlString(server.id)}`);
  if (server.command !== undefined) lines.push(`command = ${tomlString(server.command)}`);
  if (server.args?.length) lines.push(`args = [${server.args.map(tomlString).join(', ')}]`);
  if (server.url !== undefined) lines.push(`url = ${tomlString(server.url)}`);
  lines.push(`transport = ${tomlString(server.transport)}`);
  if (server.cwd !== undefined) lines.push(`cwd = ${tomlString(server.cwd)}`);
  lines.push(...table('servers.env', server.env), ...table('servers.headers', server.headers));
  return lines.join('\n') + '\n';
}

/** `text` with the blocks appended after its last line, one blank line between tables. */
export function appendBlocks(text: string, blocks: readonly string[]): string {
  if (blocks.length === 0) return text;
  const body = blocks.join('\n');
  if (text.trim() === '') return text + body;
  const ending = text.endsWith('\n') ? '' : '\n';
  return `${text}${ending}\n${body}`;
}

/**
 * A server id the config accepts (letters, digits, `.`, `_`, `-`), made from a name people gave, and
 * unique among `taken` (which it joins): `files`, then `files-2`, `files-3`…
 */
export function uniqueServerId(name: string, taken: Set<string>): string {
  let base = name
    .trim()
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (!SERVER_ID.test(base)) base = 'server';
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/** The ids of the `[[servers]]` a TOML value declares (a parsed mgp.toml). */
export function serverIdsOf(value: Record<string, unknown> | undefined): Set<string> {
  const servers = value?.servers;
  const ids = new Set<string>();
  if (!Array.isArray(servers)) return ids;
  for (const server of servers) {
    const id = (server as { id?: unknown } | null)?.id;
    if (typeof id === 'string') ids.add(id);
  }
  return ids;
}
