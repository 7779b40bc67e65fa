/** The agent loop (issue: agents use the kernel): sessions, identities, hooks and the run record. */
export {
  AgentSession,
  DEFAULT_LOOP_GUARD,
  DEFAULT_MAX_STEPS,
  type AgentKernel,
  type AgentRunOptions,
  type AgentSessionOptions,
} from './agentSession';
export type {
  AfterInferenceInfo,
  AgentHooks,
  AgentObserver,
  ContextInjection,
  InferenceInfo,
  PushedEvent,
  StartingToolCall,
} from './hooks';
export {
  agentCaller,
  CHAT_AGENT_ID,
  CLI_AGENT_ID,
  COPILOT_AGENT_ID,
  GATEWAY_AGENT_PREFIX,
  gatewayAgentId,
} from './identity';
export { LoopGuard } from './loopGuard';
export { AGENT_INSTRUCTIONS } from './prompt';
export { errorRejection, parseArguments, type Rejection } from './rejections';
export { AgentToolContext, type OfferedTools, type ToolContextOptions } from './toolContext';
export { ModelToolNames, type ToolRef } from './toolNames';
export { getPromptAs, readResourceAs, type ContentKernel } from './serverContent';
export { cutText, resultText, type ResultText } from './toolResultText';
export type {
  AgentRunRecord,
  AgentStep,
  StopReason,
  ToolCallDecision,
  ToolCallRecord,
} from './transcript';
