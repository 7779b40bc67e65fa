/**
 * The receiver side of MCP tasks in the client (MCP 2025-11-25, Utilities: Tasks): a server may ask
 * for sampling/createMessage or elicitation/create as a task. The kernel answers at once with the
 * task, runs the request (the user's review, the model, the form) in the background, and keeps the
 * result for the server's tasks/result. tasks/get, tasks/list and tasks/cancel are answered by the
 * SDK from this store; a cancel also stops the running request.
 */
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import type { RequestTaskStore } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ErrorCode,
  type CreateTaskResult,
  type Result,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';

/** What the client declares it can do with tasks (MCP 2025-11-25, Tasks: capabilities). */
export function clientTasksCapability(): Record<string, unknown> {
  return {
    list: {},
    cancel: {},
    requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
  };
}

/** The JSON-RPC error a request that failed would have answered, kept for its task's tasks/result. */
interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

function wireErrorOf(error: unknown): WireError {
  const { code, data } = (error ?? {}) as { code?: unknown; data?: unknown };
  return {
    // What the SDK answers for a handler that threw: its numeric code, else an internal error.
    code: Number.isSafeInteger(code) ? (code as number) : ErrorCode.InternalError,
    message: error instanceof Error ? error.message : String(error),
    ...(data !== undefined && { data }),
  };
}

export class ClientTaskStore extends InMemoryTaskStore {
  private readonly running = new Map<string, AbortController>();
  private readonly failures = new Map<string, WireError>();

  override async updateTaskStatus(
    taskId: string,
    status: Task['status'],
    statusMessage?: string,
    sessionId?: string,
  ): Promise<void> {
    await super.updateTaskStatus(taskId, status, statusMessage, sessionId);
    if (status === 'cancelled') this.running.get(taskId)?.abort();
  }

  /**
   * MCP 2025-11-25, Tasks: tasks/result of a failed task answers what the request would have: the
   * same JSON-RPC error, its code and message, not a store's "no result".
   */
  override async getTaskResult(taskId: string, sessionId?: string): Promise<Result> {
    const failure = this.failures.get(taskId);
    if (failure && (await this.getTask(taskId, sessionId))?.status === 'failed')
      throw Object.assign(new Error(failure.message), failure);
    return super.getTaskResult(taskId, sessionId);
  }

  /** Starts `run` as a task of this request and answers with the task at once. */
  async start(
    requestStore: RequestTaskStore,
    ttl: number | undefined,
    run: (signal: AbortSignal) => Promise<Result>,
  ): Promise<CreateTaskResult> {
    const task = await requestStore.createTask({ ttl });
    const controller = new AbortController();
    this.running.set(task.taskId, controller);
    void run(controller.signal)
      .then(
        (result) => requestStore.storeTaskResult(task.taskId, 'completed', result),
        (error: unknown) => {
          const failure = wireErrorOf(error);
          this.failures.set(task.taskId, failure);
          return requestStore.updateTaskStatus(task.taskId, 'failed', failure.message);
        },
      )
      // A task cancelled (or expired) meanwhile keeps its status: nothing more to record.
      .catch(() => undefined)
      .finally(() => this.running.delete(task.taskId));
    return { task };
  }

  /** Stops what still runs and the store's expiry timers (they would keep a CLI process alive). */
  close(): void {
    for (const controller of this.running.values()) controller.abort();
    this.running.clear();
    this.failures.clear();
    this.cleanup();
  }
}
