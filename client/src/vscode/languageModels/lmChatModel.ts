/**
 * A VS Code language model (`vscode.lm`: the model the person picked in the chat view, from Copilot
 * or any provider) as the kernel's agent loop talks to it: the loop's messages as chat messages with
 * tool calls and tool results, its tools as `LanguageModelChatTool`s, and the streamed answer read back
 * as text and tool calls.
 */
import * as vscode from 'vscode';
import type { ChatMessage, ChatModel, ChatRequest, ChatTurn } from '../../kernel';

function parsedInput(text: string): object {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** The loop's messages as VS Code's: instructions as the first user message, tool results grouped. */
export function toVscodeMessages(
  messages: readonly ChatMessage[],
): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  let results: vscode.LanguageModelToolResultPart[] = [];
  const flush = () => {
    if (results.length) out.push(vscode.LanguageModelChatMessage.User(results));
    results = [];
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      results.push(
        new vscode.LanguageModelToolResultPart(message.toolCallId, [
          new vscode.LanguageModelTextPart(message.content),
        ]),
      );
      continue;
    }
    flush();
    if (message.role === 'assistant') {
      const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] = [];
      if (message.content) parts.push(new vscode.LanguageModelTextPart(message.content));
      for (const call of message.toolCalls ?? [])
        parts.push(
          new vscode.LanguageModelToolCallPart(call.id, call.name, parsedInput(call.arguments)),
        );
      out.push(vscode.LanguageModelChatMessage.Assistant(parts));
    } else {
      out.push(vscode.LanguageModelChatMessage.User(message.content));
    }
  }
  flush();
  return out;
}

export class VscodeChatModel implements ChatModel {
  readonly id = 'vscode-lm';

  constructor(
    private readonly model: vscode.LanguageModelChat,
    private readonly justification = 'The @mgp agent runs tools through MGP Kernel for you.',
  ) {}

  get label(): string {
    return `${this.model.name} (${this.model.vendor})`;
  }

  async chat(
    request: ChatRequest,
    signal: AbortSignal,
    onText?: (delta: string) => void,
  ): Promise<ChatTurn> {
    const cancellation = new vscode.CancellationTokenSource();
    const onAbort = () => cancellation.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await this.model.sendRequest(
        toVscodeMessages(request.messages),
        {
          justification: this.justification,
          tools: request.tools.map((tool) => ({
            name: tool.name,
            description: tool.description,
            inputSchema: tool.inputSchema,
          })),
        },
        cancellation.token,
      );
      const turn: ChatTurn = {
        text: '',
        toolCalls: [],
        model: `${this.model.vendor}/${this.model.id}`,
      };
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) {
          turn.text += part.value;
          onText?.(part.value);
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          turn.toolCalls.push({
            id: part.callId,
            name: part.name,
            arguments: JSON.stringify(part.input ?? {}),
          });
        }
      }
      if (signal.aborted) throw new Error('cancelled');
      return turn;
    } finally {
      signal.removeEventListener('abort', onAbort);
      cancellation.dispose();
    }
  }
}
