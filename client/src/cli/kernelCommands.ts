/**
 * The commands that start servers in a kernel and ask it something: `mgp tools`, `mgp resources`,
 * `mgp prompts`, `mgp access`, `mgp discover`, `mgp events`. Each declares its flags once and reads
 * them into typed options before it starts anything (`mgp call` is in callCommand.ts).
 */
import { oneLine } from '@shared/untrustedText';
import { qualifiedToolName } from '../kernel';
import { describeError } from './callCommand';
import { CliEnvironment, startCliKernel } from './cliKernel';
import { CommandLine, oneOf, UsageError, wholeNumber } from './flags';
import type { Io } from './io';
import { JSON_FLAG, KERNEL_FLAGS, KernelOptions, kernelOptions } from './options';

const SERVER_FLAG = { server: { type: 'string', value: 'ID' } } as const;

/** Options of a command that starts one server (`--server`) or all. */
interface ServersOptions extends KernelOptions {
  server?: string;
  json: boolean;
}

function noPositionals(positionals: string[]): void {
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
}

export const TOOLS_FLAGS = {
  ...SERVER_FLAG,
  'kernel-tools': { type: 'boolean' },
  ...JSON_FLAG,
  ...KERNEL_FLAGS,
} as const;

export interface ToolsOptions extends ServersOptions {
  kernelTools: boolean;
}

export function toolsOptions({
  values,
  positionals,
}: CommandLine<typeof TOOLS_FLAGS>): ToolsOptions {
  noPositionals(positionals);
  return {
    ...kernelOptions(values),
    server: values.server,
    kernelTools: values['kernel-tools'] === true,
    json: values.json === true,
  };
}

/**
 * `mgp tools [--server ID] [--json]`: every tool under its kernel name, with its effective risk, and
 * the servers not ready (each waited for up to its connect timeout), named on stderr and in `--json`.
 */
export async function runTools(
  options: ToolsOptions,
  io: Io,
  environment?: CliEnvironment,
): Promise<number> {
  const cli = await startCliKernel(options, io, options.server, environment);
  try {
    const entries = cli.kernel.tools().filter((entry) => !entry.kernel || options.kernelTools);
    // Kernel names: `server.tool`, or OpenFang's `mcp_{server}_{tool}` for servers from its config.toml.
    const nameOf = (serverId: string, name: string, kernel: boolean) => {
      const config = cli.kernel.manager.find(serverId)?.config;
      return kernel || !config ? name : qualifiedToolName(config, name);
    };
    if (options.json) {
      io.out(
        JSON.stringify(
          {
            tools: entries.map(({ serverId, name, tool, security, kernel }) => ({
              name: nameOf(serverId, name, kernel),
              server: serverId,
              tool: name,
              description: tool.description,
              inputSchema: tool.inputSchema,
              annotations: tool.annotations,
              security: { ...security, sources: undefined },
              security_sources: security.sources,
              declared_security: (tool as { security?: unknown }).security,
              _mgp: (tool as { _mgp?: unknown })._mgp,
            })),
            // The servers whose tools the listing lacks, and why (a straggler still starting among them).
            not_ready: cli.notReady,
          },
          null,
          2,
        ),
      );
    } else {
      for (const { serverId, name, tool, security, kernel } of entries)
        io.out(
          `${oneLine(nameOf(serverId, name, kernel))}\t${security.risk_level}\t${oneLine(tool.description?.split('\n')[0] ?? '')}`,
        );
    }
    const configErrors = cli.config.problems.some((p) => p.severity === 'error');
    return cli.failed.length || configErrors ? 1 : 0;
  } finally {
    await cli.close();
  }
}

export const LISTING_FLAGS = { ...SERVER_FLAG, ...JSON_FLAG, ...KERNEL_FLAGS } as const;

export function listingOptions({
  values,
  positionals,
}: CommandLine<typeof LISTING_FLAGS>): ServersOptions {
  noPositionals(positionals);
  return { ...kernelOptions(values), server: values.server, json: values.json === true };
}

/** `mgp resources [--server ID] [--json]` and `mgp prompts [--server ID] [--json]`. */
export async function runListing(
  kind: 'resources' | 'prompts',
  options: ServersOptions,
  io: Io,
  environment?: CliEnvironment,
): Promise<number> {
  const cli = await startCliKernel(options, io, options.server, environment);
  try {
    const items = cli.kernel.manager.list().flatMap((server) =>
      (kind === 'resources' ? server.resources : server.prompts).map((item) => ({
        server: server.id,
        ...item,
      })),
    );
    if (options.json) io.out(JSON.stringify(items, null, 2));
    else
      for (const item of items)
        io.out(
          `${item.server}\t${oneLine('uri' in item ? String(item.uri) : item.name)}${item.description ? `\t${oneLine(item.description)}` : ''}`,
        );
    return cli.failed.length ? 1 : 0;
  } finally {
    await cli.close();
  }
}

export const ACCESS_FLAGS = {
  agent: { type: 'string', value: 'ID' },
  server: { type: 'string', value: 'ID' },
  tool: { type: 'string', value: 'NAME' },
  permission: { type: 'string', value: 'allow|deny' },
  justification: { type: 'string', value: 'TEXT' },
  expires: { type: 'string', value: 'ISO' },
  ...JSON_FLAG,
  ...KERNEL_FLAGS,
} as const;

export interface AccessOptions extends KernelOptions {
  verb: 'query' | 'grant' | 'revoke';
  /** The arguments of the `mgp.access.<verb>` kernel tool. */
  args: Record<string, unknown>;
  json: boolean;
}

/**
 * Options map to the MGP §5.4 tools' arguments: --agent, --server, --tool, --permission allow|deny,
 * --justification, --expires ISO; grant/revoke infer entry_type from --tool.
 */
export function accessOptions({
  values,
  positionals,
}: CommandLine<typeof ACCESS_FLAGS>): AccessOptions {
  const [verb, ...extra] = positionals;
  if (verb !== 'query' && verb !== 'grant' && verb !== 'revoke')
    throw new UsageError(
      'use query, grant or revoke, e.g. mgp access grant --agent research-agent --server example --permission allow',
    );
  noPositionals(extra);
  if (!values.agent || !values.server)
    throw new UsageError(`${verb}: --agent and --server are required`);
  const args: Record<string, unknown> = {
    agent_id: values.agent,
    server_id: values.server,
    ...(values.tool ? { tool_name: values.tool } : {}),
  };
  if (verb !== 'query') args.entry_type = values.tool ? 'tool_grant' : 'server_grant';
  if (verb === 'grant') {
    args.permission = oneOf('permission', values.permission, ['allow', 'deny'] as const) ?? 'allow';
    if (values.justification) args.justification = values.justification;
    if (values.expires) args.expires_at = values.expires;
  }
  return { ...kernelOptions(values), verb, args, json: values.json === true };
}

/** `mgp access query|grant|revoke`: the MGP §5.4 kernel tools, called as the operator at the terminal. */
export async function runAccess(
  options: AccessOptions,
  io: Io,
  environment?: CliEnvironment,
): Promise<number> {
  const { verb, args } = options;
  const cli = await startCliKernel(options, io, 'mgp', environment);
  try {
    const outcome = await cli.kernel.call({
      serverId: 'mgp',
      toolName: `mgp.access.${verb}`,
      args,
    });
    const value = outcome.result.structuredContent;
    if (options.json) io.out(JSON.stringify(value, null, 2));
    else
      io.out(
        Object.entries(value ?? {})
          .map(([key, v]) => `${key}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
          .join('\n'),
      );
    return 0;
  } catch (error) {
    io.err(`mgp access ${verb}: ${describeError(error).message}`);
    return 1;
  } finally {
    await cli.close();
  }
}

export const DISCOVER_FLAGS = {
  strategy: { type: 'string', value: 'keyword|semantic|category' },
  max: { type: 'string', value: 'N' },
  ...SERVER_FLAG,
  ...JSON_FLAG,
  ...KERNEL_FLAGS,
} as const;

export interface DiscoverOptions extends ServersOptions {
  query: string;
  /** Passed to `mgp.tools.discover`, which knows the strategies. */
  strategy: string;
  max: number;
}

export function discoverOptions({
  values,
  positionals,
}: CommandLine<typeof DISCOVER_FLAGS>): DiscoverOptions {
  const query = positionals.join(' ').trim();
  if (!query)
    throw new UsageError('give what you need in plain words, e.g. mgp discover "read a file"');
  return {
    ...kernelOptions(values),
    server: values.server,
    json: values.json === true,
    query,
    // Keywords by default, as in `mgp.tools.discover` and the editor's Tool Discovery panel.
    strategy: values.strategy ?? 'keyword',
    max: wholeNumber('max', values.max, 5, 1),
  };
}

/** `mgp discover "QUERY" [--strategy keyword|semantic|category] [--max N] [--json]` (MGP §16.5). */
export async function runDiscover(
  options: DiscoverOptions,
  io: Io,
  environment?: CliEnvironment,
): Promise<number> {
  const { query, strategy, max } = options;
  const cli = await startCliKernel(options, io, options.server, environment);
  try {
    const outcome = await cli.kernel.call({
      serverId: 'mgp',
      toolName: 'mgp.tools.discover',
      args: { query, strategy, max_results: max },
    });
    const answer = outcome.result.structuredContent as {
      tools: {
        tool_id: string;
        relevance_score: number;
        description: string;
        security?: { risk_level?: string };
      }[];
      total_available: number;
      search_strategy: string;
      fallback_strategy?: string;
      query_time_ms: number;
    };
    if (options.json) io.out(JSON.stringify(answer, null, 2));
    else {
      for (const tool of answer.tools)
        io.out(
          `${tool.relevance_score.toFixed(2)}\t${oneLine(tool.tool_id)}\t${tool.security?.risk_level ?? ''}\t${oneLine(tool.description.split('\n')[0])}`,
        );
      io.err(
        `${answer.tools.length} of ${answer.total_available} matching, ${answer.search_strategy}${answer.fallback_strategy ? ` (fell back to ${answer.fallback_strategy})` : ''}, ${answer.query_time_ms.toFixed(2)} ms`,
      );
    }
    return 0;
  } catch (error) {
    io.err(`mgp discover: ${describeError(error).message}`);
    return 1;
  } finally {
    await cli.close();
  }
}

export const EVENTS_FLAGS = {
  channels: { type: 'string', value: 'a,b.*' },
  'min-severity': { type: 'string', value: 'info|warning|error' },
  count: { type: 'string', value: 'N' },
  ...SERVER_FLAG,
  ...JSON_FLAG,
  ...KERNEL_FLAGS,
} as const;

export interface EventsOptions extends ServersOptions {
  channels: string[];
  minSeverity: 'info' | 'warning' | 'error';
  /** Stop after this many events (Infinity: until Ctrl-C). */
  count: number;
}

export function eventsOptions({
  values,
  positionals,
}: CommandLine<typeof EVENTS_FLAGS>): EventsOptions {
  noPositionals(positionals);
  const severities = ['info', 'warning', 'error'] as const;
  return {
    ...kernelOptions(values),
    server: values.server,
    json: values.json === true,
    channels: (values.channels ?? '*')
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean),
    minSeverity: oneOf('min-severity', values['min-severity'], severities) ?? 'info',
    count: wholeNumber('count', values.count, Infinity, 1),
  };
}

/**
 * `mgp events [--channels a,b.*] [--min-severity info|warning|error] [--count N] [--json]`: starts the
 * servers, subscribes (MGP §13.2) and prints events as they come, until Ctrl-C or N events.
 */
export async function runEvents(
  options: EventsOptions,
  io: Io,
  environment?: CliEnvironment,
): Promise<number> {
  const { channels, minSeverity, count } = options;
  const cli = await startCliKernel(options, io, options.server, environment);
  try {
    const outcome = await cli.kernel.call({
      serverId: 'mgp',
      toolName: 'mgp.events.subscribe',
      args: { channels, filter: { min_severity: minSeverity } },
    });
    const answer = outcome.result.structuredContent as {
      subscription_id: string;
      unsupported: string[];
    };
    if (answer.unsupported.length)
      io.err(`no connected server publishes: ${answer.unsupported.join(', ')}`);
    let seen = 0;
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      cli.kernel.events.listen(answer.subscription_id, (event) => {
        io.out(
          options.json
            ? JSON.stringify(event)
            : [event.timestamp, event.severity, event.server_id, event.channel]
                .map((field) => oneLine(String(field)))
                .concat(JSON.stringify(event.data))
                .join('\t'),
        );
        if (++seen >= count) {
          process.off('SIGINT', stop);
          resolve();
        }
      });
    });
    return 0;
  } finally {
    await cli.close();
  }
}
