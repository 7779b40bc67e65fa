/**
 * The requestor side of MCP tasks (MCP 2025-11-25, Utilities: Tasks): a tools/call augmented with
 * `task` answers with a task at once; the kernel then follows it with tasks/get until it reaches a
 * terminal status, fetches the outcome with tasks/result, and cancels it with tasks/cancel when the
 * caller stops (a notifications/cancelled would only stop the request that created it).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateTaskResultSchema, type Task } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { KernelError } from '../domain/errors';

export type TaskSnapshot = Task;

/** What a caller who runs a tool as a task hears about it. */
export interface TaskHooks {
  /** Each status the kernel sees: the created task first, then every tasks/get. */
  onStatus?(task: TaskSnapshot): void;
}

/** How a tool's `execution.taskSupport` lets it run (MCP 2025-11-25, Tools: execution). */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

export function taskSupportOf(tool: { execution?: unknown }): TaskSupport {
  const support = (tool.execution as { taskSupport?: unknown } | undefined)?.taskSupport;
  return support === 'optional' || support === 'required' ? support : 'forbidden';
}

/** Whether a server declared task-augmented tools/call (`capabilities.tasks.requests.tools.call`). */
export function serverRunsToolTasks(capabilities: unknown): boolean {
  const tasks = (capabilities as { tasks?: { requests?: { tools?: { call?: unknown } } } })?.tasks;
  return Boolean(tasks?.requests?.tools?.call);
}

/** What a tools/call says about running as a task, and how it hears of one. */
export interface TaskCall {
  task?: TaskHooks & { ttl?: number };
  signal?: AbortSignal;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/**
 * A tool that requires tasks runs as one; an optional one when the caller asks (`call.task`).
 * Asking for a task of a tool or server that cannot run one is an error, not a silent plain call.
 */
export function runsAsTask(
  client: Client,
  serverId: string,
  tool: { name: string; execution?: unknown } | string,
  call: TaskCall,
): boolean {
  const support = typeof tool === 'string' ? 'forbidden' : taskSupportOf(tool);
  const serverRuns = serverRunsToolTasks(client.getServerCapabilities());
  if (serverRuns && support === 'required') return true;
  if (!call.task) return false;
  const name = typeof tool === 'string' ? tool : tool.name;
  if (!serverRuns) throw new KernelError('Unsupported', `${serverId} does not run tools as tasks`);
  if (support === 'forbidden')
    throw new KernelError('Unsupported', `${serverId}/${name} cannot run as a task`);
  return true;
}

/** Creates the task of a tools/call, follows its status (reported as progress), fetches its result. */
export async function callToolAsTask(
  client: Client,
  serverId: string,
  params: Record<string, unknown>,
  requestOptions: { timeout: number; signal?: AbortSignal; onprogress?: unknown },
  call: TaskCall,
): Promise<Record<string, unknown>> {
  const created = await client.request(
    { method: 'tools/call', params: params as { name: string } },
    CreateTaskResultSchema,
    { ...requestOptions, task: call.task?.ttl ? { ttl: call.task.ttl } : {} } as never,
  );
  const hooks = call.task?.onStatus;
  // A caller that follows the task hears its statuses; any other hears them as progress.
  const onStatus = (task: TaskSnapshot) => {
    if (hooks) return hooks(task);
    call.onProgress?.({
      progress: 0,
      message: `task ${task.taskId}: ${task.status}${task.statusMessage ? ` (${task.statusMessage})` : ''}`,
    });
  };
  return followTask(client, serverId, created.task.taskId, {
    signal: call.signal,
    onStatus,
    initial: created.task,
    timeoutMs: requestOptions.timeout,
  });
}

export function isTerminal(status: string): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

const AnyResult = z.looseObject({});
const DEFAULT_POLL_MS = 1000;
/** A server that asks for faster polling than this gets this (it is a suggestion, not a contract). */
const MIN_POLL_MS = 100;

export interface FollowOptions {
  signal?: AbortSignal;
  onStatus?(task: TaskSnapshot): void;
  /** The first status, when the caller has it already (the CreateTaskResult). */
  initial?: TaskSnapshot;
  timeoutMs: number;
}

/**
 * Follows a task to its end and returns its result (tasks/result): for `completed`, and for
 * `input_required`, where tasks/result delivers the server's queued requests and waits for the end.
 * A `failed` task's result is returned too when the server keeps one, else its status message is
 * the error; a `cancelled` task is a Cancelled error. An aborted `signal` sends tasks/cancel.
 */
export async function followTask(
  client: Client,
  serverId: string,
  taskId: string,
  options: FollowOptions,
): Promise<Record<string, unknown>> {
  const tasks = client.experimental.tasks;
  const requestOptions = { timeout: options.timeoutMs, signal: options.signal };
  let task = options.initial;
  try {
    for (;;) {
      if (task) {
        options.onStatus?.(task);
        if (task.status === 'cancelled')
          throw new KernelError('Cancelled', `${serverId}: task ${taskId} was cancelled`);
        if (task.status !== 'working') break;
        await pause(Math.max(MIN_POLL_MS, task.pollInterval ?? DEFAULT_POLL_MS), options.signal);
      }
      task = await withOwnSignal(options.signal, (signal) =>
        tasks.getTask(taskId, { ...requestOptions, signal }),
      );
    }
    return await finalResult(client, serverId, task, requestOptions);
  } catch (error) {
    if (options.signal?.aborted) {
      await tasks.cancelTask(taskId, { timeout: options.timeoutMs }).catch(() => undefined);
      throw new KernelError('Cancelled', `${serverId}: task ${taskId} was cancelled`);
    }
    throw error;
  }
}

async function finalResult(
  client: Client,
  serverId: string,
  task: TaskSnapshot,
  requestOptions: { timeout: number; signal?: AbortSignal },
): Promise<Record<string, unknown>> {
  try {
    return await client.experimental.tasks.getTaskResult(task.taskId, AnyResult, requestOptions);
  } catch (error) {
    if (task.status !== 'failed') throw error;
    throw new KernelError(
      'ProtocolViolation',
      `${serverId}: task ${task.taskId} failed${task.statusMessage ? `: ${task.statusMessage}` : ''}`,
    );
  }
}

/**
 * Each poll gets a signal of its own, tied to the caller's for its duration only: the SDK leaves its
 * abort listener on a request's signal, and a long task's polls would pile them up on one signal.
 */
async function withOwnSignal<T>(
  signal: AbortSignal | undefined,
  run: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (!signal) return run(undefined);
  const own = new AbortController();
  const stop = () => own.abort(signal.reason);
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  try {
    return await run(own.signal);
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}
