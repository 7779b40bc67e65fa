/**
 * The A2A server's task store (OpenFang, A2aTaskStore): in memory and bounded. At its limit
 * (default 1000) the oldest finished task (completed, failed, canceled, rejected) goes first, FIFO;
 * a task still running is never evicted, and an evicted one is unknown afterwards (404). Each task
 * keeps the history of its states, with when each began. A task belongs to the peer that sent it
 * (the call's user): another peer does not see it, read it or cancel it.
 */
import { TaskState, type Task, type ListTasksRequest, type ListTasksResponse } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';

export const DEFAULT_MAX_TASKS = 1000;

const FINISHED = new Set<TaskState>([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

export interface StateChange {
  state: TaskState;
  at: string;
}

export class BoundedTaskStore implements TaskStore {
  private readonly tasks = new Map<string, Task>();
  private readonly histories = new Map<string, StateChange[]>();
  private readonly owners = new Map<string, string>();

  constructor(readonly maxTasks = DEFAULT_MAX_TASKS) {}

  async save(task: Task, context?: ServerCallContext): Promise<void> {
    const owner = ownerOf(context);
    const known = this.owners.get(task.id);
    if (known !== undefined && known !== owner) throw new Error(`task ${task.id} is not yours`);
    this.owners.set(task.id, owner);
    const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
    const history = this.histories.get(task.id) ?? [];
    if (history.at(-1)?.state !== state)
      history.push({ state, at: task.status?.timestamp ?? new Date().toISOString() });
    this.histories.set(task.id, history);
    this.tasks.set(task.id, structuredClone(task));
    this.evict();
  }

  async load(taskId: string, context?: ServerCallContext): Promise<Task | undefined> {
    if (this.owners.get(taskId) !== ownerOf(context)) return undefined;
    const task = this.tasks.get(taskId);
    return task && structuredClone(task);
  }

  /** The states a task went through, oldest first; undefined for a task not (or no longer) kept. */
  historyOf(taskId: string, context?: ServerCallContext): readonly StateChange[] | undefined {
    if (this.owners.get(taskId) !== ownerOf(context)) return undefined;
    return this.tasks.has(taskId) ? this.histories.get(taskId) : undefined;
  }

  get size(): number {
    return this.tasks.size;
  }

  async list(params: ListTasksRequest, context?: ServerCallContext): Promise<ListTasksResponse> {
    const owner = ownerOf(context);
    const matching = [...this.tasks.values()]
      .filter((task) => this.owners.get(task.id) === owner)
      .filter((task) => !params.contextId || task.contextId === params.contextId)
      .filter(
        (task) =>
          params.status === TaskState.TASK_STATE_UNSPECIFIED ||
          params.status === undefined ||
          task.status?.state === params.status,
      )
      .reverse();
    const pageSize = Math.min(Math.max(params.pageSize ?? 50, 1), 100);
    const start = Number(params.pageToken || 0) || 0;
    const tasks = matching.slice(start, start + pageSize).map((task) => structuredClone(task));
    const next = start + pageSize < matching.length ? String(start + pageSize) : '';
    return { tasks, nextPageToken: next, pageSize, totalSize: matching.length };
  }

  /** Over the limit: the oldest finished tasks go, oldest first. */
  private evict(): void {
    if (this.tasks.size <= this.maxTasks) return;
    for (const [id, task] of this.tasks) {
      if (this.tasks.size <= this.maxTasks) return;
      if (task.status && FINISHED.has(task.status.state)) {
        this.tasks.delete(id);
        this.histories.delete(id);
        this.owners.delete(id);
      }
    }
  }
}

/** The peer a call comes from: the name its token stands for (a2aFront.ts). */
function ownerOf(context: ServerCallContext | undefined): string {
  return context?.user?.userName ?? '';
}
