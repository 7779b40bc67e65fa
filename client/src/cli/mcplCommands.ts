/**
 * The MCPL commands: `mgp featuresets` (MCPL §6), `mgp checkpoints` (§8) and `mgp channels` (§14).
 * Each starts the kernel on the workspace's config, as the editor would, and speaks to the servers
 * that advertise MCPL.
 */
import { oneLine } from '@shared/untrustedText';
import { blocksText } from '../kernel/mcpl/protocol';
import { CliEnvironment, CliKernel, startCliKernel } from './cliKernel';
import type { Io } from './io';
import { ParsedArgs, stringFlag } from './options';

async function withKernel(
  parsed: ParsedArgs,
  io: Io,
  environment: CliEnvironment | undefined,
  run: (cli: CliKernel) => Promise<number>,
): Promise<number> {
  const cli = await startCliKernel(parsed, io, stringFlag(parsed, '--server'), environment);
  try {
    return await run(cli);
  } finally {
    await cli.close();
  }
}

function needs(parsed: ParsedArgs, io: Io, usage: string, ...flags: string[]): boolean {
  const missing = flags.filter((flag) => !stringFlag(parsed, flag));
  if (missing.length) io.err(`mgp: ${usage} needs ${missing.join(' and ')}`);
  return missing.length === 0;
}

/** `mgp featuresets [list] | enable|disable|reset SET --server ID [--json]`. */
export function runFeatureSets(parsed: ParsedArgs, io: Io, env?: CliEnvironment): Promise<number> {
  const [action = 'list', pattern] = parsed.positional;
  const json = parsed.flags.has('--json');
  return withKernel(parsed, io, env, async (cli) => {
    const mcpl = cli.kernel.mcpl;
    if (action !== 'list') {
      const switches: Record<string, boolean | undefined> = {
        enable: true,
        disable: false,
        reset: undefined,
      };
      if (!(action in switches) || !pattern) {
        io.err('mgp: featuresets enable|disable|reset SET --server ID');
        return 2;
      }
      if (!needs(parsed, io, `featuresets ${action}`, '--server')) return 2;
      const server = stringFlag(parsed, '--server')!;
      const names = await mcpl.switchFeatureSets(server, pattern, switches[action]);
      if (json) io.out(JSON.stringify({ server, featureSets: names, action }, null, 2));
      else io.out(`${server}: ${action}d ${names.join(', ')}`);
      return 0;
    }
    const servers = mcpl.list();
    if (json) io.out(JSON.stringify(servers, null, 2));
    else
      for (const server of servers)
        for (const set of server.featureSets)
          io.out(
            `${server.serverId}\t${set.name}\t${set.enabled ? 'on' : 'off'} (${set.source})\t${set.uses.join(',')}\t${oneLine(set.description)}`,
          );
    return cli.failed.length ? 1 : 0;
  });
}

/** `mgp checkpoints [list] | rollback CHECKPOINT --server ID --set NAME [--json]`. */
export function runCheckpoints(parsed: ParsedArgs, io: Io, env?: CliEnvironment): Promise<number> {
  const [action = 'list', checkpoint] = parsed.positional;
  const json = parsed.flags.has('--json');
  return withKernel(parsed, io, env, async (cli) => {
    const mcpl = cli.kernel.mcpl;
    if (action === 'rollback') {
      if (!checkpoint || !needs(parsed, io, 'checkpoints rollback', '--server', '--set')) {
        if (!checkpoint) io.err('mgp: checkpoints rollback CHECKPOINT --server ID --set NAME');
        return 2;
      }
      const server = stringFlag(parsed, '--server')!;
      const set = stringFlag(parsed, '--set')!;
      const result = await mcpl.rollback(server, set, checkpoint).catch((error: Error) => {
        io.err(`mgp: ${server} ${set}: ${oneLine(error.message)}`);
        return undefined;
      });
      if (!result) return 1;
      if (json) io.out(JSON.stringify({ server, featureSet: set, checkpoint, ...result }, null, 2));
      else
        io.out(
          result.success
            ? `${server} ${set}: rolled back to ${checkpoint}`
            : `${server} ${set}: not rolled back: ${oneLine(result.reason ?? '')}`,
        );
      return result.success ? 0 : 1;
    }
    if (action !== 'list') {
      io.err('mgp: checkpoints [list] | rollback CHECKPOINT --server ID --set NAME');
      return 2;
    }
    await mcpl.checkpoints.load();
    const all = mcpl.checkpoints.all();
    if (json) io.out(JSON.stringify(all, null, 2));
    else
      for (const [server, sets] of Object.entries(all))
        for (const [set, state] of Object.entries(sets))
          for (const node of state.checkpoints)
            io.out(
              `${server}\t${set}\t${node.id === state.current ? '*' : ' '} ${node.id}\tparent ${node.parent ?? '-'}\t${node.createdAt}${node.tool ? `\t${node.tool}` : ''}`,
            );
    return 0;
  });
}

/** `mgp channels [list] | read CHANNEL --server ID [--wait S] | post CHANNEL TEXT --server ID`. */
export function runChannels(parsed: ParsedArgs, io: Io, env?: CliEnvironment): Promise<number> {
  const [action = 'list', channel, ...words] = parsed.positional;
  const json = parsed.flags.has('--json');
  return withKernel(parsed, io, env, async (cli) => {
    const channels = cli.kernel.mcpl.channels;
    for (const server of cli.kernel.mcpl.list())
      await channels.refresh(server.serverId).catch(() => undefined);
    if (action === 'list') {
      const list = channels.list();
      if (json) io.out(JSON.stringify(list, null, 2));
      else
        for (const view of list)
          io.out(
            `${view.serverId}\t${view.descriptor.id}\t${view.descriptor.direction}\t${oneLine(view.descriptor.label)}`,
          );
      return 0;
    }
    if ((action !== 'read' && action !== 'post') || !channel) {
      io.err('mgp: channels [list] | read CHANNEL --server ID [--wait S] | post CHANNEL TEXT');
      return 2;
    }
    if (!needs(parsed, io, `channels ${action}`, '--server')) return 2;
    const server = stringFlag(parsed, '--server')!;
    if (action === 'post') {
      const text = words.join(' ');
      if (!text) {
        io.err('mgp: channels post CHANNEL TEXT --server ID');
        return 2;
      }
      const sent = await channels.publish(server, channel, [{ type: 'text', text }], 'user');
      io.out(json ? JSON.stringify(sent, null, 2) : `${channel}: delivered ${sent.messageId}`);
      return sent.delivered ? 0 : 1;
    }
    const seconds = Number(stringFlag(parsed, '--wait') ?? '0');
    if (seconds > 0)
      await new Promise((resolve) => setTimeout(resolve, Math.min(seconds, 3600) * 1000));
    const messages = channels.messages(server, channel);
    if (json) io.out(JSON.stringify(messages, null, 2));
    else
      for (const message of messages)
        io.out(
          `${message.timestamp}\t${oneLine(message.author?.name ?? message.direction)}\t${oneLine(blocksText(message.content))}`,
        );
    return 0;
  });
}
