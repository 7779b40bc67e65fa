/**
 * `mgp servers off|on SERVER` and `mgp tools off|on SERVER.TOOL`: the switches the editor's Servers
 * view sets, in the same file of the workspace's state folder (switches.ts), audited the same way
 * (the kernel's switchboard). No server is started: a server turned off stays registered and does not
 * start in the editor or in the next `mgp` command; a tool turned off is offered to nobody.
 */
import { CommandLine, UsageError } from './flags';
import type { Io } from './io';
import { startCliKernel } from './cliKernel';
import { CONFIG_FLAGS, configOptions, ConfigOptions, JSON_FLAG } from './options';

export const SWITCH_FLAGS = { ...JSON_FLAG, ...CONFIG_FLAGS } as const;

export const SWITCH_USAGE = `Usage:
  mgp servers off|on SERVER [--json]   turn a server off (it stops and does not start, here or in
                                       the editor, until turned on) or on again
  mgp tools off|on SERVER.TOOL [--json]
                                       turn one tool off (offered to no one, its calls refused) or
                                       on again; TOOL is the server's own name for it
  Both take --config FILE or --cwd DIR, and keep the switch in the workspace's state folder.`;

export type SwitchKind = 'servers' | 'tools';

export interface SwitchOptions extends ConfigOptions {
  kind: SwitchKind;
  enabled: boolean;
  /** A server id, or `SERVER.TOOL` for a tool: split against the configured ids when run. */
  target: string;
  json: boolean;
}

/** `mgp servers off …` and `mgp tools on …` are switches; `mgp servers` and `mgp tools` list. */
export function isSwitchLine(command: string, args: readonly string[]): command is SwitchKind {
  return (command === 'servers' || command === 'tools') && (args[0] === 'off' || args[0] === 'on');
}

export function switchOptions(
  kind: SwitchKind,
  { values, positionals }: CommandLine<typeof SWITCH_FLAGS>,
): SwitchOptions {
  const [verb, target, extra] = positionals;
  const what = kind === 'servers' ? 'SERVER' : 'SERVER.TOOL';
  if (!target) throw new UsageError(`${verb} needs ${what}`);
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
  return {
    ...configOptions(values),
    kind,
    enabled: verb === 'on',
    target,
    json: values.json === true,
  };
}

/** `SERVER.TOOL` split at the longest configured server id it starts with (ids may hold dots). */
function splitTool(target: string, serverIds: readonly string[]): [string, string] | undefined {
  const server = serverIds
    .filter((id) => target.startsWith(`${id}.`) && target.length > id.length + 1)
    .sort((a, b) => b.length - a.length)[0];
  return server === undefined ? undefined : [server, target.slice(server.length + 1)];
}

function notConfigured(options: SwitchOptions, serverIds: readonly string[]): string {
  const known = serverIds.length
    ? `configured: ${serverIds.join(', ')}`
    : 'no server is configured';
  const shape = options.kind === 'tools' ? ' (write SERVER.TOOL, e.g. example.add)' : '';
  return `no server "${options.target}" is configured${shape}; ${known}`;
}

export async function runSwitch(options: SwitchOptions, io: Io): Promise<number> {
  const name = `mgp ${options.kind} ${options.enabled ? 'on' : 'off'}`;
  // Only the kernel's own server: the switch is written, no configured server is started.
  const cli = await startCliKernel(options, io, 'mgp');
  try {
    const { switches, switchboard } = cli.kernel;
    const serverIds = cli.config.servers.map((server) => server.id);
    if (options.kind === 'servers') {
      const id = options.target;
      // A server no longer configured may still be turned back on: its switch is cleared.
      if (!serverIds.includes(id) && !(options.enabled && switches.serverOff(id))) {
        io.err(`${name}: ${notConfigured(options, serverIds)}`);
        return 1;
      }
      await switchboard.setServer(id, options.enabled);
      report(io, options, { server: id });
      return 0;
    }
    const tool = splitTool(options.target, serverIds);
    if (!tool) {
      io.err(`${name}: ${notConfigured(options, serverIds)}`);
      return 1;
    }
    await switchboard.setTool(tool[0], tool[1], options.enabled);
    report(io, options, { server: tool[0], tool: tool[1] });
    return 0;
  } finally {
    await cli.close();
  }
}

function report(io: Io, options: SwitchOptions, target: { server: string; tool?: string }): void {
  if (options.json) {
    io.out(JSON.stringify({ ...target, enabled: options.enabled }, null, 2));
    return;
  }
  const label = target.tool === undefined ? target.server : `${target.server}.${target.tool}`;
  if (options.enabled) io.out(`${label}: on`);
  else if (target.tool === undefined)
    io.out(`${label}: off (it does not start until \`mgp servers on ${label}\`)`);
  else io.out(`${label}: off (offered to no one; its calls are refused)`);
}
