/**
 * The MCPL commands: `mgp featuresets` (MCPL §6), `mgp checkpoints` (§8) and `mgp channels` (§14).
 * Each starts the kernel on the workspace's config, as the editor would, and speaks to the servers
 * that advertise MCPL. Their flags are read into options before anything starts.
 */
import { oneLine } from '@shared/untrustedText';
import { blocksText } from '../kernel';
import { CliEnvironment, CliKernel, startCliKernel } from './cliKernel';
import { CommandLine, UsageError, wholeNumber } from './flags';
import type { Io } from './io';
import { JSON_FLAG, KERNEL_FLAGS, KernelOptions, kernelOptions } from './options';

const SERVER_FLAG = { server: { type: 'string', value: 'ID' } } as const;

interface McplOptions extends KernelOptions {
  /** Starts only this server; the actions that change something need it. */
  server?: string;
  json: boolean;
}

async function withKernel(
  options: McplOptions,
  io: Io,
  environment: CliEnvironment | undefined,
  run: (cli: CliKernel) => Promise<number>,
): Promise<number> {
  const cli = await startCliKernel(options, io, options.server, environment);
  try {
    return await run(cli);
  } finally {
    await cli.close();
  }
}

/** The action word (a positional), or undefined when it is not one of `actions`. */
function actionOf<T extends string>(given: string, actions: readonly T[]): T | undefined {
  return (actions as readonly string[]).includes(given) ? (given as T) : undefined;
}

function required(value: string | undefined, usage: string): string {
  if (!value) throw new UsageError(usage);
  return value;
}

export const FEATURE_SETS_FLAGS = { ...SERVER_FLAG, ...JSON_FLAG, ...KERNEL_FLAGS } as const;

const FEATURE_SETS_USAGE = 'featuresets [list] | enable|disable|reset SET --server ID';

export interface FeatureSetsOptions extends McplOptions {
  action: 'list' | 'enable' | 'disable' | 'reset';
  /** The feature set (or pattern) an action switches. */
  pattern?: string;
}

export function featureSetsOptions({
  values,
  positionals,
}: CommandLine<typeof FEATURE_SETS_FLAGS>): FeatureSetsOptions {
  const [given = 'list', pattern, ...extra] = positionals;
  const action = actionOf(given, ['list', 'enable', 'disable', 'reset'] as const);
  if (!action || extra.length || (action === 'list') !== (pattern === undefined))
    throw new UsageError(FEATURE_SETS_USAGE);
  if (action !== 'list') required(values.server, `${FEATURE_SETS_USAGE}: name the --server`);
  return {
    ...kernelOptions(values),
    server: values.server,
    json: values.json === true,
    action,
    pattern,
  };
}

/** `mgp featuresets [list] | enable|disable|reset SET --server ID [--json]`. */
export function runFeatureSets(
  options: FeatureSetsOptions,
  io: Io,
  env?: CliEnvironment,
): Promise<number> {
  const { action, json } = options;
  return withKernel(options, io, env, async (cli) => {
    const mcpl = cli.kernel.mcpl;
    if (action !== 'list') {
      const switches = { enable: true, disable: false, reset: undefined };
      const done = { enable: 'enabled', disable: 'disabled', reset: 'reset to the defaults' };
      const server = options.server ?? '';
      const names = await mcpl.switchFeatureSets(server, options.pattern ?? '', switches[action]);
      if (json) io.out(JSON.stringify({ server, featureSets: names, action }, null, 2));
      else io.out(`${server}: ${done[action]} ${names.join(', ')}`);
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

export const CHECKPOINTS_FLAGS = {
  ...SERVER_FLAG,
  set: { type: 'string', value: 'NAME' },
  ...JSON_FLAG,
  ...KERNEL_FLAGS,
} as const;

const CHECKPOINTS_USAGE = 'checkpoints [list] | rollback CHECKPOINT --server ID --set NAME';

export interface CheckpointsOptions extends McplOptions {
  /** Set for a rollback, with the feature set it is in. */
  rollback?: { checkpoint: string; server: string; set: string };
}

export function checkpointsOptions({
  values,
  positionals,
}: CommandLine<typeof CHECKPOINTS_FLAGS>): CheckpointsOptions {
  const [action = 'list', checkpoint, ...extra] = positionals;
  const options = { ...kernelOptions(values), server: values.server, json: values.json === true };
  if (action === 'list' && checkpoint === undefined) return options;
  if (action !== 'rollback' || !checkpoint || extra.length) throw new UsageError(CHECKPOINTS_USAGE);
  const server = required(values.server, `${CHECKPOINTS_USAGE}: name the --server`);
  const set = required(values.set, `${CHECKPOINTS_USAGE}: name the --set`);
  return { ...options, rollback: { checkpoint, server, set } };
}

/** `mgp checkpoints [list] | rollback CHECKPOINT --server ID --set NAME [--json]`. */
export function runCheckpoints(
  options: CheckpointsOptions,
  io: Io,
  env?: CliEnvironment,
): Promise<number> {
  const { json } = options;
  return withKernel(options, io, env, async (cli) => {
    const mcpl = cli.kernel.mcpl;
    if (options.rollback) {
      const { server, set, checkpoint } = options.rollback;
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

export const CHANNELS_FLAGS = {
  ...SERVER_FLAG,
  wait: { type: 'string', value: 'S' },
  ...JSON_FLAG,
  ...KERNEL_FLAGS,
} as const;

const CHANNELS_USAGE =
  'channels [list] | read CHANNEL --server ID [--wait S] | post CHANNEL TEXT --server ID';

export interface ChannelsOptions extends McplOptions {
  action: 'list' | 'read' | 'post';
  channel?: string;
  /** What `post` sends. */
  text: string;
  /** How long `read` waits for messages first, in seconds (at most an hour). */
  waitSeconds: number;
}

export function channelsOptions({
  values,
  positionals,
}: CommandLine<typeof CHANNELS_FLAGS>): ChannelsOptions {
  const [given = 'list', channel, ...words] = positionals;
  const action = actionOf(given, ['list', 'read', 'post'] as const);
  const text = words.join(' ');
  const shapeFits =
    action === 'list'
      ? channel === undefined
      : Boolean(channel) && (action === 'post' ? Boolean(text) : words.length === 0);
  if (!action || !shapeFits) throw new UsageError(CHANNELS_USAGE);
  if (action !== 'list') required(values.server, `${CHANNELS_USAGE}: name the --server`);
  return {
    ...kernelOptions(values),
    server: values.server,
    json: values.json === true,
    action,
    channel,
    text,
    waitSeconds: Math.min(wholeNumber('wait', values.wait, 0), 3600),
  };
}

/** `mgp channels [list] | read CHANNEL --server ID [--wait S] | post CHANNEL TEXT --server ID`. */
export function runChannels(
  options: ChannelsOptions,
  io: Io,
  env?: CliEnvironment,
): Promise<number> {
  const { action, json, text, waitSeconds } = options;
  const channel = options.channel ?? '';
  return withKernel(options, io, env, async (cli) => {
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
    const server = options.server ?? '';
    if (action === 'post') {
      const sent = await channels.publish(server, channel, [{ type: 'text', text }], 'user');
      io.out(json ? JSON.stringify(sent, null, 2) : `${channel}: delivered ${sent.messageId}`);
      return sent.delivered ? 0 : 1;
    }
    if (waitSeconds > 0) await new Promise((resolve) => setTimeout(resolve, waitSeconds * 1000));
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
