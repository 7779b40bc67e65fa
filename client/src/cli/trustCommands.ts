/**
 * `mgp servers allow|revoke SERVER…`: the person's yes to starting servers declared in the folder's
 * own config files, kept where the editor keeps its own (kernel/security/launchApprovals.ts), so a
 * server allowed here starts in the editor too, and the other way round. Each is audited. The yes is
 * for the server as it is defined now: a change to what it runs asks again.
 */
import { oneLine } from '@shared/untrustedText';
import { type ConfiguredServer, launchTarget } from '../kernel';
import { startCliKernel } from './cliKernel';
import { CommandLine, UsageError } from './flags';
import type { Io } from './io';
import { CONFIG_FLAGS, configOptions, ConfigOptions, JSON_FLAG } from './options';
import { startApprovals } from './workspaceTrust';

export const TRUST_FLAGS = { ...JSON_FLAG, ...CONFIG_FLAGS } as const;

export const TRUST_USAGE = `Usage:
  mgp servers allow SERVER… [--json]    allow servers declared in this folder's config files
                                         (mgp.toml, mcp.toml, config.toml) to start, as they are
                                         defined now: here, in the editor, and in mgp serve
  mgp servers revoke SERVER… [--json]   take that back: they ask again before they start
  Both take --config FILE or --cwd DIR, and keep the record in the workspace's state folder.
  Servers of your own config (~/.config/mgp/servers.toml, $MGP_CONFIG_PATH) need no approval.`;

export interface TrustOptions extends ConfigOptions {
  verb: 'allow' | 'revoke';
  ids: string[];
  json: boolean;
}

/** `mgp servers allow …` and `mgp servers revoke …`; `mgp servers` alone lists. */
export function isTrustLine(command: string, args: readonly string[]): boolean {
  return command === 'servers' && (args[0] === 'allow' || args[0] === 'revoke');
}

export function trustOptions({
  values,
  positionals,
}: CommandLine<typeof TRUST_FLAGS>): TrustOptions {
  const [verb, ...ids] = positionals;
  if (ids.length === 0) throw new UsageError(`${verb} needs SERVER (one or more)`);
  return {
    ...configOptions(values),
    verb: verb === 'allow' ? 'allow' : 'revoke',
    ids,
    json: values.json === true,
  };
}

export async function runTrust(options: TrustOptions, io: Io): Promise<number> {
  // Only the kernel's own server: the record is written, no configured server is started.
  const cli = await startCliKernel(options, io, 'mgp');
  try {
    return options.verb === 'allow'
      ? await allow(cli, options, io)
      : await revoke(cli, options, io);
  } finally {
    await cli.close();
  }
}

type Cli = Awaited<ReturnType<typeof startCliKernel>>;

async function allow(cli: Cli, options: TrustOptions, io: Io): Promise<number> {
  const servers: ConfiguredServer[] = [];
  for (const id of options.ids) {
    const server = cli.config.servers.find((s) => s.id === id);
    if (!server) {
      const known = cli.config.servers.map((s) => s.id);
      io.err(
        `mgp servers allow: no server "${oneLine(id)}" is configured; ${known.length ? `configured: ${known.join(', ')}` : 'no server is configured'}`,
      );
      return 1;
    }
    servers.push(server);
  }
  await cli.launches.refresh();
  const approval = startApprovals(cli.config, cli.launches);
  const own = servers.filter((server) => approval(server) === 'not needed');
  const allowed = servers.filter((server) => approval(server) !== 'not needed');
  const changed = new Set(allowed.filter((s) => approval(s) === 'changed').map((s) => s.id));
  await cli.launches.allow(allowed, { via: 'command', remember: true });
  if (options.json) {
    const rows = servers.map((server) => ({
      server: server.id,
      approval: own.includes(server) ? 'not needed' : 'allowed',
      declared_in: `${server.source.file}:${server.source.line}`,
    }));
    io.out(JSON.stringify(rows, null, 2));
    return 0;
  }
  for (const server of own)
    io.out(
      `${server.id}: comes from your own config (${server.source.file}): it needs no approval`,
    );
  for (const server of allowed)
    io.out(
      `${server.id}: allowed${changed.has(server.id) ? ' again, as it is now' : ''} (${launchTarget(server)}; ${server.source.file}:${server.source.line}): it starts here and in the editor until its definition changes`,
    );
  return 0;
}

async function revoke(cli: Cli, options: TrustOptions, io: Io): Promise<number> {
  const had = await cli.launches.revoke(options.ids, 'command');
  if (options.json) {
    io.out(
      JSON.stringify(
        options.ids.map((id) => ({ server: id, revoked: had.includes(id) })),
        null,
        2,
      ),
    );
    return 0;
  }
  for (const id of options.ids)
    io.out(
      had.includes(id)
        ? `${id}: no longer allowed; it asks before it starts again`
        : `${id}: had no approval`,
    );
  return 0;
}
