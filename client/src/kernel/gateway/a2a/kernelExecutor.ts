/**
 * What a task sent to the kernel's A2A server does: the kernel's agent loop on the configured model,
 * under the identity `agent.a2a.<caller>`, so access rules and approvals apply as for any agent (a
 * call that needs an approval nobody can give is refused by policy). The task is working while the
 * loop runs and completed with its answer; a cancel stops the loop.
 */
import { randomUUID } from 'node:crypto';
import { Message, Task, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import type { Message as MessageType } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { AgentSession } from '../../agent';
import type { ChatModel } from '../../llm/chatModel';
import type { Kernel } from '../../kernel';

/** A peer's identity: `agent.a2a.<name>` for a `[[a2a.peers]]` entry, `agent.a2a.peer` for the server's own token (MGP §5). */
export const A2A_AGENT_PREFIX = 'agent.a2a.';

export function a2aAgentId(caller: string): string {
  const slug = caller
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return `${A2A_AGENT_PREFIX}${slug || 'peer'}`;
}

function textOf(message: MessageType | undefined): string {
  return (message?.parts ?? [])
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .filter(Boolean)
    .join('\n');
}

function status(taskId: string, contextId: string, state: string, text?: string) {
  return AgentEvent.statusUpdate(
    TaskStatusUpdateEvent.fromJSON({
      taskId,
      contextId,
      status: {
        state,
        timestamp: new Date().toISOString(),
        ...(text
          ? {
              message: Message.toJSON(
                Message.fromJSON({
                  messageId: randomUUID(),
                  role: 'ROLE_AGENT',
                  taskId,
                  contextId,
                  parts: [{ text }],
                }),
              ),
            }
          : {}),
      },
    }),
  );
}

export interface KernelExecutorOptions {
  kernel: Kernel;
  /** The model the loop runs on; none: every task fails saying so. */
  model: () => ChatModel | undefined;
  onLog?(message: string): void;
}

export class KernelExecutor implements AgentExecutor {
  private readonly running = new Map<string, AbortController>();
  private readonly contexts = new Map<string, string>();

  constructor(private readonly options: KernelExecutorOptions) {}

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = context;
    this.contexts.set(taskId, contextId);
    if (!context.task)
      bus.publish(
        AgentEvent.task(
          Task.fromJSON({
            id: taskId,
            contextId,
            status: { state: 'TASK_STATE_SUBMITTED', timestamp: new Date().toISOString() },
            history: [Message.toJSON(context.userMessage)],
          }),
        ),
      );
    const model = this.options.model();
    if (!model) {
      bus.publish(
        status(taskId, contextId, 'TASK_STATE_FAILED', 'No model is configured for this kernel.'),
      );
      bus.finished();
      return;
    }
    bus.publish(status(taskId, contextId, 'TASK_STATE_WORKING'));
    const controller = new AbortController();
    this.running.set(taskId, controller);
    const session = new AgentSession(this.options.kernel, {
      agentId: a2aAgentId(context.context.user?.userName ?? 'peer'),
    });
    try {
      const record = await session.run({
        model,
        task: textOf(context.userMessage),
        signal: controller.signal,
      });
      this.options.onLog?.(`task ${taskId}: ${record.stop.reason}`);
      if (record.stop.reason === 'cancelled') return;
      bus.publish(
        record.stop.reason === 'answered'
          ? status(taskId, contextId, 'TASK_STATE_COMPLETED', record.answer)
          : status(taskId, contextId, 'TASK_STATE_FAILED', record.stop.message),
      );
    } catch (error) {
      bus.publish(
        status(
          taskId,
          contextId,
          'TASK_STATE_FAILED',
          error instanceof Error ? error.message : String(error),
        ),
      );
    } finally {
      session.close();
      this.running.delete(taskId);
      bus.finished();
    }
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    this.running.get(taskId)?.abort();
    const contextId = this.contexts.get(taskId) ?? '';
    this.contexts.delete(taskId);
    bus.publish(status(taskId, contextId, 'TASK_STATE_CANCELED', 'Cancelled by the caller.'));
    bus.finished();
  }
}
