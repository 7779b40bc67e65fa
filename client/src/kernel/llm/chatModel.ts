/**
 * A chat model that can call tools: what the agent loop talks to. The OpenAI-compatible endpoint
 * implements it here; VS Code's language models implement it in the editor. Messages and tool calls
 * are the common shape of both APIs: a tool call's arguments stay the text the model wrote, because a
 * model can write arguments that do not parse, and the loop answers that with an error it can correct.
 */

/** A tool as the model is offered it (its name is one the model's API accepts: `^[a-zA-Z0-9_-]{1,64}$`). */
export interface ModelTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ModelToolCall {
  /** The model's id for the call (a tool result answers it). */
  id: string;
  name: string;
  /** The arguments as the model wrote them: JSON text, perhaps not valid. */
  arguments: string;
}

/** Media a model may take in a user message besides text (MCP sampling's image and audio blocks). */
export type MediaKind = 'image' | 'audio';

export interface MediaPart {
  kind: MediaKind;
  /** Base64, as MCP carries it. */
  data: string;
  mimeType: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string; media?: MediaPart[] }
  | { role: 'assistant'; content: string; toolCalls?: ModelToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError?: boolean };

export interface ChatRequest {
  messages: readonly ChatMessage[];
  tools: readonly ModelTool[];
  /** Whether the model may, must or must not call a tool (default: it may). */
  toolChoice?: 'auto' | 'required' | 'none';
  maxTokens?: number;
  temperature?: number;
  stopSequences?: string[];
}

export interface ChatTurn {
  text: string;
  toolCalls: ModelToolCall[];
  /** The model that answered, as it names itself. */
  model: string;
  stopReason?: string;
  usage?: { promptTokens?: number; completionTokens?: number };
}

export interface ChatModel {
  /** e.g. `openai-compatible`, `vscode-lm`. */
  readonly id: string;
  /** A person-readable name, e.g. "gpt-4o at https://api.openai.com/v1". */
  readonly label: string;
  /** The media it takes besides text; left out: text only. */
  readonly inputs?: readonly MediaKind[];
  /** One turn of the model. `onText` receives the answer's text as it streams, when it does. */
  chat(
    request: ChatRequest,
    signal: AbortSignal,
    onText?: (delta: string) => void,
  ): Promise<ChatTurn>;
}
