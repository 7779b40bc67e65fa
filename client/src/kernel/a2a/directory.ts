/**
 * What the kernel knows of its external agents, for the views and the CLI: each agent's card once
 * read, and the tasks delegated to it (newest first, a bounded number per agent). It learns them
 * from the agents' in-process servers (agentServer.ts) as calls go through the pipeline.
 */
import type { A2aTask, AgentCardSummary } from './types';

/** Tasks kept per agent; the oldest go first. */
export const TASKS_KEPT = 100;

export interface A2aTaskRecord {
  serverId: string;
  task: A2aTask;
  /** The first characters of the message that started it. */
  message: string;
  startedAt: string;
  updatedAt: string;
  /** Each state the kernel saw the task in, oldest first, with when it saw it. */
  states: { state: A2aTask['state']; at: string }[];
}

export class A2aDirectory {
  private readonly cards = new Map<string, AgentCardSummary>();
  private readonly tasks = new Map<string, A2aTaskRecord[]>();
  private readonly listeners = new Set<(serverId: string) => void>();

  onChange(listener: (serverId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(serverId: string): void {
    for (const listener of this.listeners) listener(serverId);
  }

  cardRead(serverId: string, card: AgentCardSummary): void {
    this.cards.set(serverId, card);
    this.changed(serverId);
  }

  cardOf(serverId: string): AgentCardSummary | undefined {
    return this.cards.get(serverId);
  }

  /** A task seen in a new state (or for the first time, with the message that started it). */
  taskSeen(serverId: string, task: A2aTask, message?: string): void {
    if (!task.id) return;
    const list = this.tasks.get(serverId) ?? [];
    const now = new Date().toISOString();
    const at = list.findIndex((record) => record.task.id === task.id);
    if (at >= 0) {
      const [record] = list.splice(at, 1);
      const last = record.states[record.states.length - 1];
      const states =
        last?.state === task.state
          ? record.states
          : [...record.states, { state: task.state, at: now }];
      list.unshift({ ...record, task, updatedAt: now, states });
    } else
      list.unshift({
        serverId,
        task,
        message: (message ?? '').slice(0, 200),
        startedAt: now,
        updatedAt: now,
        states: [{ state: task.state, at: now }],
      });
    list.length = Math.min(list.length, TASKS_KEPT);
    this.tasks.set(serverId, list);
    this.changed(serverId);
  }

  tasksOf(serverId: string): readonly A2aTaskRecord[] {
    return this.tasks.get(serverId) ?? [];
  }

  taskOf(serverId: string, taskId: string): A2aTaskRecord | undefined {
    return this.tasksOf(serverId).find((record) => record.task.id === taskId);
  }
}
