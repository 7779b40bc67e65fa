/**
 * The MCP tasks (MCP 2025-11-25, Utilities: Tasks) the kernel knows of, across servers: the ones it
 * started (through the call pipeline: access, approval, validators, audit), the ones a server lists
 * (tasks/list) and the ones a host hands back after a restart (`adopt`, the ids it kept). Each task
 * that has not ended is followed (tasks/get, then tasks/result); `cancel` sends tasks/cancel.
 * Views follow the board's `changed` event; they never see connections.
 */
import { EventEmitter } from 'node:events';
import type { CappedResult, ServerConnection } from '../connection/serverConnection';
import { isTerminal, TaskSnapshot } from '../connection/toolTasks';
import type { Caller } from '../domain/caller';
import type { EndedTask } from '../pipeline/callAudit';
import type { ToolCallOutcome, ToolCallRequest } from '../pipeline/types';

/** A task a host keeps across a restart: its id, and the tool it runs (tasks/get does not say). */
export interface KeptTask {
  taskId: string;
  toolName?: string;
}

export interface TrackedTask {
  serverId: string;
  taskId: string;
  /** Known for the tasks started here. */
  toolName?: string;
  task: TaskSnapshot;
  /** The last MCP progress the server sent about it. */
  progress?: { progress: number; total?: number; message?: string };
  result?: CappedResult;
  /** Why following it stopped (the server went away, the task expired), or why it failed. */
  error?: string;
}

export type TaskRunRequest = Omit<ToolCallRequest, 'caller' | 'task' | 'stream'> & {
  caller?: Caller;
};

export interface TaskBoardDeps {
  call(request: TaskRunRequest & Pick<ToolCallRequest, 'task'>): Promise<ToolCallOutcome>;
  /**
   * A result fetched with tasks/result outside a call: checked against its tool's outputSchema as a
   * call's is, and audited (the call that started it, if any, was in another run of the kernel).
   */
  taskEnded(task: EndedTask): CappedResult;
  /** The live connection of a connected server, else undefined. */
  connection(serverId: string): ServerConnection | undefined;
  connectedServers(): string[];
}

/** Pages of tasks/list read per server and refresh: enough for a view, bounded for a chatty server. */
const MAX_LIST_PAGES = 5;

/** Ended tasks kept per server across a restart, for their tools' names. */
const KEPT_ENDED = 20;

const keyOf = (serverId: string, taskId: string) => `${serverId}\u0000${taskId}`;

export class TaskBoard extends EventEmitter<{ changed: [] }> {
  private readonly tasks = new Map<string, TrackedTask>();
  /** Stops following a task (and so cancels it: the follower sends tasks/cancel). */
  private readonly followers = new Map<string, AbortController>();

  constructor(private readonly deps: TaskBoardDeps) {
    super();
  }

  list(): TrackedTask[] {
    return [...this.tasks.values()].sort((a, b) =>
      b.task.createdAt.localeCompare(a.task.createdAt),
    );
  }

  get(serverId: string, taskId: string): TrackedTask | undefined {
    return this.tasks.get(keyOf(serverId, taskId));
  }

  /**
   * The tasks to keep across a restart, per server, newest first: every one still running, and the
   * last ended ones, which the server may still list but only the host knows the tools of.
   */
  keptIds(): Record<string, KeptTask[]> {
    const ids: Record<string, KeptTask[]> = {};
    const ended: Record<string, number> = {};
    for (const t of this.list()) {
      if (
        isTerminal(t.task.status) &&
        (ended[t.serverId] = (ended[t.serverId] ?? 0) + 1) > KEPT_ENDED
      )
        continue;
      (ids[t.serverId] ??= []).push({ taskId: t.taskId, toolName: t.toolName });
    }
    return ids;
  }

  /**
   * Runs a tool as a task through the call pipeline. `created` settles when the server made the task
   * (or the call failed before that); `outcome` when the task ended and its result came.
   */
  run(request: TaskRunRequest): {
    created: Promise<TrackedTask>;
    outcome: Promise<ToolCallOutcome>;
  } {
    const controller = new AbortController();
    let created!: (task: TrackedTask) => void;
    let notCreated!: (error: unknown) => void;
    const createdPromise = new Promise<TrackedTask>((resolve, reject) => {
      created = resolve;
      notCreated = reject;
    });
    let tracked: TrackedTask | undefined;
    const signal = request.signal
      ? AbortSignal.any([request.signal, controller.signal])
      : controller.signal;
    const outcome = this.deps
      .call({
        ...request,
        signal,
        onProgress: (progress) => {
          if (tracked) this.update(tracked, { progress });
          request.onProgress?.(progress);
        },
        task: {
          onStatus: (task) => {
            if (!tracked) {
              tracked = this.upsert(request.serverId, task, request.toolName);
              this.followers.set(keyOf(request.serverId, task.taskId), controller);
              created(tracked);
            } else this.update(tracked, { task });
          },
        },
      })
      .then(
        (done) => {
          if (tracked) this.update(tracked, { result: done.result });
          return done;
        },
        (error: unknown) => {
          if (tracked) this.failed(tracked, error);
          notCreated(error);
          throw error;
        },
      )
      .finally(() => {
        if (tracked) this.followers.delete(keyOf(tracked.serverId, tracked.taskId));
      });
    return { created: createdPromise, outcome };
  }

  /** tasks/cancel: through the follower when the kernel follows the task, else directly. */
  async cancel(serverId: string, taskId: string): Promise<void> {
    const follower = this.followers.get(keyOf(serverId, taskId));
    if (follower) {
      follower.abort();
      return;
    }
    const connection = this.deps.connection(serverId);
    if (!connection) throw new Error(`${serverId} is not connected`);
    const task = await connection.cancelTask(taskId);
    this.upsert(serverId, task);
  }

  /** The result of an ended task: the one the kernel kept, else tasks/result. */
  async result(serverId: string, taskId: string): Promise<CappedResult> {
    const tracked = this.get(serverId, taskId);
    if (tracked?.result) return tracked.result;
    const connection = this.deps.connection(serverId);
    if (!connection) throw new Error(`${serverId} is not connected`);
    const result = this.deps.taskEnded({
      serverId,
      taskId,
      toolName: tracked?.toolName,
      result: await connection.followTask(taskId, {}),
    });
    if (tracked) this.update(tracked, { result });
    return result;
  }

  /**
   * The tasks the host kept from before a restart: asks each server about each (tasks/get) and
   * follows the ones still running. A task the server no longer knows is dropped.
   */
  async adopt(serverId: string, kept: KeptTask[]): Promise<void> {
    const connection = this.deps.connection(serverId);
    if (!connection) return;
    await Promise.all(
      kept.map(async ({ taskId, toolName }) => {
        const task = await connection.getTask(taskId).catch(() => undefined);
        if (task) this.follow(serverId, this.upsert(serverId, task, toolName));
      }),
    );
  }

  /** tasks/list of every connected server that offers it, and tasks/get of the known ones it left out. */
  async refresh(): Promise<void> {
    await Promise.all(
      this.deps.connectedServers().map(async (serverId) => {
        const connection = this.deps.connection(serverId);
        if (!connection) return;
        const listed = new Set<string>();
        let cursor: string | undefined;
        for (let page = 0; page < MAX_LIST_PAGES; page++) {
          const answer = await connection.listTasks(cursor).catch(() => ({ tasks: [] }));
          for (const task of answer.tasks) {
            listed.add(task.taskId);
            this.follow(serverId, this.upsert(serverId, task));
          }
          cursor = (answer as { nextCursor?: string }).nextCursor;
          if (!cursor) break;
        }
        const unlisted = this.list().filter(
          (t) => t.serverId === serverId && !listed.has(t.taskId) && !isTerminal(t.task.status),
        );
        await this.adopt(
          serverId,
          unlisted.map((t) => ({ taskId: t.taskId, toolName: t.toolName })),
        );
      }),
    );
  }

  /** Stops following every task (without cancelling any): the kernel is going away. */
  dispose(): void {
    this.followers.clear();
    this.removeAllListeners();
  }

  private follow(serverId: string, tracked: TrackedTask): void {
    const key = keyOf(serverId, tracked.taskId);
    if (isTerminal(tracked.task.status) || this.followers.has(key)) return;
    const connection = this.deps.connection(serverId);
    if (!connection) return;
    const controller = new AbortController();
    this.followers.set(key, controller);
    connection
      .followTask(tracked.taskId, {
        signal: controller.signal,
        initial: tracked.task,
        onStatus: (task) => this.update(tracked, { task }),
      })
      .then(
        (result) =>
          this.update(tracked, {
            result: this.deps.taskEnded({
              serverId,
              taskId: tracked.taskId,
              toolName: tracked.toolName,
              result,
            }),
          }),
        (error: unknown) => this.failed(tracked, error),
      )
      .finally(() => this.followers.delete(key));
  }

  private upsert(serverId: string, task: TaskSnapshot, toolName?: string): TrackedTask {
    const key = keyOf(serverId, task.taskId);
    const known = this.tasks.get(key);
    if (known) {
      this.update(known, { task, ...(toolName && { toolName }) });
      return known;
    }
    const tracked: TrackedTask = { serverId, taskId: task.taskId, task, toolName };
    this.tasks.set(key, tracked);
    this.emit('changed');
    return tracked;
  }

  private update(tracked: TrackedTask, change: Partial<TrackedTask>): void {
    Object.assign(tracked, change);
    this.emit('changed');
  }

  private failed(tracked: TrackedTask, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    const cancelled = (error as { code?: unknown }).code === 'Cancelled';
    this.update(tracked, {
      error: message,
      ...(cancelled && { task: { ...tracked.task, status: 'cancelled' as const } }),
    });
  }
}
