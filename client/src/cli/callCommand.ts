/**
 * `mgp call SERVER TOOL [--args JSON] [--approve once|session] [--elicit …] [--stream|--task] [--json]
 * [--seed N] [--prng lcg|xoroshiro] [--repeat N]`: one tool call through the kernel's pipeline
 * (access, approval, validators, audit). Exit 1 when the tool reports isError, 3 when the call is
 * refused (exitCodes.ts); the refusal's MGP code is printed (MGP §14).
 * `--task` runs it as an MCP task: its statuses go to stderr, Ctrl+C cancels it (tasks/cancel).
 * `--seed`, `--prng` and `--repeat` are the MCP draft's (callDrafts.ts).
 */
import {
  type Kernel,
  KernelError,
  type TaskSnapshot,
  type ToolCallOutcome,
  type ToolCallRequest,
  wireErrorOf,
} from '../kernel';
import { CliEnvironment, startCliKernel } from './cliKernel';
import { exitCodeOfError, exitCodeOfResult } from './exitCodes';
import { CommandLine, UsageError } from './flags';
import type { Io } from './io';
import { JSON_FLAG, KERNEL_FLAGS, KernelOptions, kernelOptions } from './options';
import {
  compareRuns,
  DRAFT_CALL_FLAGS,
  type DraftCallOptions,
  draftCallOptions,
  determinismJson,
  jobEventLine,
  jobSummary,
  repeatLine,
  sayDeterminism,
  seededArguments,
} from './callDrafts';

export const CALL_FLAGS = {
  args: { type: 'string', value: 'JSON' },
  stream: { type: 'boolean' },
  task: { type: 'boolean' },
  ...JSON_FLAG,
  ...DRAFT_CALL_FLAGS,
  ...KERNEL_FLAGS,
} as const;

export interface CallOptions extends KernelOptions {
  serverId: string;
  toolName: string;
  args: Record<string, unknown>;
  stream: boolean;
  task: boolean;
  json: boolean;
  /** The MCP draft's seed, PRNG and repeat. */
  drafts: DraftCallOptions;
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
  const args = jsonArgs(values.args);
  const drafts = draftCallOptions(values, args);
  if (drafts.repeat !== undefined && (values.stream || values.task))
    throw new UsageError('--repeat goes with a plain call: not with --stream or --task');
  return {
    ...kernelOptions(values),
    serverId,
    toolName,
    args,
    stream: values.stream === true,
    task: values.task === true,
    json: values.json === true,
    drafts,
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
  const { serverId, toolName } = options;
  // Kernel tools (server "mgp") may be about any server: start them all.
  const only = serverId === 'mgp' ? undefined : serverId;
  // The call needs its server: one still starting (downloading) is waited for to the end.
  const cli = await startCliKernel(options, io, only, { ...environment, untilConnected: true });
  const task = options.task ? followedTask(io) : undefined;
  try {
    const args = seededArguments(cli.kernel, options, options.args, options.drafts);
    if (options.drafts.repeat !== undefined)
      return await runRepeated(cli.kernel, { ...options, args }, options.drafts.repeat, io);
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
              ...determinismJson(result),
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
      sayDeterminism(io, result);
    }
    return exitCodeOfResult(result);
  } catch (error) {
    if (error instanceof UsageError) throw error;
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
  const { serverId, toolName } = options;
  const cli = await startCliKernel(options, io, serverId, {
    ...environment,
    untilConnected: true,
  });
  const write = io.write ?? ((text: string) => process.stdout.write(text));
  try {
    const args = seededArguments(cli.kernel, options, options.args, options.drafts);
    const { stream, outcome } = cli.kernel.stream({ serverId, toolName, args });
    cli.kernel.streams.on('text', (e) => e.id === stream.id && write(e.appended));
    cli.kernel.streams.on('jobEvent', (e) => e.id === stream.id && io.err(jobEventLine(e.event)));
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
      `${snapshot?.state ?? 'done'}: ${snapshot?.chunks ?? 0} chunks${snapshot?.confirmedStreamed ? '' : ' (the server did not stream)'}${jobSummary(snapshot)}`,
    );
    sayDeterminism(io, result.result);
    return exitCodeOfResult(result.result);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    io.err(`mgp call: ${describeError(error).message}`);
    return exitCodeOfError(error);
  } finally {
    await cli.close();
  }
}

/**
 * `--repeat N`: the same call N times, one after another, each through the pipeline; the first result
 * is printed, then how many of the N were identical to it (MCP draft §2's reproducibility).
 */
async function runRepeated(
  kernel: Kernel,
  options: CallOptions,
  runs: number,
  io: Io,
): Promise<number> {
  const { serverId, toolName, args } = options;
  const results: ToolCallOutcome['result'][] = [];
  const traceIds: string[] = [];
  for (let run = 0; run < runs; run++) {
    const outcome = await kernel.call({ serverId, toolName, args });
    results.push(outcome.result);
    traceIds.push(outcome.traceId);
    const code = exitCodeOfResult(outcome.result);
    if (code !== 0) {
      io.err(`mgp call: run ${run + 1} of ${runs} ended with the tool's error; no comparison made`);
      return code;
    }
  }
  const report = compareRuns(results);
  const seed = options.drafts.seed;
  if (options.json)
    io.out(
      JSON.stringify(
        {
          runs: report.runs,
          identical: report.identical,
          distinct: report.distinct,
          seed: seed ?? null,
          seeds_used: report.seedsUsed,
          result: results[0],
          _kernel: { trace_ids: traceIds, ...determinismJson(results[0]) },
        },
        null,
        2,
      ),
    );
  else {
    for (const item of results[0].content ?? [])
      io.out(item.type === 'text' ? item.text : `[${item.type}]`);
    io.err(repeatLine(report, seed));
  }
  return 0;
}
