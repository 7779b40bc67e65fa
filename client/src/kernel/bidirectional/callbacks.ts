/**
 * MGP callbacks (§13.4): a server asks during a tool call with `notifications/mgp.callback.request`;
 * the kernel asks the person (confirmation, input, selection, notification) or the model
 * (llm_completion, the MGP form of MCP sampling), honours `timeout_ms`, and answers with
 * `mgp/callback/respond`. Model requests pass access control (§5: agent `server.<id>` on the kernel's
 * `llm_completion`) and the audit trail, like every other use of the operator's credentials.
 */
import type { AccessAnswer } from '../access/accessControl';
import type { ServerSession } from '../connection/service';
import type { AuditSink } from '../audit/auditSink';
import type { Interaction } from '../host/interaction';
import { KERNEL_SERVER_ID } from '../domain/kernelTool';
import type { MgpSessions } from '../mgp/mgpSessions';
import type { ModelTool } from '../llm/chatModel';
import type { CompletionMessage, CompletionRequest, CompletionResult } from '../llm/modelProvider';
import { completionToolCall, completionTools } from './completionTools';
import { CompletionStreams } from './completionStream';
import type { ModelRouter } from '../llm/modelRouter';

export interface CallbackDeps {
  mgp: MgpSessions;
  interaction: Interaction;
  models: ModelRouter;
  audit: AuditSink;
  access: { query(agentId: string, serverId: string, toolName?: string): AccessAnswer };
}

const PERSON_TYPES = new Set(['confirmation', 'input', 'selection', 'notification']);
const DEFAULT_TIMEOUT_MS = 60_000;

/** The access-control identity a server has when it asks the kernel for something (MGP §5). */
export function serverAgentId(serverId: string): string {
  return `server.${serverId}`;
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}

function messagesOf(value: unknown): CompletionMessage[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((m) => {
    const role = (m as { role?: unknown }).role;
    const content = (m as { content?: unknown }).content;
    if (
      (role !== 'system' && role !== 'user' && role !== 'assistant') ||
      typeof content !== 'string'
    )
      return [];
    return [{ role, content }];
  });
}

export class Callbacks {
  private readonly streams: CompletionStreams;

  constructor(private readonly deps: CallbackDeps) {
    this.streams = new CompletionStreams(deps.mgp);
    deps.mgp.on(
      'notifications/mgp.callback.request',
      (session, params) => void this.handle(session, params),
    );
  }

  private async handle(session: ServerSession, params: Record<string, unknown>): Promise<void> {
    const callbackId = typeof params.callback_id === 'string' ? params.callback_id : undefined;
    const type = typeof params.type === 'string' ? params.type : '';
    if (!callbackId) {
      session.log('warning', 'ignored a callback request without callback_id (MGP §13.4)');
      return;
    }
    const timeoutMs =
      typeof params.timeout_ms === 'number' && params.timeout_ms > 0
        ? params.timeout_ms
        : DEFAULT_TIMEOUT_MS;
    const expired = AbortSignal.timeout(timeoutMs);
    try {
      // The server's tool call waits for this answer: its timer stands still meanwhile.
      const response = await session.connection.whileAnswering<unknown>(() =>
        type === 'llm_completion'
          ? this.complete(session, callbackId, params, expired)
          : this.askPerson(session, callbackId, type, params, expired),
      );
      if (type === 'notification' || expired.aborted || response === undefined) return;
      await session.connection.request('mgp/callback/respond', {
        callback_id: callbackId,
        response,
      });
    } catch (error) {
      session.log(
        'warning',
        `callback ${callbackId} (${type}) failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      if (!expired.aborted && type === 'llm_completion') {
        await session.connection
          .request('mgp/callback/respond', {
            callback_id: callbackId,
            response: { error: error instanceof Error ? error.message : String(error) },
          })
          .catch(() => undefined);
      }
    }
  }

  private async askPerson(
    session: ServerSession,
    callbackId: string,
    type: string,
    params: Record<string, unknown>,
    expired: AbortSignal,
  ): Promise<string | undefined> {
    if (!PERSON_TYPES.has(type)) {
      session.log('warning', `ignored a callback of unknown type "${type}" (MGP §13.4)`);
      return undefined;
    }
    const message = typeof params.message === 'string' ? params.message : '';
    return this.deps.interaction.answerCallback({
      serverId: session.id,
      callbackId,
      type: type as 'confirmation',
      message,
      options: strings(params.options),
      expired,
    });
  }

  private async complete(
    session: ServerSession,
    callbackId: string,
    params: Record<string, unknown>,
    expired: AbortSignal,
  ): Promise<Record<string, unknown> | undefined> {
    const agentId = serverAgentId(session.id);
    const access = this.deps.access.query(agentId, KERNEL_SERVER_ID, 'llm_completion');
    const record = (result: string, details: Record<string, unknown>) =>
      this.deps.audit.record({
        event_type: 'dev.mgp-kernel.llm_completion',
        actor: { type: 'server', id: session.id },
        target: { server_id: session.id },
        result,
        details,
      });
    if (access.permission === 'deny') {
      await record('DENIED', { reason: 'access_denied', source: access.source });
      throw new Error(`${agentId} has no access to llm_completion (${access.source})`);
    }
    const tools = completionTools(params.tools);
    const messages = messagesOf(params.messages);
    const system = messages.find((m) => m.role === 'system')?.content;
    const hints = (params.model_hints ?? {}) as {
      provider?: string;
      speed_priority?: number;
      intelligence_priority?: number;
      cost_priority?: number;
    };
    const review = await this.deps.interaction.reviewSampling(
      session.id,
      {
        messages: messages
          .filter((m) => m.role !== 'system')
          .map((m) => ({
            role: m.role as 'user' | 'assistant',
            content: { type: 'text', text: m.content },
          })),
        systemPrompt: system,
        maxTokens: typeof params.max_tokens === 'number' ? params.max_tokens : 1024,
      },
      expired,
    );
    if (review.action === 'reject') {
      await record('REJECTED', { reason: review.reason ?? 'rejected by the user' });
      throw new Error('the user rejected the completion request');
    }
    const reviewed = review.params.messages.map((m) => ({
      role: m.role,
      content: !Array.isArray(m.content) && m.content.type === 'text' ? m.content.text : '',
    }));
    const request: CompletionRequest = {
      messages: [
        ...(review.params.systemPrompt
          ? [{ role: 'system' as const, content: review.params.systemPrompt }]
          : []),
        ...reviewed,
      ],
      maxTokens: review.params.maxTokens,
      hints: {
        provider: hints.provider,
        speedPriority: hints.speed_priority,
        intelligencePriority: hints.intelligence_priority,
        costPriority: hints.cost_priority,
      },
    };
    const toolNames = tools.length ? { tools: tools.map((t) => t.name) } : {};
    const stream =
      params.stream === true ? this.streams.open(session, callbackId, expired) : undefined;
    try {
      const answer = await this.answer(request, tools, stream?.signal ?? expired, stream?.onText);
      await stream?.flushed();
      const streamed = stream?.summary();
      await record('SUCCESS', {
        model: answer.model,
        usage: answer.usage,
        ...toolNames,
        ...streamed,
      });
      return { ...answer, usage: answer.usage ?? {}, ...(streamed && { _mgp: streamed }) };
    } catch (error) {
      if (!stream?.cancelled) throw error;
      await record('CANCELLED', { reason: 'cancelled by the server', ...stream.summary() });
      return undefined;
    } finally {
      if (stream) this.streams.close(session, stream);
    }
  }

  /**
   * The model's answer. With tools (MGP §13.4 `tools`), a chat model is offered them and its tool
   * calls come back as `tool_calls`, for the server to run.
   */
  private async answer(
    request: CompletionRequest,
    tools: ModelTool[],
    expired: AbortSignal,
    onText?: (delta: string) => void,
  ): Promise<Omit<CompletionResult, 'stopReason'> & { tool_calls: unknown[] }> {
    if (tools.length === 0) {
      const completion = await this.deps.models.complete(request, expired, onText);
      return {
        content: completion.content,
        model: completion.model,
        usage: completion.usage,
        tool_calls: [],
      };
    }
    const turn = await this.deps.models
      .chooseChat(request.hints)
      .chat(
        { messages: request.messages, tools, maxTokens: request.maxTokens, toolChoice: 'auto' },
        expired,
        onText,
      );
    return {
      content: turn.text,
      model: turn.model,
      usage: turn.usage && {
        prompt_tokens: turn.usage.promptTokens,
        completion_tokens: turn.usage.completionTokens,
      },
      tool_calls: turn.toolCalls.map(completionToolCall),
    };
  }
}
