/**
 * What an agent's run did, step by step: the record `mgp agent --json` prints (a stable interface),
 * the chat participant renders, and tests read. A step is one inference and the tool calls it asked for.
 */

/** Why a run ended. */
export type StopReason = 'answered' | 'max_steps' | 'loop_guard' | 'cancelled' | 'model_error';

/**
 * What became of one tool call the model asked for:
 * - `ran`: the kernel let it through and the tool answered (`is_error` says how);
 * - `refused`: the kernel refused it (access, approval, validators: `code` says which);
 * - `invalid`: the arguments did not parse or did not fit the schema;
 * - `unknown_tool`: no tool of that name was offered;
 * - `failed`: the server or transport failed;
 * - `cancelled`: the run was cancelled during the call (partial output kept);
 * - `not_run`: the loop guard or a cancellation stopped the run before it.
 */
export type ToolCallDecision =
  'ran' | 'refused' | 'invalid' | 'unknown_tool' | 'failed' | 'cancelled' | 'not_run';

export interface ToolCallRecord {
  /** The model's id of the call. */
  id: string;
  /** The name the model called. */
  name: string;
  server_id?: string;
  tool_name?: string;
  /** Parsed arguments, or the text the model wrote when it did not parse. */
  arguments: unknown;
  decision: ToolCallDecision;
  /** How the approval went, when the kernel got that far (`not_required`, `once`, `session_grant`…). */
  approval?: string;
  trace_id?: string;
  is_error: boolean;
  /** MGP §14.3 code of a refusal or failure. */
  code?: number;
  /** What the model was given back (cut to the result budget). */
  result: string;
  truncated?: boolean;
  streamed?: boolean;
  /** Tools evicted from the session cache to make room for this one. */
  evicted?: string[];
  duration_ms: number;
}

export interface AgentStep {
  index: number;
  /** The model that answered. */
  model: string;
  /** The names of the tools offered at this inference, and their cl100k tokens. */
  offered: string[];
  context_tokens: number;
  text: string;
  tool_calls: ToolCallRecord[];
  inference_ms: number;
}

export interface AgentRunRecord {
  agent_id: string;
  task: string;
  model?: string;
  steps: AgentStep[];
  stop: { reason: StopReason; message: string };
  /** The model's final answer (its text of the last step). */
  answer: string;
  /** The largest tool context of any step, in cl100k tokens. */
  peak_context_tokens: number;
  duration_ms: number;
}
