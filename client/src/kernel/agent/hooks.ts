/**
 * The seams of the agent loop, where MCPL attaches (MCPL §9, §10) and front ends listen:
 * - `AgentHooks.beforeInference`: context to inject before each inference (§10.1, §10.4 positions);
 * - `AgentHooks.afterInference`: told the answer after each inference; may replace its text (§10.5);
 * - events pushed between turns (`AgentSession.push`, §9): delivered before the next inference;
 * - `AgentObserver`: what a front end shows as it happens (streamed text, tool calls, results).
 */
import type { ChatTurn } from '../llm/chatModel';
import type { AgentStep, ToolCallRecord } from './transcript';

export interface InferenceInfo {
  inferenceId: string;
  conversationId: string;
  /** 0-based, across the session's runs. */
  turnIndex: number;
  /** The user's message for the first inference of a run; null for continued generation. */
  userMessage: string | null;
  model: { id: string; label: string };
}

/** MCPL §10.4. Content is text here: the models the loop drives read text. */
export interface ContextInjection {
  namespace: string;
  position: 'system' | 'beforeUser' | 'afterUser';
  content: string;
}

export interface AfterInferenceInfo extends InferenceInfo {
  assistantMessage: string;
  usage?: ChatTurn['usage'];
}

export interface AgentHooks {
  /** MCPL §10.1: timed out after 5 s (§10.6): the inference goes on without it. */
  beforeInference?(info: InferenceInfo, signal: AbortSignal): Promise<ContextInjection[] | void>;
  /** MCPL §10.5: timed out after 10 s. A `modifiedResponse` replaces the answer's text. */
  afterInference?(
    info: AfterInferenceInfo,
    signal: AbortSignal,
  ): Promise<{ modifiedResponse?: string } | void>;
}

/** MCPL §9.1, as the loop needs it. */
export interface PushedEvent {
  eventId: string;
  /** Who sent it (a server id). */
  source: string;
  timestamp?: string;
  text: string;
}

/** A tool call the loop is about to hand to the kernel (the trace id is the call's, MGP §6.5). */
export interface StartingToolCall {
  id: string;
  name: string;
  serverId: string;
  toolName: string;
  args: Record<string, unknown>;
  traceId: string;
}

export interface AgentObserver {
  onStep?(index: number): void;
  /** The model's text as it streams. */
  onText?(delta: string): void;
  onToolCall?(call: StartingToolCall): void;
  /** Output of a streaming tool as it arrives (MGP §12), and its progress. */
  onToolOutput?(call: StartingToolCall, appended: string): void;
  onToolProgress?(call: StartingToolCall, progress: { fraction?: number; message?: string }): void;
  onToolResult?(record: ToolCallRecord): void;
  onStepEnd?(step: AgentStep): void;
}
