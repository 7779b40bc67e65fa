/**
 * The kernel's answers to what servers ask of the client (MCP client features): roots are the
 * workspace folders; a sampling request is shown to the person to approve, edit or reject, then routed
 * to a model; an elicitation is a form (checked against its restricted schema) or a URL opened after
 * consent.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  ErrorCode,
  McpError,
  Root,
} from '@modelcontextprotocol/sdk/types.js';
import type { ClientRequestHandlers } from '../connection/clientFeatures';
import { KernelError } from '../domain/errors';
import { withElicitationDefaults } from './elicitationDefaults';
import { guardUrlElicitation } from './elicitationUrl';
import type { CompletionMessage, CompletionRequest } from '../llm/modelProvider';
import type { ModelRouter } from '../llm/modelRouter';
import type { AuditSink } from '../audit/auditSink';
import type { Interaction, SampledAnswer } from './interaction';
import { chatRequestOf, needsChatModel, samplingResultOf } from './samplingMessages';
import type { UpstreamAnswer, UpstreamClients } from './upstreamClients';

/** MCP: a client that declines a sampling request answers with code -1 (user rejected). */
const USER_REJECTED = -1;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);

export interface ClientHandlerDeps {
  interaction: Interaction;
  models: ModelRouter;
  roots(): Root[];
  audit: AuditSink;
  /** Clients above the kernel (the gateway's) that answer in its place when they can. */
  upstream?: UpstreamClients;
}

function textOf(content: CreateMessageRequest['params']['messages'][number]['content']): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
}

export function completionRequestOf(params: CreateMessageRequest['params']): CompletionRequest {
  const messages: CompletionMessage[] = params.messages.map((m) => ({
    role: m.role,
    content: textOf(m.content),
  }));
  const preferences = params.modelPreferences;
  return {
    messages,
    systemPrompt: params.systemPrompt,
    maxTokens: params.maxTokens,
    temperature: params.temperature,
    stopSequences: params.stopSequences,
    hints: preferences
      ? {
          names: preferences.hints?.map((h) => h.name).filter((n): n is string => Boolean(n)),
          costPriority: preferences.costPriority,
          speedPriority: preferences.speedPriority,
          intelligencePriority: preferences.intelligencePriority,
        }
      : undefined,
  };
}

export function clientHandlers(serverId: string, deps: ClientHandlerDeps): ClientRequestHandlers {
  return {
    roots: () => deps.upstream?.first((route) => route.roots(serverId))?.answer ?? deps.roots(),
    createMessage: (params, signal) => {
      const upstream = deps.upstream?.first((route) =>
        route.createMessage(serverId, params, signal),
      );
      return upstream
        ? sampledUpstream(serverId, upstream, deps)
        : sample(serverId, params, signal, deps);
    },
    elicit: (params, signal) => elicit(serverId, params, signal, deps),
  };
}

function samplingAudit(serverId: string, deps: ClientHandlerDeps) {
  return (result: string, details: Record<string, unknown>) =>
    deps.audit.record({
      event_type: 'dev.mgp-kernel.sampling',
      actor: { type: 'server', id: serverId },
      target: { server_id: serverId },
      result,
      details,
    });
}

/** A sampling request answered by the client above the kernel (which reviews it with its user). */
async function sampledUpstream(
  serverId: string,
  upstream: UpstreamAnswer<CreateMessageResult>,
  deps: ClientHandlerDeps,
): Promise<CreateMessageResult> {
  const audit = samplingAudit(serverId, deps);
  try {
    const result = await upstream.answer;
    await audit('SUCCESS', { answered_by: upstream.by, model: result.model });
    return result;
  } catch (error) {
    await audit('FAILURE', {
      answered_by: upstream.by,
      error: error instanceof Error ? error.message : String(error),
    });
    throw error;
  }
}

/** The reviewed request to the model: a chat turn when it needs tools, tool results or media. */
async function askModel(
  params: CreateMessageRequest['params'],
  signal: AbortSignal,
  deps: ClientHandlerDeps,
): Promise<SampledAnswer> {
  if (needsChatModel(params)) {
    const hints = completionRequestOf(params).hints;
    const model = deps.models.chooseChat(hints);
    const request = chatRequestOf(params, { label: model.label, inputs: model.inputs ?? [] });
    return samplingResultOf(await model.chat(request, signal));
  }
  const completion = await deps.models.complete(completionRequestOf(params), signal);
  return {
    role: 'assistant',
    content: { type: 'text', text: completion.content },
    model: completion.model,
    stopReason: completion.stopReason ?? 'endTurn',
  };
}

/**
 * A request no model here can take (images for a model without them, no chat model at all) is
 * refused before the person is asked to review it: there would be nothing to send it to.
 */
function refuseUnanswerable(params: CreateMessageRequest['params'], deps: ClientHandlerDeps): void {
  if (!needsChatModel(params)) return;
  const model = deps.models.chooseChat(completionRequestOf(params).hints);
  chatRequestOf(params, { label: model.label, inputs: model.inputs ?? [] });
}

/** The model could not answer: audited, and said to the server with an MCP error. */
async function modelFailed(
  error: unknown,
  audit: ReturnType<typeof samplingAudit>,
): Promise<never> {
  await audit('FAILURE', { error: error instanceof Error ? error.message : String(error) });
  if (error instanceof KernelError && error.code === 'NoModel')
    throw new McpError(ErrorCode.InternalError, error.message);
  throw error;
}

/**
 * MCP sampling with the person in the loop: the request is reviewed (sent, edited or declined), goes
 * to a model, and the model's answer is reviewed again before it goes back to the server.
 */
async function sample(
  serverId: string,
  params: CreateMessageRequest['params'],
  signal: AbortSignal,
  deps: ClientHandlerDeps,
): Promise<SampledAnswer> {
  const audit = samplingAudit(serverId, deps);
  try {
    refuseUnanswerable(params, deps);
  } catch (error) {
    await modelFailed(error, audit);
  }
  const review = await deps.interaction.reviewSampling(serverId, params, signal);
  if (review.action === 'reject') {
    await audit('REJECTED', { reason: review.reason ?? 'rejected by the user' });
    throw new McpError(
      USER_REJECTED,
      `the user rejected the sampling request${review.reason ? `: ${review.reason}` : ''}`,
    );
  }
  let answer: SampledAnswer;
  try {
    answer = await askModel(review.params, signal, deps);
  } catch (error) {
    return modelFailed(error, audit);
  }
  const checked = await deps.interaction.reviewCompletion(serverId, answer, signal);
  if (checked.action === 'reject') {
    await audit('REJECTED', { model: answer.model, reason: checked.reason ?? 'answer declined' });
    throw new McpError(
      USER_REJECTED,
      `the user declined the model's answer${checked.reason ? `: ${checked.reason}` : ''}`,
    );
  }
  await audit('SUCCESS', {
    model: answer.model,
    edited: review.params !== params,
    answer_edited: checked.result !== answer,
    stop_reason: checked.result.stopReason,
  });
  return checked.result;
}

async function elicit(
  serverId: string,
  params: ElicitRequest['params'],
  signal: AbortSignal,
  deps: ClientHandlerDeps,
): Promise<ElicitResult> {
  // A client above the kernel answers first when it can (the gateway's); the URL guard holds for both.
  const answered = await guardUrlElicitation(
    (id, p, s) =>
      deps.upstream?.first((route) => route.elicit(id, p, s))?.answer ??
      deps.interaction.elicit(id, p, s),
  )(serverId, params, signal);
  const result =
    answered.action === 'accept' && params.mode !== 'url' && 'requestedSchema' in params
      ? {
          ...answered,
          content: withElicitationDefaults(params.requestedSchema, answered.content),
        }
      : answered;
  if (result.action === 'accept' && params.mode !== 'url' && 'requestedSchema' in params) {
    const validate = ajv.compile(params.requestedSchema as object);
    if (!validate(result.content ?? {})) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `the answer does not match the requested schema: ${ajv.errorsText(validate.errors)}`,
      );
    }
  }
  return result;
}
