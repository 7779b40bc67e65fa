/**
 * The agent loop: one for every front end (the @mgp chat participant, `mgp agent`, and what MCPL adds).
 * A session is one conversation of one agent identity (MGP §5) with its own tool session (§16.7).
 * Each run takes a task to an answer: the model is offered the meta-tools and the session's tools
 * (toolContext.ts), its tool calls go through the kernel (toolCaller.ts), and the run stops when the
 * model answers, at the step limit, when the loop guard trips, or when it is cancelled.
 */
import { randomUUID } from 'node:crypto';
import type { ChatMessage, ChatModel, ChatTurn } from '../llm/chatModel';
import type { Caller } from '../domain/caller';
import type { DeliveredEvent, EventHub } from '../bidirectional/eventHub';
import { SubscriberEvents } from '../bidirectional/subscriberEvents';
import type {
  AgentHooks,
  AgentObserver,
  ContextInjection,
  InferenceInfo,
  PushedEvent,
} from './hooks';
import { agentCaller } from './identity';
import { LoopGuard } from './loopGuard';
import { AGENT_INSTRUCTIONS, eventMessage, withInjections } from './prompt';
import {
  InstructionsSource,
  serverInstructionsMessage,
  withServerInstructions,
} from './serverInstructions';
import { callTool, CallDone, ToolCallKernel } from './toolCaller';
import { AgentToolContext, ToolContextKernel, ToolContextOptions } from './toolContext';
import type { AgentRunRecord, AgentStep, StopReason, ToolCallRecord } from './transcript';

export type AgentKernel = ToolCallKernel &
  ToolContextKernel &
  InstructionsSource & {
    /** Where the agent's `mgp.events.subscribe` subscriptions are kept (MGP §13.2). */
    events?: EventHub;
  };

export interface AgentSessionOptions extends ToolContextOptions {
  /** The agent's identity (`agent.chat`, `agent.cli`…, identity.ts). */
  agentId: string;
  hooks?: AgentHooks[];
}

export interface AgentRunOptions {
  model: ChatModel;
  task: string;
  /** The conversation before this task (from the front end's own history). */
  history?: readonly ChatMessage[];
  /** Inferences at most (default 10). */
  maxSteps?: number;
  /** Identical calls in a row that stop the run (default 3). */
  loopGuard?: number;
  signal?: AbortSignal;
  observer?: AgentObserver;
  /** The most characters of one tool result the model is given (default 16,000). */
  resultMaxChars?: number;
  /** Replaces the default instructions. */
  instructions?: string;
}

export const DEFAULT_MAX_STEPS = 10;
export const DEFAULT_LOOP_GUARD = 3;
const BEFORE_INFERENCE_TIMEOUT_MS = 5_000;
const AFTER_INFERENCE_TIMEOUT_MS = 10_000;
const REMEMBERED_EVENTS = 1_000;
const CANCELLED = { reason: 'cancelled', message: 'Cancelled.' } as const;

interface RunState {
  steps: AgentStep[];
  peak: number;
  stop?: { reason: StopReason; message: string };
  answer: string;
  model?: string;
}

export class AgentSession {
  readonly caller: Caller;
  readonly conversationId = randomUUID();
  readonly tools: AgentToolContext;
  private readonly hooks: AgentHooks[];
  private readonly inbox: PushedEvent[] = [];
  private readonly seenEvents = new Set<string>();
  private readonly subscriptions: SubscriberEvents | undefined;
  private turnIndex = 0;

  constructor(
    private readonly kernel: AgentKernel,
    options: AgentSessionOptions,
  ) {
    this.tools = new AgentToolContext(kernel, options);
    // Events of the agent's own subscriptions reach its model before the next inference (MGP §13.3).
    this.subscriptions =
      kernel.events && new SubscriberEvents(kernel.events, (event) => this.push(pushed(event)));
    this.caller = {
      ...agentCaller(options.agentId),
      toolSession: this.tools.session.tools,
      ...(this.subscriptions ? { events: this.subscriptions } : {}),
    };
    this.hooks = options.hooks ?? [];
  }

  /** Adds a seam (MCPL context hooks) for the session's later inferences. */
  use(hooks: AgentHooks): void {
    this.hooks.push(hooks);
  }

  /**
   * An event pushed between turns (MCPL §9): delivered before the next inference. Duplicates of an
   * event id are not accepted (§9.4).
   */
  push(event: PushedEvent): { accepted: boolean; reason?: string } {
    if (this.seenEvents.has(event.eventId)) return { accepted: false, reason: 'duplicate eventId' };
    this.seenEvents.add(event.eventId);
    if (this.seenEvents.size > REMEMBERED_EVENTS)
      this.seenEvents.delete(this.seenEvents.values().next().value as string);
    this.inbox.push(event);
    return { accepted: true };
  }

  /** Ends the session: its cache is dropped (its approvals and audit records stay). */
  close(): void {
    this.subscriptions?.close();
    this.tools.close();
  }

  async run(options: AgentRunOptions): Promise<AgentRunRecord> {
    const started = performance.now();
    const signal = options.signal ?? new AbortController().signal;
    const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    const guard = new LoopGuard(options.loopGuard ?? DEFAULT_LOOP_GUARD);
    const messages: ChatMessage[] = [
      { role: 'system', content: options.instructions ?? AGENT_INSTRUCTIONS },
      ...(options.history ?? []),
      { role: 'user', content: options.task },
    ];
    const state: RunState = { steps: [], peak: 0, answer: '' };
    for (let index = 1; !state.stop; index++) {
      if (signal.aborted) state.stop = CANCELLED;
      else if (index > maxSteps)
        state.stop = {
          reason: 'max_steps',
          message: `Stopped after ${maxSteps} steps without a final answer.`,
        };
      else await this.step(index, messages, options, guard, signal, state);
    }
    return {
      agent_id: this.caller.agentId,
      task: options.task,
      model: state.model,
      steps: state.steps,
      stop: state.stop!,
      answer: state.answer,
      peak_context_tokens: state.peak,
      duration_ms: performance.now() - started,
    };
  }

  /** One inference and the tool calls it asks for. */
  private async step(
    index: number,
    messages: ChatMessage[],
    options: AgentRunOptions,
    guard: LoopGuard,
    signal: AbortSignal,
    state: RunState,
  ): Promise<void> {
    const observer = options.observer ?? {};
    observer.onStep?.(index);
    for (const event of this.inbox.splice(0)) messages.push(eventMessage(event));
    const offered = this.tools.offer();
    state.peak = Math.max(state.peak, offered.tokens);
    const info: InferenceInfo = {
      inferenceId: randomUUID(),
      conversationId: this.conversationId,
      turnIndex: this.turnIndex++,
      userMessage: index === 1 ? options.task : null,
      model: { id: options.model.id, label: options.model.label },
    };
    const inferenceStarted = performance.now();
    let turn: ChatTurn;
    try {
      const prompt = withInjections(
        withServerInstructions(messages, serverInstructionsMessage(offered.servers, this.kernel)),
        await this.beforeInference(info, signal),
      );
      turn = await options.model.chat(
        { messages: prompt, tools: offered.tools },
        signal,
        observer.onText,
      );
      turn = await this.afterInference(info, turn, signal);
    } catch (error) {
      state.stop = signal.aborted
        ? CANCELLED
        : {
            reason: 'model_error',
            message: `The model failed: ${error instanceof Error ? error.message : String(error)}`,
          };
      return;
    }
    state.model = turn.model;
    const step: AgentStep = {
      index,
      model: turn.model,
      offered: offered.tools.map((t) => t.name),
      context_tokens: offered.tokens,
      text: turn.text,
      tool_calls: [],
      inference_ms: performance.now() - inferenceStarted,
    };
    state.steps.push(step);
    messages.push({ role: 'assistant', content: turn.text, toolCalls: turn.toolCalls });
    if (turn.text) state.answer = turn.text;
    if (turn.toolCalls.length === 0) {
      state.stop = { reason: 'answered', message: 'The model answered.' };
    } else {
      const context = {
        kernel: this.kernel,
        tools: this.tools,
        caller: this.caller,
        guard,
        signal,
        observer,
        offered: step.offered,
        resultMaxChars: options.resultMaxChars ?? 16_000,
      };
      for (const call of turn.toolCalls) {
        // Stop pressed as the answer came: none of its calls starts.
        if (signal.aborted && !state.stop) state.stop = CANCELLED;
        const done: CallDone = state.stop
          ? notRun(call.id, call.name, state.stop.message)
          : await callTool(context, call);
        step.tool_calls.push(done.record);
        observer.onToolResult?.(done.record);
        messages.push({
          role: 'tool',
          toolCallId: call.id,
          name: call.name,
          content: done.content,
          isError: done.record.is_error,
        });
        if (done.stop && !state.stop) state.stop = done.stop;
      }
    }
    observer.onStepEnd?.(step);
  }

  private async beforeInference(
    info: InferenceInfo,
    signal: AbortSignal,
  ): Promise<ContextInjection[]> {
    const injections: ContextInjection[] = [];
    for (const hooks of this.hooks) {
      if (!hooks.beforeInference) continue;
      const added = await withTimeout(
        (s) => hooks.beforeInference!(info, s),
        BEFORE_INFERENCE_TIMEOUT_MS,
        signal,
      );
      if (Array.isArray(added)) injections.push(...added);
    }
    return injections;
  }

  private async afterInference(
    info: InferenceInfo,
    turn: ChatTurn,
    signal: AbortSignal,
  ): Promise<ChatTurn> {
    let text = turn.text;
    for (const hooks of this.hooks) {
      if (!hooks.afterInference) continue;
      const answer = await withTimeout(
        (s) => hooks.afterInference!({ ...info, assistantMessage: text, usage: turn.usage }, s),
        AFTER_INFERENCE_TIMEOUT_MS,
        signal,
      );
      if (answer && typeof answer.modifiedResponse === 'string') text = answer.modifiedResponse;
    }
    return text === turn.text ? turn : { ...turn, text };
  }
}

function pushed(event: DeliveredEvent): PushedEvent {
  return {
    eventId: randomUUID(),
    source: event.server_id,
    timestamp: event.timestamp,
    text: `notifications/mgp.event on ${event.channel} (${event.severity}, subscription ${event.subscription_id}): ${JSON.stringify(event.data)}`,
  };
}

function notRun(id: string, name: string, why: string): CallDone {
  const content = `Not run: ${why}`;
  const record: ToolCallRecord = {
    id,
    name,
    arguments: undefined,
    decision: 'not_run',
    is_error: true,
    result: content,
    duration_ms: 0,
  };
  return { record, content };
}

/** A hook's answer, or undefined when it fails or takes too long (MCPL §10.6: go on without it). */
async function withTimeout<T>(
  run: (signal: AbortSignal) => Promise<T>,
  ms: number,
  outer: AbortSignal,
): Promise<T | undefined> {
  const signal = AbortSignal.any([outer, AbortSignal.timeout(ms)]);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
    signal.addEventListener('abort', () => resolve(undefined), { once: true });
  });
  try {
    return await Promise.race([run(signal).catch(() => undefined), expired]);
  } finally {
    clearTimeout(timer);
  }
}
