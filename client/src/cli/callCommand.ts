/**
 * `mgp call SERVER TOOL [--args JSON] [--approve once|session] [--elicit …] [--stream|--task] [--json]`:
 * one tool call through the kernel's pipeline (access, approval, validators, audit). Exit 1 when the
 * tool reports isError, 3 when the call is refused (exitCodes.ts); the refusal's MGP code is printed
 * (MGP §14).
 * `--task` runs it as an MCP task: its statuses go to stderr, Ctrl+C cancels it (tasks/cancel).
 */
import { KernelError, type TaskSnapshot, type ToolCallRequest, wireErrorOf } from '../kernel';
import { CliEnvironment, startCliKernel } from './cliKernel';
import { exitCodeOfError, exitCodeOfResult } from './exitCodes';
import { CommandLine, UsageError } from './flags';
import type { Io } from './io';
import { JSON_FLAG, KERNEL_FLAGS, KernelOptions, kernelOptions } from './options';

export const CALL_FLAGS = {
  args: { type: 'string', value: 'JSON' },
  stream: { type: 'boolean' },
  task: { type: 'boolean' },
  ...JSON_FLAG,
  ...KERNEL_FLAGS,
} as const;

export interface CallOptions extends KernelOptions {
  serverId: string;
  toolName: string;
  args: Record<string, unknown>;
  stream: boolean;
  task: boolean;
  json: boolean;
}

function jsonArgs(raw: string | undefined): Record<string, unknown> {
  if (!raw) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new UsageError(
      `--args is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return value as Record<string, unknown>;
  throw new UsageError('--args must be a JSON object');
}

export function callOptions({ values, positionals }: CommandLine<typeof CALL_FLAGS>): CallOptions {
  const [serverId, toolName, ...extra] = positionals;
  if (!serverId || !toolName)
    throw new UsageError(
      'name a server and a tool, e.g. mgp call example echo --args \'{"text":"hi"}\'',
    );
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
  if (values.stream && values.task) throw new UsageError('--stream and --task do not go together');
  return {
    ...kernelOptions(values),
    serverId,
    toolName,
    args: jsonArgs(values.args),
    stream: values.stream === true,
    task: values.task === true,
    json: values.json === true,
  };
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

export async function runCall(
  options: CallOptions,
  io: Io,
  environment?: CliEnvironment,
): Promise<number> {
  if (options.stream) return runStreamingCall(options, io, environment);
  const { serverId, toolName, args } = options;
  // Kernel tools (server "mgp") may be about any server: start them all.
  const only = serverId === 'mgp' ? undefined : serverId;
  const cli = await startCliKernel(options, io, only, environment);
  const task = options.task ? followedTask(io) : undefined;
  try {
    const outcome = await cli.kernel.call({ serverId, toolName, args, ...task?.request });
    const result = outcome.result;
    if (options.json)
      io.out(
        JSON.stringify(
          {
            ...result,
            _kernel: {
              trace_id: outcome.traceId,
              attempts: outcome.attempts,
              risk_level: outcome.security?.risk_level,
              task_id: task?.taskId(),
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
    return exitCodeOfResult(result);
  } catch (error) {
    const described = describeError(error);
    if (options.json) io.out(JSON.stringify({ error: described }, null, 2));
    io.err(
      `mgp call: ${described.code !== undefined ? `${described.code}${described.name ? ` ${described.name}` : ''}: ` : ''}${described.message}`,
    );
    return exitCodeOfError(error);
  } finally {
    task?.dispose();
    await cli.close();
  }
}

/** A call run as a task: each new status on stderr; Ctrl+C cancels the task (tasks/cancel). */
function followedTask(io: Io): {
  request: Pick<ToolCallRequest, 'task' | 'signal' | 'onProgress'>;
  taskId(): string | undefined;
  dispose(): void;
} {
  const controller = new AbortController();
  let last: TaskSnapshot | undefined;
  const onStatus = (task: TaskSnapshot) => {
    if (last?.status !== task.status || last.statusMessage !== task.statusMessage)
      io.err(
        `task ${task.taskId}: ${task.status}${task.statusMessage ? ` - ${task.statusMessage}` : ''}`,
      );
    last = task;
  };
  const stop = () => {
    io.err('cancelling the task…');
    controller.abort();
  };
  process.once('SIGINT', stop);
  return {
    request: {
      task: { onStatus },
      signal: controller.signal,
      onProgress: (p) => {
        if (p.message)
          io.err(`[${p.total ? `${p.progress}/${p.total}` : p.progress}] ${p.message}`);
      },
    },
    taskId: () => last?.taskId,
    dispose: () => process.off('SIGINT', stop),
  };
}

/** The stream of a `mgp call --stream`: chunks are written as they arrive, progress to stderr. */
async function runStreamingCall(
  options: CallOptions,
  io: Io,
  environment: CliEnvironment | undefined,
): Promise<number> {
  const { serverId, toolName, args } = options;
  const cli = await startCliKernel(options, io, serverId, environment);
  const write = io.write ?? ((text: string) => process.stdout.write(text));
  try {
    const { stream, outcome } = cli.kernel.stream({ serverId, toolName, args });
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
    return exitCodeOfResult(result.result);
  } catch (error) {
    io.err(`mgp call: ${describeError(error).message}`);
    return exitCodeOfError(error);
  } finally {
    await cli.close();
  }
}
