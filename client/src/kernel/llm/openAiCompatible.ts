/**
 * A model behind an OpenAI-compatible chat completions endpoint (`POST {base}/chat/completions`):
 * OpenAI itself, Ollama, LM Studio, vLLM, llama.cpp's server… The key comes from secret storage and
 * is sent only as the Authorization header. It completes for servers (sampling, `llm_completion`) and
 * chats with tools for agents (openAiChat.ts).
 */
import { apiKeyFor, type ApiKey } from './endpointKey';
import type { ChatModel, ChatRequest, ChatTurn, MediaKind } from './chatModel';
import type {
  CompletionRequest,
  CompletionResult,
  ModelDescription,
  ModelHints,
  ModelProvider,
} from './modelProvider';
import { openAiChat } from './openAiChat';

export interface OpenAiCompatibleOptions {
  baseUrl: string;
  model: string;
  /** Asked for at each request, for the URL it goes to (endpointKey.ts). */
  apiKey?: ApiKey;
  /** For tests and proxies. */
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** The media the model takes besides text (the endpoint cannot say; the operator does). */
  inputs?: readonly MediaKind[];
}

interface ChatResponse {
  model?: string;
  choices?: { message?: { content?: string | null }; finish_reason?: string }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
  error?: { message?: string };
}

const FINISH: Record<string, string> = { stop: 'endTurn', length: 'maxTokens' };

export class OpenAiCompatibleProvider implements ModelProvider, ChatModel {
  readonly id = 'openai-compatible';

  constructor(private readonly options: OpenAiCompatibleOptions) {}

  get label(): string {
    return `${this.options.model} at ${this.options.baseUrl}`;
  }

  get modelId(): string {
    return this.options.model;
  }

  get inputs(): readonly MediaKind[] {
    return this.options.inputs ?? [];
  }

  /** Agents' turns, with tools, streamed (openAiChat.ts). */
  chat(
    request: ChatRequest,
    signal: AbortSignal,
    onText?: (delta: string) => void,
  ): Promise<ChatTurn> {
    return openAiChat(this.options, request, signal, onText);
  }

  /** Serves any request; a hint naming this model or its provider scores higher. */
  match(hints: ModelHints | undefined): number {
    const model = this.options.model.toLowerCase();
    const named =
      hints?.names?.some((name) => model.includes(name.toLowerCase())) ||
      (hints?.provider &&
        this.options.baseUrl.toLowerCase().includes(hints.provider.toLowerCase()));
    return named ? 2 : 1;
  }

  async describe(): Promise<ModelDescription> {
    let vendor = 'openai-compatible';
    try {
      vendor = new URL(this.options.baseUrl).host;
    } catch {
      // a base URL that does not parse names no vendor
    }
    return { id: this.options.model, vendor, capabilities: ['tools'] };
  }

  async complete(
    request: CompletionRequest,
    signal: AbortSignal,
    onText?: (delta: string) => void,
  ): Promise<CompletionResult> {
    if (onText) return this.completeStreaming(request, signal, onText);
    const messages = [
      ...(request.systemPrompt ? [{ role: 'system', content: request.systemPrompt }] : []),
      ...request.messages,
    ];
    const url = `${this.options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    const apiKey = await apiKeyFor(this.options.apiKey, url);
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 120_000);
    const response = await (this.options.fetch ?? fetch)(url, {
      method: 'POST',
      signal: AbortSignal.any([signal, timeout]),
      headers: {
        'content-type': 'application/json',
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: this.options.model,
        messages,
        max_tokens: request.maxTokens,
        temperature: request.temperature,
        stop: request.stopSequences,
      }),
    });
    const body = (await response.json().catch(() => ({}))) as ChatResponse;
    if (!response.ok)
      throw new Error(
        `the model endpoint answered ${response.status}${body.error?.message ? `: ${body.error.message}` : ''}`,
      );
    const choice = body.choices?.[0];
    if (typeof choice?.message?.content !== 'string')
      throw new Error('the model endpoint answered without a message');
    return {
      content: choice.message.content,
      model: body.model ?? this.options.model,
      stopReason: FINISH[choice.finish_reason ?? ''] ?? choice.finish_reason,
      usage: body.usage
        ? {
            prompt_tokens: body.usage.prompt_tokens,
            completion_tokens: body.usage.completion_tokens,
          }
        : undefined,
    };
  }

  /** A completion streamed through the chat endpoint (openAiChat.ts), without tools. */
  private async completeStreaming(
    request: CompletionRequest,
    signal: AbortSignal,
    onText: (delta: string) => void,
  ): Promise<CompletionResult> {
    const turn = await this.chat(
      {
        messages: [
          ...(request.systemPrompt
            ? [{ role: 'system' as const, content: request.systemPrompt }]
            : []),
          ...request.messages,
        ],
        tools: [],
        maxTokens: request.maxTokens,
        temperature: request.temperature,
      },
      signal,
      onText,
    );
    return {
      content: turn.text,
      model: turn.model,
      stopReason: turn.stopReason,
      usage: turn.usage
        ? {
            prompt_tokens: turn.usage.promptTokens,
            completion_tokens: turn.usage.completionTokens,
          }
        : undefined,
    };
  }
}
