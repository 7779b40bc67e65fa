import { oneLine } from '@shared/untrustedText';
import { KernelError } from '../kernel/model/errors';
import { wireErrorOf } from '../kernel/mgp/mgpErrors';
import { qualifiedToolName } from '../kernel/lifecycle/serverManager';
import { CliEnvironment, startCliKernel } from './cliKernel';
import type { Io } from './io';
import { ParsedArgs, stringFlag } from './options';

function jsonArgs(
  raw: string | undefined,
  io: Io,
  command: string,
): Record<string, unknown> | undefined {
  if (!raw) return {};
  try {
    const value = JSON.parse(raw) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
    io.err(`${command}: --args must be a JSON object`);
  } catch (error) {
    io.err(
      `${command}: --args is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return undefined;
}

/** How a refused or failed call is reported: the MGP code and name when there is one (MGP §14). */
export function describeError(error: unknown): {
  message: string;
  code?: number;
  name?: string;
  data?: unknown;
} {
  const wire = wireErrorOf(error);
  const message = error instanceof Error ? error.message : String(error);
  return {
    message,
    code: wire?.code,
    name: wire?.name,
    data: error instanceof KernelError ? error.data : undefined,
  };
}

/** `mgp tools [--server ID] [--json]`: every tool under its kernel name, with its effective risk. */
export async function runTools(
  parsed: ParsedArgs,
  io: Io,
  environment?: CliEnvironment,
): Promise<number> {
  const cli = await startCliKernel(parsed, io, stringFlag(parsed, '--server'), environment);
  try {
    const entries = cli.kernel
      .tools()
      .filter((entry) => !entry.kernel || parsed.flags.has('--kernel-tools'));
    // Kernel names: `server.tool`, or OpenFang's `mcp_{server}_{tool}` for servers from its config.toml.
    const nameOf = (serverId: string, name: string, kernel: boolean) => {
      const config = cli.kernel.manager.find(serverId)?.config;
      return kernel || !config ? name : qualifiedToolName(config, name);
    };
    if (parsed.flags.has('--json')) {
      io.out(
        JSON.stringify(
          entries.map(({ serverId, name, tool, security, kernel }) => ({
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
    return cli.failed.length ? 1 : 0;
  } finally {
    await cli.close();
  }
}

/**
 * `mgp call SERVER TOOL [--args JSON] [--approve once|session] [--json]`: through the kernel's
 * pipeline (access, approval, validators, audit). Exit 1 when the tool reports isError or the call is
 * refused; the refusal's MGP code is printed.
 */
export async function runCall(
  parsed: ParsedArgs,
  io: Io,
  environment?: CliEnvironment,
): Promise<number> {
  const [serverId, tool] = parsed.positional;
  if (!serverId || !tool) {
    io.err(
      'mgp call: name a server and a tool, e.g. mgp call example echo --args \'{"text":"hi"}\'',
    );
    return 2;
  }
  const args = jsonArgs(stringFlag(parsed, '--args'), io, 'mgp call');
  if (!args) return 2;
  if (parsed.flags.has('--stream'))
    return runStreamingCall(parsed, io, environment, serverId, tool, args);
  // Kernel tools (server "mgp") may be about any server: start them all.
  const cli = await startCliKernel(
    parsed,
    io,
    serverId === 'mgp' ? undefined : serverId,
    environment,
  );
  try {
    const outcome = await cli.kernel.call({ serverId, toolName: tool, args });
    const result = outcome.result;
    if (parsed.flags.has('--json'))
      io.out(
        JSON.stringify(
          {
            ...result,
            _kernel: {
              trace_id: outcome.traceId,
              attempts: outcome.attempts,
              risk_level: outcome.security?.risk_level,
            },
          },
          null,
          2,
        ),
      );
    else {
      for (const item of result.content ?? [])
        io.out(
          item.type === 'text'
            ? item.text
            : `[${item.type}${'mimeType' in item ? ` ${String(item.mimeType)}` : ''}]`,
        );
      if (result.structuredContent && !(result.content ?? []).length)
        io.out(JSON.stringify(result.structuredContent, null, 2));
    }
    return result.isError ? 1 : 0;
  } catch (error) {
    const described = describeError(error);
    if (parsed.flags.has('--json')) io.out(JSON.stringify({ error: described }, null, 2));
    io.err(
      `mgp call: ${described.code !== undefined ? `${described.code}${described.name ? ` ${described.name}` : ''}: ` : ''}${described.message}`,
    );
    return 1;
  } finally {
    await cli.close();
  }
}

/** `mgp resources [--server ID] [--json]` and `mgp prompts [--server ID] [--json]`. */
export async function runListing(
  kind: 'resources' | 'prompts',
  parsed: ParsedArgs,
  io: Io,
  environment?: CliEnvironment,
): Promise<number> {
  const cli = await startCliKernel(parsed, io, stringFlag(parsed, '--server'), environment);
  try {
    const items = cli.kernel.manager.list().flatMap((server) =>
      (kind === 'resources' ? server.resources : server.prompts).map((item) => ({
        server: server.id,
        ...item,
      })),
    );
    if (parsed.flags.has('--json')) io.out(JSON.stringify(items, null, 2));
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

/**
 * `mgp access query|grant|revoke`: the MGP §5.4 kernel tools, called as the operator at the terminal.
 * Options map to the tools' arguments: --agent, --server, --tool, --permission allow|deny,
 * --justification, --expires ISO; grant/revoke infer entry_type from --tool.
 */
export async function runAccess(
  parsed: ParsedArgs,
  io: Io,
  environment?: CliEnvironment,
): Promise<number> {
  const [verb] = parsed.positional;
  if (verb !== 'query' && verb !== 'grant' && verb !== 'revoke') {
    io.err(
      'mgp access: use query, grant or revoke, e.g. mgp access grant --agent research-agent --server example --permission allow',
    );
    return 2;
  }
  const agent = stringFlag(parsed, '--agent');
  const server = stringFlag(parsed, '--server');
  if (!agent || !server) {
    io.err(`mgp access ${verb}: --agent and --server are required`);
    return 2;
  }
  const toolName = stringFlag(parsed, '--tool');
  const args: Record<string, unknown> = {
    agent_id: agent,
    server_id: server,
    ...(toolName ? { tool_name: toolName } : {}),
  };
  if (verb !== 'query') args.entry_type = toolName ? 'tool_grant' : 'server_grant';
  if (verb === 'grant') {
    args.permission = stringFlag(parsed, '--permission') ?? 'allow';
    const justification = stringFlag(parsed, '--justification');
    const expires = stringFlag(parsed, '--expires');
    if (justification) args.justification = justification;
    if (expires) args.expires_at = expires;
  }
  const cli = await startCliKernel(parsed, io, 'mgp', environment);
  try {
    const outcome = await cli.kernel.call({
      serverId: 'mgp',
      toolName: `mgp.access.${verb}`,
      args,
    });
    const value = outcome.result.structuredContent;
    if (parsed.flags.has('--json')) io.out(JSON.stringify(value, null, 2));
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

/** `mgp discover "QUERY" [--strategy semantic|keyword|category] [--max N] [--json]` (MGP §16.5). */
export async function runDiscover(
  parsed: ParsedArgs,
  io: Io,
  environment?: CliEnvironment,
): Promise<number> {
  const query = parsed.positional.join(' ').trim();
  if (!query) {
    io.err('mgp discover: give what you need in plain words, e.g. mgp discover "read a file"');
    return 2;
  }
  // The built-in model ranks by default, as in the editor's Tool Discovery panel.
  const strategy = stringFlag(parsed, '--strategy') ?? 'semantic';
  const max = Number(stringFlag(parsed, '--max') ?? 5);
  const cli = await startCliKernel(parsed, io, stringFlag(parsed, '--server'), environment);
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
    if (parsed.flags.has('--json')) io.out(JSON.stringify(answer, null, 2));
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

/** The stream of a `mgp call --stream`: chunks are written as they arrive, progress to stderr. */
export async function runStreamingCall(
  parsed: ParsedArgs,
  io: Io,
  environment: CliEnvironment | undefined,
  serverId: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<number> {
  const cli = await startCliKernel(parsed, io, serverId, environment);
  const write = io.write ?? ((text: string) => process.stdout.write(text));
  try {
    const { stream, outcome } = cli.kernel.stream({ serverId, toolName: tool, args });
    cli.kernel.streams.on('text', (e) => e.id === stream.id && write(e.appended));
    cli.kernel.streams.on(
      'progress',
      (e) =>
        e.id === stream.id &&
        e.progress.message &&
        io.err(`[${Math.round((e.progress.fraction ?? 0) * 100)}%] ${e.progress.message}`),
    );
    const stop = () => void cli.kernel.streams.cancel(stream.id);
    process.once('SIGINT', stop);
    const result = await outcome.finally(() => process.off('SIGINT', stop));
    write('\n');
    const snapshot = cli.kernel.streams.get(stream.id)?.snapshot();
    io.err(
      `${snapshot?.state ?? 'done'}: ${snapshot?.chunks ?? 0} chunks${snapshot?.confirmedStreamed ? '' : ' (the server did not stream)'}`,
    );
    return result.result.isError ? 1 : 0;
  } catch (error) {
    io.err(`mgp call: ${describeError(error).message}`);
    return 1;
  } finally {
    await cli.close();
  }
}

/**
 * `mgp events [--channels a,b.*] [--min-severity info|warning|error] [--count N] [--json]`: starts the
 * servers, subscribes (MGP §13.2) and prints events as they come, until Ctrl-C or N events.
 */
export async function runEvents(
  parsed: ParsedArgs,
  io: Io,
  environment?: CliEnvironment,
): Promise<number> {
  const channels = (stringFlag(parsed, '--channels') ?? '*')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const minSeverity = stringFlag(parsed, '--min-severity') ?? 'info';
  const count = Number(stringFlag(parsed, '--count') ?? Infinity);
  const cli = await startCliKernel(parsed, io, stringFlag(parsed, '--server'), environment);
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
          parsed.flags.has('--json')
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
