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
import { PEER_ANSWER_TIMEOUT_MS, type PeerQuestions } from './peerQuestions';

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
  /** Where a call that needs approval asks its task's peer (peerQuestions.ts); none: never. */
  questions?: PeerQuestions;
  /** Whether the peer of this name may answer approval questions (`approves = true`). */
  mayApprove?(peer: string): boolean;
  onLog?(message: string): void;
}

/** A task whose agent loop runs: the bus of its current turn, and the question it waits on. */
interface TaskRun {
  contextId: string;
  controller: AbortController;
  bus: ExecutionEventBus;
  /** Resolves when the current turn ends: the task finished, or it asks the peer. */
  turnEnded: () => void;
  turn: Promise<void>;
  answer?: (text: string | undefined) => void;
}

function newTurn(run: Pick<TaskRun, 'turnEnded' | 'turn'>): void {
  run.turn = new Promise<void>((resolve) => (run.turnEnded = resolve));
}

export class KernelExecutor implements AgentExecutor {
  private readonly runs = new Map<string, TaskRun>();
  private readonly contexts = new Map<string, string>();

  constructor(private readonly options: KernelExecutorOptions) {}

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = context;
    this.contexts.set(taskId, contextId);
    const waiting = this.runs.get(taskId);
    if (waiting?.answer) return this.answered(waiting, context, bus);
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
    const run = { contextId, controller: new AbortController(), bus } as TaskRun;
    newTurn(run);
    this.runs.set(taskId, run);
    const peer = context.context.user?.userName ?? 'peer';
    void this.loop(taskId, run, peer, model, textOf(context.userMessage));
    await run.turn;
  }

  /** The agent loop of one task, across the turns its questions make. */
  private async loop(
    taskId: string,
    run: TaskRun,
    peer: string,
    model: ChatModel,
    task: string,
  ): Promise<void> {
    const session = new AgentSession(this.options.kernel, { agentId: a2aAgentId(peer) });
    const questions = this.options.mayApprove?.(peer) ? this.options.questions : undefined;
    const forget: (() => void)[] = [];
    let final: ReturnType<typeof status> | undefined;
    try {
      const record = await session.run({
        model,
        task,
        signal: run.controller.signal,
        observer: {
          onToolCall: (call) => {
            if (questions)
              forget.push(
                questions.register(call.traceId, (q, signal) => this.ask(taskId, run, q, signal)),
              );
          },
        },
      });
      this.options.onLog?.(`task ${taskId}: ${record.stop.reason}`);
      if (record.stop.reason !== 'cancelled')
        final =
          record.stop.reason === 'answered'
            ? status(taskId, run.contextId, 'TASK_STATE_COMPLETED', record.answer)
            : status(taskId, run.contextId, 'TASK_STATE_FAILED', record.stop.message);
    } catch (error) {
      final = status(
        taskId,
        run.contextId,
        'TASK_STATE_FAILED',
        error instanceof Error ? error.message : String(error),
      );
    } finally {
      forget.forEach((f) => f());
      session.close();
      this.runs.delete(taskId);
      if (final) run.bus.publish(final);
      run.bus.finished();
      run.turnEnded();
    }
  }

  /**
   * Asks the task's peer: the task waits in `input-required` with the question, this turn ends, and
   * the peer's next message on the task is the answer (none within the timeout, or a cancel: none).
   */
  private ask(
    taskId: string,
    run: TaskRun,
    question: string,
    signal?: AbortSignal,
  ): Promise<string | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(undefined), PEER_ANSWER_TIMEOUT_MS);
      const settle = (text: string | undefined) => {
        clearTimeout(timer);
        run.answer = undefined;
        resolve(text);
      };
      signal?.addEventListener('abort', () => settle(undefined), { once: true });
      run.controller.signal.addEventListener('abort', () => settle(undefined), { once: true });
      run.answer = settle;
      run.bus.publish(status(taskId, run.contextId, 'TASK_STATE_INPUT_REQUIRED', question));
      run.bus.finished();
      const ended = run.turnEnded;
      newTurn(run);
      ended();
    });
  }

  /** The peer's message on a task that asked it: the answer, and a new turn on the new bus. */
  private async answered(run: TaskRun, context: RequestContext, bus: ExecutionEventBus) {
    run.bus = bus;
    bus.publish(status(context.taskId, run.contextId, 'TASK_STATE_WORKING'));
    run.answer?.(textOf(context.userMessage));
    await run.turn;
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const run = this.runs.get(taskId);
    run?.controller.abort();
    const contextId = this.contexts.get(taskId) ?? '';
    this.contexts.delete(taskId);
    bus.publish(status(taskId, contextId, 'TASK_STATE_CANCELED', 'Cancelled by the caller.'));
    bus.finished();
  }
}
