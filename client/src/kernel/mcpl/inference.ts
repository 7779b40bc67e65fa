/**
 * Server-initiated inference (MCPL §11) and model information (§12). An `inference/request` is
 * checked against its feature set (§6.6, and §11.5: only sets that use `inferenceRequest`), refused
 * while one of the server's own context hooks is running (§10.7, loop prevention), decided by policy
 * per server and feature set (ask, allow, deny; an `ask` answer holds for the session), bounded per
 * server, then routed to the user's model by (serverId, featureSet) (§11.5). With `stream: true`
 * the text goes out as `inference/chunk` notifications before the answer (§11.4). Each request is
 * audited with its inference id and outcome (§13.2).
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { InferencePolicy } from '../config/types';
import type { InferenceQuestion } from '../host/interaction';
import type { CompletionMessage, CompletionResult } from '../llm/modelProvider';
import type { ModelRouter } from '../llm/modelRouter';
import type { FeatureSetTable } from './featureSets';
import type { McplAudit } from './mcplAudit';
import {
  blocksText,
  contentBlocks,
  isRecord,
  mcplError,
  McplErrorCodes,
  ModelInfo,
  wireError,
} from './protocol';

/** Inference requests of one server running at once, at most; more are refused, saying why. */
export const MAX_CONCURRENT_INFERENCES = 2;
/** The most characters of messages one request may carry. */
export const MAX_INFERENCE_INPUT_CHARS = 400_000;

export interface InferenceDeps {
  models: ModelRouter;
  audit: McplAudit;
  policyOf(serverId: string, featureSet: string): { inference: InferencePolicy; model?: string };
  ask?(question: InferenceQuestion, signal: AbortSignal): Promise<boolean>;
  /** Whether a context hook of this server is waiting for its answer now (§10.7). */
  hookRunning(serverId: string): boolean;
}

export interface InferenceCall {
  serverId: string;
  table: FeatureSetTable;
  params: Record<string, unknown>;
  requestId: string | number;
  signal: AbortSignal;
  /** Sends one inference/chunk notification (§11.4). */
  chunk(params: { requestId: string | number; index: number; delta: string }): Promise<void>;
}

const FINISH: Record<string, 'end_turn' | 'max_tokens' | 'stop_sequence'> = {
  endTurn: 'end_turn',
  maxTokens: 'max_tokens',
  stopSequence: 'stop_sequence',
  end_turn: 'end_turn',
  max_tokens: 'max_tokens',
  stop_sequence: 'stop_sequence',
  length: 'max_tokens',
  stop: 'end_turn',
};

function messagesOf(value: unknown): CompletionMessage[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const out: CompletionMessage[] = [];
  for (const message of value) {
    if (!isRecord(message)) return undefined;
    const role = message.role;
    if (role !== 'user' && role !== 'assistant' && role !== 'system') return undefined;
    const blocks = contentBlocks(message.content);
    if (!blocks) return undefined;
    out.push({ role, content: blocksText(blocks) });
  }
  return out;
}

export class InferenceRequests {
  private readonly running = new Map<string, number>();
  /** Requests running per server and feature set: switching the set off stops them. */
  private readonly inFlight = new Map<string, Set<AbortController>>();
  private readonly answers = new Map<string, boolean>();
  private readonly asking = new Map<string, Promise<boolean>>();

  constructor(private readonly deps: InferenceDeps) {}

  forget(serverId?: string): void {
    for (const key of [...this.answers.keys()])
      if (serverId === undefined || key.startsWith(`${serverId}\u0000`)) this.answers.delete(key);
  }

  /** §11.1–§11.4. */
  async handle(call: InferenceCall): Promise<Record<string, unknown>> {
    const { serverId, params } = call;
    const tag = typeof params.featureSet === 'string' ? params.featureSet : undefined;
    const inferenceId = `inf_${randomUUID()}`;
    const audit = (outcome: string, details: Record<string, unknown> = {}) =>
      this.deps.audit.record('inference', {
        serverId,
        featureSet: tag,
        inferenceId,
        outcome,
        details,
      });
    try {
      const set = call.table.check(params.featureSet, 'inferenceRequest');
      const messages = messagesOf(params.messages);
      if (!messages)
        throw wireError(
          ErrorCode.InvalidParams,
          'inference/request: messages must be a non-empty list of { role, content } (MCPL §11.2)',
        );
      const size = messages.reduce((sum, m) => sum + m.content.length, 0);
      if (size > MAX_INFERENCE_INPUT_CHARS)
        throw wireError(
          ErrorCode.InvalidParams,
          `inference/request: the messages hold ${size} characters, more than ${MAX_INFERENCE_INPUT_CHARS}`,
        );
      if (this.deps.hookRunning(serverId))
        throw wireError(
          ErrorCode.InvalidRequest,
          'inference/request refused: a context hook of this server is running, and hooks must not trigger inference (MCPL §10.7)',
        );
      const policy = this.deps.policyOf(serverId, set.name);
      await this.authorize(serverId, set.name, set.description, policy, messages, call);
      const result = await this.bounded(serverId, () =>
        this.tracked(serverId, set.name, call, (signal) =>
          this.infer({ ...call, signal }, messages, policy.model),
        ),
      );
      audit('SUCCESS', {
        model: result.model,
        finish_reason: result.finishReason,
        usage: result.usage,
        streamed: params.stream === true,
      });
      return result;
    } catch (error) {
      audit(outcomeOf(error), { reason: error instanceof Error ? error.message : String(error) });
      throw toWireError(error);
    }
  }

  private async authorize(
    serverId: string,
    featureSet: string,
    description: string,
    policy: { inference: InferencePolicy; model?: string },
    messages: CompletionMessage[],
    call: InferenceCall,
  ): Promise<void> {
    if (policy.inference === 'allow') return;
    if (policy.inference === 'deny')
      throw new PolicyRefusal(
        `inference requests of ${featureSet} are denied by config (inference = "deny")`,
      );
    const key = `${serverId}\u0000${featureSet}`;
    let answer = this.answers.get(key);
    const model = this.modelLabel(policy.model);
    if (answer === undefined) {
      let pending = this.asking.get(key);
      if (!pending) {
        if (!this.deps.ask) throw new PolicyRefusal('no one is there to allow the inference');
        pending = this.deps
          .ask(
            {
              serverId,
              featureSet,
              featureSetDescription: description,
              messages,
              maxTokens: numberOr(call.params.preferences, 'maxTokens'),
              model,
            },
            call.signal,
          )
          .then(
            (approved) => {
              this.answers.set(key, approved);
              return approved;
            },
            // Nobody answered (no one could be asked): denied, not remembered as the user's answer.
            (error: unknown) => {
              throw new PolicyRefusal(
                `inference for ${featureSet} was denied: ${error instanceof Error ? error.message : String(error)}`,
              );
            },
          )
          .finally(() => this.asking.delete(key));
        this.asking.set(key, pending);
      }
      answer = await pending;
    }
    if (!answer)
      throw new PolicyRefusal(`the user denied inference for ${featureSet} this session`);
  }

  /**
   * The model that would answer, as the person knows it. With none, the request is refused here:
   * nobody is asked to allow what could not run anyway.
   */
  private modelLabel(model: string | undefined): string {
    try {
      return this.deps.models.choose(model ? { names: [model] } : undefined).label;
    } catch (error) {
      throw new PolicyRefusal(error instanceof Error ? error.message : String(error));
    }
  }

  /** Stops the running requests of a feature set that was switched off (MCPL §6.7: at once). */
  cancel(serverId: string, featureSet: string): number {
    const running = this.inFlight.get(`${serverId}\u0000${featureSet}`);
    for (const controller of running ?? [])
      controller.abort(
        mcplError(
          McplErrorCodes.featureSetNotEnabled,
          `"${featureSet}" was switched off while the request ran`,
          { featureSet, canEnable: true },
        ),
      );
    return running?.size ?? 0;
  }

  private async tracked<T>(
    serverId: string,
    featureSet: string,
    call: InferenceCall,
    run: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const key = `${serverId}\u0000${featureSet}`;
    const controller = new AbortController();
    const signal = AbortSignal.any([call.signal, controller.signal]);
    let running = this.inFlight.get(key);
    if (!running) this.inFlight.set(key, (running = new Set()));
    running.add(controller);
    try {
      return await Promise.race([
        run(signal),
        new Promise<never>((_, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
        ),
      ]);
    } finally {
      running.delete(controller);
      if (running.size === 0) this.inFlight.delete(key);
    }
  }

  private async bounded<T>(serverId: string, run: () => Promise<T>): Promise<T> {
    const now = this.running.get(serverId) ?? 0;
    if (now >= MAX_CONCURRENT_INFERENCES)
      throw wireError(
        ErrorCode.InternalError,
        `${serverId} already has ${now} inference requests running (at most ${MAX_CONCURRENT_INFERENCES}); retry when one has answered`,
      );
    this.running.set(serverId, now + 1);
    try {
      return await run();
    } finally {
      const left = (this.running.get(serverId) ?? 1) - 1;
      if (left > 0) this.running.set(serverId, left);
      else this.running.delete(serverId);
    }
  }

  private async infer(
    call: InferenceCall,
    messages: CompletionMessage[],
    model: string | undefined,
  ): Promise<{
    content: string;
    model: string;
    finishReason: string;
    usage: { inputTokens?: number; outputTokens?: number };
  }> {
    const preferences = isRecord(call.params.preferences) ? call.params.preferences : {};
    const advisory = typeof preferences.model === 'string' ? [preferences.model] : [];
    const names = [...(model ? [model] : []), ...advisory];
    let index = 0;
    let chunks = Promise.resolve();
    const onText =
      call.params.stream === true
        ? (delta: string) => {
            const sent = { requestId: call.requestId, index: index++, delta };
            chunks = chunks.then(() => call.chunk(sent)).catch(() => undefined);
          }
        : undefined;
    const result: CompletionResult = await this.deps.models.complete(
      {
        messages,
        maxTokens: numberOr(preferences, 'maxTokens'),
        temperature: numberOr(preferences, 'temperature'),
        hints: names.length ? { names } : undefined,
      },
      call.signal,
      onText,
    );
    if (onText && index === 0 && result.content) onText(result.content);
    await chunks;
    return {
      content: result.content,
      model: result.model,
      finishReason: FINISH[result.stopReason ?? 'endTurn'] ?? 'end_turn',
      usage: {
        inputTokens: result.usage?.prompt_tokens,
        outputTokens: result.usage?.completion_tokens,
      },
    };
  }

  /** §12: the model an inference request without hints would get now. */
  async modelInfo(): Promise<ModelInfo> {
    let provider;
    try {
      provider = this.deps.models.choose(undefined);
    } catch (error) {
      throw wireError(ErrorCode.InternalError, (error as Error).message);
    }
    const described = await provider.describe?.().catch(() => undefined);
    return described
      ? {
          id: described.id,
          vendor: described.vendor,
          ...(described.contextWindow !== undefined
            ? { contextWindow: described.contextWindow }
            : {}),
          capabilities: described.capabilities,
        }
      : { id: provider.label, vendor: provider.id, capabilities: [] };
  }
}

class PolicyRefusal extends Error {}

function numberOr(value: unknown, key: string): number | undefined {
  const found = isRecord(value) ? value[key] : undefined;
  return typeof found === 'number' ? found : undefined;
}

function outcomeOf(error: unknown): string {
  if (error instanceof PolicyRefusal) return 'DENIED';
  if (error instanceof McpError && (error.code === -32001 || error.code === -32003))
    return 'REJECTED';
  return 'FAILURE';
}

function toWireError(error: unknown): unknown {
  if (error instanceof PolicyRefusal) {
    return wireError(ErrorCode.InvalidRequest, error.message);
  }
  if (error instanceof McpError) return error;
  return wireError(
    ErrorCode.InternalError,
    `inference failed: ${error instanceof Error ? error.message : String(error)}`,
  );
}
