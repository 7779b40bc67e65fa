/**
 * What `mgp validate server` connects to: a command line (stdio), a URL (Streamable HTTP, falling
 * back to SSE), or a server of a config file. Each becomes a `ConfiguredServer` through the config
 * loader, so the validator opens it with the kernel's own connection code and the kernel's defaults.
 */
import { join } from 'node:path';
import { parseConfigText } from '../config/load';
import { serverBlock } from '../config/serverBlock';
import type { ConfiguredServer, KernelConfig } from '../config/types';
import { KernelError } from '../domain/errors';

export type ValidationTarget =
  | { kind: 'command'; command: string; args: string[]; cwd: string }
  | { kind: 'url'; url: string; transport?: 'http' | 'sse'; cwd: string }
  | { kind: 'config'; config: KernelConfig; serverId: string }
  /** A server the kernel hosts, as it has it now (hostedValidation.ts). */
  | { kind: 'hosted'; server: ConfiguredServer };

/** The id a command line or URL is known by in the report and the logs. */
export const TARGET_ID = 'validated';

/** Variables a server started from a command line gets besides PATH: what npx, node and python need. */
const PASSED_TO_COMMANDS = ['HOME', 'USER', 'TMPDIR', 'LANG', 'NODE_OPTIONS', 'npm_config_cache'];

function fromBlock(block: string, cwd: string): ConfiguredServer {
  const loaded = parseConfigText(block, {
    path: join(cwd, 'mgp-validate.toml'),
    format: 'mgp',
    origin: 'user',
  });
  const server = loaded.servers[0];
  if (!server)
    throw new KernelError(
      'StartFailed',
      loaded.problems.map((problem) => problem.message).join('; ') || 'not a server',
    );
  return server;
}

/** A copy the validator may change (its request timeout) without changing the config's. */
function own(server: ConfiguredServer): ConfiguredServer {
  return { ...server, settings: { ...server.settings } };
}

/** The server the target names, with the kernel's defaults for what the target does not say. */
export function targetServer(
  target: ValidationTarget,
  host: Readonly<Record<string, string | undefined>> = process.env,
): ConfiguredServer {
  if (target.kind === 'hosted') return own(target.server);
  if (target.kind === 'config') {
    const server = target.config.servers.find((candidate) => candidate.id === target.serverId);
    if (!server) {
      const ids = target.config.servers.map((candidate) => candidate.id);
      throw new KernelError(
        'UnknownServer',
        `no server "${target.serverId}" in the config${ids.length ? ` (it has ${ids.join(', ')})` : ''}`,
      );
    }
    return own(server);
  }
  if (target.kind === 'url')
    return fromBlock(
      serverBlock({ id: TARGET_ID, transport: target.transport ?? 'http', url: target.url }),
      target.cwd,
    );
  const server = fromBlock(
    serverBlock({
      id: TARGET_ID,
      transport: 'stdio',
      command: target.command,
      args: target.args,
      cwd: target.cwd,
    }),
    target.cwd,
  );
  server.settings.passEnv = PASSED_TO_COMMANDS.filter((name) => host[name] !== undefined);
  return server;
}

/** The target in words: the command line as typed, the URL, or the config's server id. */
export function describeTarget(target: ValidationTarget): string {
  if (target.kind === 'config') return `server "${target.serverId}" of the config`;
  if (target.kind === 'hosted')
    return `server "${target.server.id}" of ${target.server.source.file}`;
  if (target.kind === 'url') return target.url;
  return [target.command, ...target.args]
    .map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word)))
    .join(' ');
}
