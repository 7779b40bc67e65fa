/**
 * The configured OpenAI-compatible endpoint (`mgp.models.openaiCompatible.url` and `.model`, its key
 * in secret storage) as a VS Code language model (`vscode.lm.registerLanguageModelChatProvider`,
 * vendor `mgp-kernel`): it appears in the chat view's model picker, so @mgp (and any chat) can run on
 * it, with tool calling and streamed answers (kernel/llm/openAiChat.ts).
 */
import * as vscode from 'vscode';
import {
  type ChatMessage,
  type ModelTool,
  openAiChat,
  type OpenAiChatEndpoint,
} from '../../kernel';

export const ENDPOINT_VENDOR = 'mgp-kernel';

function textOf(parts: readonly unknown[]): string {
  return parts
    .map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : ''))
    .join('');
}

/** VS Code's request messages as the endpoint's: tool results become tool messages. */
export function fromVscodeMessages(
  messages: readonly vscode.LanguageModelChatRequestMessage[],
): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const message of messages) {
    const parts = message.content as readonly unknown[];
    if (message.role === vscode.LanguageModelChatMessageRole.Assistant) {
      const toolCalls = parts
        .filter(
          (p): p is vscode.LanguageModelToolCallPart =>
            p instanceof vscode.LanguageModelToolCallPart,
        )
        .map((p) => ({ id: p.callId, name: p.name, arguments: JSON.stringify(p.input ?? {}) }));
      out.push({
        role: 'assistant',
        content: textOf(parts),
        ...(toolCalls.length ? { toolCalls } : {}),
      });
      continue;
    }
    for (const part of parts)
      if (part instanceof vscode.LanguageModelToolResultPart)
        out.push({
          role: 'tool',
          toolCallId: part.callId,
          name: '',
          content: textOf(part.content),
        });
    const text = textOf(parts);
    if (text || !parts.some((p) => p instanceof vscode.LanguageModelToolResultPart))
      out.push({
        role: message.role === vscode.LanguageModelChatMessageRole.User ? 'user' : 'system',
        content: text,
      });
  }
  return out;
}

function parsedInput(text: string): object {
  try {
    const value: unknown = JSON.parse(text || '{}');
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  } catch {
    // kept below
  }
  // VS Code carries tool input as an object: arguments that do not parse are passed on as text.
  return { unparsable_arguments: text };
}

export class EndpointChatProvider implements vscode.LanguageModelChatProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;

  constructor(private readonly endpoint: () => Promise<OpenAiChatEndpoint | undefined>) {}

  /** The settings or the key changed: VS Code asks for the models again. */
  refresh(): void {
    this.changed.fire();
  }

  async provideLanguageModelChatInformation(): Promise<vscode.LanguageModelChatInformation[]> {
    const endpoint = await this.endpoint();
    if (!endpoint) return [];
    return [
      {
        id: endpoint.model,
        name: `${endpoint.model} (MGP endpoint)`,
        family: endpoint.model,
        version: '1',
        detail: endpoint.baseUrl,
        tooltip: `The OpenAI-compatible endpoint of MGP Kernel's settings: ${endpoint.baseUrl}`,
        maxInputTokens: 128_000,
        maxOutputTokens: 8_192,
        capabilities: { toolCalling: true },
      },
    ];
  }

  async provideLanguageModelChatResponse(
    _model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const endpoint = await this.endpoint();
    if (!endpoint)
      throw new Error('no model endpoint is configured (mgp.models.openaiCompatible.url)');
    const abort = new AbortController();
    const listener = token.onCancellationRequested(() => abort.abort());
    try {
      const tools: ModelTool[] = (options.tools ?? []).map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: (tool.inputSchema as Record<string, unknown> | undefined) ?? {
          type: 'object',
        },
      }));
      const turn = await openAiChat(
        endpoint,
        { messages: fromVscodeMessages(messages), tools },
        abort.signal,
        (delta) => progress.report(new vscode.LanguageModelTextPart(delta)),
      );
      for (const call of turn.toolCalls)
        progress.report(
          new vscode.LanguageModelToolCallPart(call.id, call.name, parsedInput(call.arguments)),
        );
    } finally {
      listener.dispose();
    }
  }

  async provideTokenCount(
    _model: vscode.LanguageModelChatInformation,
    text: string | vscode.LanguageModelChatRequestMessage,
  ): Promise<number> {
    const plain = typeof text === 'string' ? text : textOf(text.content as readonly unknown[]);
    return Math.ceil(plain.length / 4);
  }
}

/** Registers the endpoint of the settings as a language model; it follows the settings and the key. */
export function registerEndpointChatProvider(
  endpoint: () => Promise<OpenAiChatEndpoint | undefined>,
  onChange: (listener: () => void) => vscode.Disposable,
): vscode.Disposable[] {
  if (typeof vscode.lm?.registerLanguageModelChatProvider !== 'function') return [];
  const provider = new EndpointChatProvider(endpoint);
  // VS Code asks a vendor for its models lazily: asking once lists the endpoint in the chat view's
  // model picker from the start (else the first chat request finds no model).
  const announce = () => void vscode.lm.selectChatModels({ vendor: ENDPOINT_VENDOR });
  const registration = vscode.lm.registerLanguageModelChatProvider(ENDPOINT_VENDOR, provider);
  announce();
  return [
    registration,
    onChange(() => {
      provider.refresh();
      announce();
    }),
  ];
}
