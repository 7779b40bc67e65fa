/**
 * An example MCP server with task tools (MCP 2025-11-25, Utilities: Tasks):
 * - `count_slowly` (taskSupport "optional"): counts to `to`, one step every `step_ms`, its status
 *   message saying where it is; run plainly it answers when done.
 * - `write_report` (taskSupport "required"): the same work, only ever as a task.
 * One task store serves every session, so a client that reconnects (a reloaded window) finds the
 * tasks it started before: this example has a single user.
 */
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** The store, blind to sessions: a task is the user's, whichever connection asks about it. */
export class SharedTaskStore extends InMemoryTaskStore {
  override getTask(taskId: string) {
    return super.getTask(taskId);
  }
  override getTaskResult(taskId: string) {
    return super.getTaskResult(taskId);
  }
  override storeTaskResult(
    taskId: string,
    status: 'completed' | 'failed',
    result: Parameters<InMemoryTaskStore['storeTaskResult']>[2],
  ) {
    return super.storeTaskResult(taskId, status, result);
  }
  override updateTaskStatus(
    taskId: string,
    status: Parameters<InMemoryTaskStore['updateTaskStatus']>[1],
    statusMessage?: string,
  ) {
    return super.updateTaskStatus(taskId, status, statusMessage);
  }
  override listTasks(cursor?: string) {
    return super.listTasks(cursor);
  }
  override createTask(
    ...[params, requestId, request]: Parameters<InMemoryTaskStore['createTask']>
  ) {
    return super.createTask(params, requestId, request);
  }
}

const countArgs = {
  to: z.number().int().min(1).max(1000).default(5).describe('The number to count to'),
  step_ms: z.number().int().min(0).max(60_000).default(500).describe('Milliseconds per step'),
};

/**
 * The work of a task: count, saying where it is, until done or cancelled. It writes to the shared
 * store, not the request's: the session that created the task may be gone (a reloaded window).
 */
async function count(store: InMemoryTaskStore, taskId: string, to: number, stepMs: number) {
  for (let i = 1; i <= to; i++) {
    await new Promise((resolve) => setTimeout(resolve, stepMs));
    const task = await store.getTask(taskId);
    if (!task || task.status === 'cancelled') return;
    if (i < to) await store.updateTaskStatus(taskId, 'working', `counted ${i} of ${to}`);
  }
  await store.storeTaskResult(taskId, 'completed', {
    content: [{ type: 'text', text: `Counted to ${to}.` }],
    structuredContent: { counted: to },
  });
}

export function createTaskExampleServer(taskStore: InMemoryTaskStore): McpServer {
  const server = new McpServer(
    { name: 'task-example-server', version: '1.0.0' },
    {
      capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore,
    },
  );
  for (const [name, taskSupport, title] of [
    ['count_slowly', 'optional', 'Count slowly'],
    ['write_report', 'required', 'Write a report'],
  ] as const)
    server.experimental.tasks.registerToolTask(
      name,
      {
        title,
        description: `Counts to "to", one step every "step_ms" (taskSupport: ${taskSupport})`,
        inputSchema: countArgs,
        execution: { taskSupport },
      },
      {
        createTask: async ({ to, step_ms }, extra) => {
          const task = await extra.taskStore.createTask({ ttl: 3_600_000, pollInterval: 200 });
          void count(taskStore, task.taskId, to, step_ms).catch((error: unknown) =>
            console.error(`task ${task.taskId}:`, error),
          );
          return { task };
        },
        getTask: (_args, extra) => extra.taskStore.getTask(extra.taskId),
        getTaskResult: async (_args, extra) =>
          (await extra.taskStore.getTaskResult(extra.taskId)) as never,
      },
    );
  return server;
}
