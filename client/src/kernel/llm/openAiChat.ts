/**
 * Tool calling over an OpenAI-compatible chat completions endpoint (`POST {base}/chat/completions`
 * with `tools`): the request, and the answer streamed as server-sent events (`stream: true`), or as
 * one JSON body from endpoints that do not stream. A model that floods is cut off at a size limit,
 * and one that answers nonsense gets a clear error.
 */
import { apiKeyFor, type ApiKey } from './endpointKey';
import type { ChatMessage, ChatRequest, ChatTurn, MediaPart, ModelToolCall } from './chatModel';

export interface OpenAiChatEndpoint {
  baseUrl: string;
  model: string;
  /** Asked for at each request, for the URL it goes to (endpointKey.ts). */
  apiKey?: ApiKey;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** The most characters of text and arguments one answer may hold (default 1,000,000). */
  maxAnswerChars?: number;
}

interface WireToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

interface WireChoice {
  message?: { content?: string | null; tool_calls?: WireToolCall[] };
  delta?: { content?: string | null; tool_calls?: WireToolCall[] };
  finish_reason?: string | null;
}

interface WireAnswer {
  model?: string;
  choices?: WireChoice[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
  error?: { message?: string };
}

const FINISH: Record<string, string> = {
  stop: 'endTurn',
  length: 'maxTokens',
  tool_calls: 'toolUse',
};

/** Audio formats the chat API names (`input_audio.format`), by MIME type. */
const AUDIO_FORMATS: Record<string, string> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
};

/** A user message with media: content parts (text, `image_url` as a data: URL, `input_audio`). */
function wireParts(text: string, media: readonly MediaPart[]): Record<string, unknown>[] {
  return [
    ...(text ? [{ type: 'text', text }] : []),
    ...media.map((part) =>
      part.kind === 'image'
        ? { type: 'image_url', image_url: { url: `data:${part.mimeType};base64,${part.data}` } }
        : {
            type: 'input_audio',
            input_audio: { data: part.data, format: AUDIO_FORMATS[part.mimeType] ?? 'wav' },
          },
    ),
  ];
}

function wireMessage(message: ChatMessage): Record<string, unknown> {
  switch (message.role) {
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content || null,
        ...(message.toolCalls?.length
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: call.arguments },
              })),
            }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'user':
      return {
        role: 'user',
        content: message.media?.length
          ? wireParts(message.content, message.media)
          : message.content,
      };
    default:
      return { role: message.role, content: message.content };
  }
}

function requestBody(endpoint: OpenAiChatEndpoint, request: ChatRequest): string {
  return JSON.stringify({
    model: endpoint.model,
    messages: request.messages.map(wireMessage),
    ...(request.tools.length
      ? {
          tools: request.tools.map((tool) => ({
            type: 'function',
            function: {
              name: tool.name,
              description: tool.description,
              parameters: tool.inputSchema,
            },
          })),
          ...(request.toolChoice ? { tool_choice: request.toolChoice } : {}),
        }
      : {}),
    max_tokens: request.maxTokens,
    temperature: request.temperature,
    ...(request.stopSequences?.length ? { stop: request.stopSequences } : {}),
    stream: true,
  });
}

/** Assembles an answer from whole messages or streamed deltas, within a size limit. */
class AnswerBuilder {
  text = '';
  model?: string;
  stopReason?: string;
  usage?: ChatTurn['usage'];
  private readonly calls: { id?: string; name: string; arguments: string }[] = [];
  private size = 0;

  constructor(
    private readonly maxChars: number,
    private readonly onText?: (delta: string) => void,
  ) {}

  private grow(by: number): void {
    this.size += by;
    if (this.size > this.maxChars)
      throw new Error(`the model's answer exceeds ${this.maxChars} characters`);
  }

  take(answer: WireAnswer): void {
    if (answer.error?.message)
      throw new Error(`the model endpoint failed: ${answer.error.message}`);
    this.model ??= answer.model;
    if (answer.usage)
      this.usage = {
        promptTokens: answer.usage.prompt_tokens,
        completionTokens: answer.usage.completion_tokens,
      };
    const choice = answer.choices?.[0];
    if (!choice) return;
    const part = choice.delta ?? choice.message ?? {};
    if (typeof part.content === 'string' && part.content) {
      this.grow(part.content.length);
      this.text += part.content;
      this.onText?.(part.content);
    }
    for (const [position, call] of (part.tool_calls ?? []).entries()) this.takeCall(call, position);
    if (choice.finish_reason)
      this.stopReason = FINISH[choice.finish_reason] ?? choice.finish_reason;
  }

  private takeCall(call: WireToolCall, position: number): void {
    const at = typeof call.index === 'number' ? call.index : position;
    if (at < 0 || at > 128) throw new Error('the model answered a tool call with a wrong index');
    const held = (this.calls[at] ??= { name: '', arguments: '' });
    if (call.id) held.id = call.id;
    const name = call.function?.name ?? '';
    const args = call.function?.arguments ?? '';
    this.grow(name.length + args.length);
    held.name += name;
    held.arguments += args;
  }

  turn(fallbackModel: string): ChatTurn {
    const toolCalls: ModelToolCall[] = this.calls
      .filter((call) => call !== undefined)
      .map((call, i) => ({
        id: call.id ?? `call_${i + 1}`,
        name: call.name,
        arguments: call.arguments,
      }));
    return {
      text: this.text,
      toolCalls,
      model: this.model ?? fallbackModel,
      stopReason: this.stopReason,
      usage: this.usage,
    };
  }
}

/** The endpoint as it may be shown: no user, password or query (a key may sit in either). */
function withoutSecrets(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  } catch {
    return 'at the configured address';
  }
}

/** fetch's "fetch failed" in words: where, and why (its cause: ECONNREFUSED, ENOTFOUND…). */
function unreachable(baseUrl: string, error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted || !(error instanceof TypeError)) return error;
  const cause = error.cause as { code?: string; message?: string } | undefined;
  const why = cause?.code ?? cause?.message ?? error.message;
  return new Error(`the model endpoint ${withoutSecrets(baseUrl)} cannot be reached (${why})`);
}

/** Reads `data:` lines of a server-sent event stream, JSON each, until `[DONE]` or the end. */
async function readEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: (answer: WireAnswer) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  let pending = '';
  const line = (text: string): boolean => {
    if (!text.startsWith('data:')) return false;
    const data = text.slice(5).trim();
    if (data === '[DONE]') return true;
    let parsed: WireAnswer;
    try {
      parsed = JSON.parse(data) as WireAnswer;
    } catch {
      throw new Error('the model endpoint streamed an event that is not JSON');
    }
    onEvent(parsed);
    return false;
  };
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    pending += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = pending.indexOf('\n')) >= 0) {
      const text = pending.slice(0, end).replace(/\r$/, '');
      pending = pending.slice(end + 1);
      if (line(text)) return;
    }
  }
  line(pending.trim());
}

/** One turn of the model behind the endpoint. */
export async function openAiChat(
  endpoint: OpenAiChatEndpoint,
  request: ChatRequest,
  signal: AbortSignal,
  onText?: (delta: string) => void,
): Promise<ChatTurn> {
  const url = `${endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const apiKey = await apiKeyFor(endpoint.apiKey, url);
  const timeout = AbortSignal.timeout(endpoint.timeoutMs ?? 120_000);
  const response = await (endpoint.fetch ?? fetch)(url, {
    method: 'POST',
    signal: AbortSignal.any([signal, timeout]),
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream, application/json',
      ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    },
    body: requestBody(endpoint, request),
  }).catch((error: unknown) => {
    throw unreachable(endpoint.baseUrl, error, signal);
  });
  const builder = new AnswerBuilder(endpoint.maxAnswerChars ?? 1_000_000, onText);
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || !type.includes('text/event-stream') || !response.body) {
    const answer = (await response.json().catch(() => ({}))) as WireAnswer;
    if (!response.ok)
      throw new Error(
        `the model endpoint answered ${response.status}${answer.error?.message ? `: ${answer.error.message}` : ''}`,
      );
    builder.take(answer);
    if (!answer.choices?.length) throw new Error('the model endpoint answered without a message');
  } else {
    await readEvents(response.body, (event) => builder.take(event));
  }
  return builder.turn(endpoint.model);
}
