/**
 * What the kernel asks of the person in charge. The editor answers with dialogs and panels, the CLI
 * on its terminal, and a headless kernel with no one to ask refuses. Every question carries what the
 * person needs to decide, and says where its text came from: tool descriptions come from the server
 * and are untrusted.
 */
import type {
  CreateMessageRequest,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequest,
  ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { EffectiveSecurity } from '../domain/security';
import type { RiskLevel } from '../domain/security';

export interface ToolApprovalRequest {
  id: string;
  serverId: string;
  toolName: string;
  /** Untrusted: written by the server. */
  description?: string;
  args: Record<string, unknown>;
  security: EffectiveSecurity;
  agentId: string;
  traceId: string;
  requestedAt: string;
}

/** The five answers (issue: allow once, for the session, always, the whole server for the session, deny). */
export type ToolApprovalAnswer = 'once' | 'session' | 'always' | 'server_session' | 'deny';

export interface PermissionRequest {
  serverId: string;
  permissions: { name: string; risk?: RiskLevel; description?: string }[];
  /** Untrusted: the server's own name for itself. */
  serverName?: string;
}

export interface PermissionAnswer {
  decisions: Record<string, 'approved' | 'denied' | 'deferred'>;
  /** ISO date-time after which approvals lapse; undefined: for as long as they are not revoked. */
  expiresAt?: string;
  /** false when nobody was actually asked (no terminal, a command-line flag): the answer holds for this run only. */
  persist?: boolean;
}

export type SamplingReview =
  | { action: 'approve'; params: CreateMessageRequest['params'] }
  | { action: 'reject'; reason?: string };

/** The model's answer to a sampling request, as it would go back to the server. */
export type SampledAnswer = CreateMessageResult | CreateMessageResultWithTools;

/** MCP sampling's second look: the person sees the model's answer before the server does. */
export type CompletionReview =
  { action: 'send'; result: SampledAnswer } | { action: 'reject'; reason?: string };

/** MGP §13.4 callback types the person answers (llm_completion goes to the model instead). */
export interface CallbackQuestion {
  serverId: string;
  callbackId: string;
  type: 'confirmation' | 'input' | 'selection' | 'notification';
  message: string;
  options?: string[];
  /** Resolves when the callback's timeout_ms passes: the question should close. */
  expired: AbortSignal;
}

export interface RegistrationRequest {
  id: string;
  command: string;
  args: string[];
  transport: string;
  trustLevel: string;
  createdBy?: string;
  justification?: string;
}

/** MCPL §7.4: a server asks to act in a scope no list covers; the payload is shown as it came. */
export interface ScopeQuestion {
  serverId: string;
  featureSet: string;
  /** Untrusted: written by the server. */
  featureSetDescription?: string;
  label: string;
  payload?: Record<string, unknown>;
  /** `elevation` (scope/elevate) or `tool` (a scoped tools/call, §7.7). */
  origin: 'elevation' | 'tool';
  toolName?: string;
}

/** MCPL §11: a server asks for the user's model; the messages are shown as they came. */
export interface InferenceQuestion {
  serverId: string;
  featureSet: string;
  /** Untrusted: written by the server. */
  featureSetDescription?: string;
  messages: { role: string; content: string }[];
  maxTokens?: number;
  model: string;
}

export interface Interaction {
  approveToolCall(request: ToolApprovalRequest, signal?: AbortSignal): Promise<ToolApprovalAnswer>;
  approvePermissions(request: PermissionRequest): Promise<PermissionAnswer>;
  reviewSampling(
    serverId: string,
    params: CreateMessageRequest['params'],
    signal: AbortSignal,
  ): Promise<SamplingReview>;
  /** The model's answer, shown before it goes back to the server: sent, edited, or declined. */
  reviewCompletion(
    serverId: string,
    result: SampledAnswer,
    signal: AbortSignal,
  ): Promise<CompletionReview>;
  elicit(
    serverId: string,
    params: ElicitRequest['params'],
    signal: AbortSignal,
  ): Promise<ElicitResult>;
  /** undefined when dismissed or expired. */
  answerCallback(question: CallbackQuestion): Promise<string | undefined>;
  approveRegistration(request: RegistrationRequest): Promise<boolean>;
  /** MCPL §7.6 step 3; left out: nobody to ask, denied. */
  approveScope?(question: ScopeQuestion, signal: AbortSignal): Promise<boolean>;
  /** MCPL §11 under the `ask` policy; left out: nobody to ask, denied. */
  approveInference?(question: InferenceQuestion, signal: AbortSignal): Promise<boolean>;
}

/** No one to ask (a headless kernel without a terminal): every question is refused, saying why. */
export const NOBODY_TO_ASK: Interaction = {
  approveToolCall: async () => 'deny',
  approvePermissions: async (request) => ({
    decisions: Object.fromEntries(request.permissions.map((p) => [p.name, 'denied' as const])),
    persist: false,
  }),
  reviewSampling: async () => ({
    action: 'reject',
    reason: 'no one is there to review the sampling request',
  }),
  reviewCompletion: async () => ({
    action: 'reject',
    reason: "no one is there to review the model's answer",
  }),
  elicit: async () => ({ action: 'decline' }),
  answerCallback: async () => undefined,
  approveRegistration: async () => false,
};
