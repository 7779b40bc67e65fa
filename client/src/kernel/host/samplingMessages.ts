/**
 * Sampling with tools (MCP 2025-11-25, sampling): a `sampling/createMessage` request as one turn of a
 * chat model that calls tools, and the model's turn back as the result. `tool_use` blocks of the
 * assistant become the model's tool calls and `tool_result` blocks of the user its tool messages;
 * images and audio go only to a model that takes them, and anything else is refused with a reason.
 */
import {
  ErrorCode,
  McpError,
  type CreateMessageRequest,
  type CreateMessageResultWithTools,
  type SamplingMessageContentBlock,
  type ToolResultContent,
  type ToolUseContent,
} from '@modelcontextprotocol/sdk/types.js';
import type {
  ChatMessage,
  ChatRequest,
  ChatTurn,
  MediaKind,
  MediaPart,
  ModelToolCall,
} from '../llm/chatModel';

type Params = CreateMessageRequest['params'];
type Message = Params['messages'][number];

/** What the model the request goes to takes, for the refusals' wording. */
export interface ModelInputs {
  label: string;
  inputs: readonly MediaKind[];
}

const blocksOf = (message: Message): SamplingMessageContentBlock[] =>
  Array.isArray(message.content) ? message.content : [message.content];

/** Whether the request needs a chat model: tools offered, or anything but text in its messages. */
export function needsChatModel(params: Params): boolean {
  return (
    Boolean(params.tools?.length) ||
    params.messages.some((message) => blocksOf(message).some((block) => block.type !== 'text'))
  );
}

/** A tool result's content as the text a model reads (its structured content when it has no text). */
function toolResultText(block: ToolResultContent): string {
  const parts = (block.content ?? []).map((part) => {
    if (part.type === 'text') return part.text;
    if (part.type === 'resource_link') return `[resource ${part.uri}]`;
    if (part.type === 'resource') return `[resource ${part.resource.uri}]`;
    return `[${part.type}]`;
  });
  if (!parts.some((part) => part.trim()) && block.structuredContent !== undefined)
    return JSON.stringify(block.structuredContent);
  return parts.join('\n');
}

function refuse(message: string): never {
  throw new McpError(ErrorCode.InvalidParams, message);
}

function mediaOf(block: SamplingMessageContentBlock, model: ModelInputs): MediaPart {
  if (block.type !== 'image' && block.type !== 'audio')
    refuse(`a sampling message cannot hold a ${block.type} block here`);
  if (!model.inputs.includes(block.type))
    refuse(
      `the model ${model.label} does not take ${block.type === 'image' ? 'images' : 'audio'}; the request was not sent`,
    );
  return { kind: block.type, data: block.data, mimeType: block.mimeType };
}

function assistantMessage(blocks: SamplingMessageContentBlock[]): ChatMessage {
  const text: string[] = [];
  const toolCalls: ModelToolCall[] = [];
  for (const block of blocks) {
    if (block.type === 'text') text.push(block.text);
    else if (block.type === 'tool_use')
      toolCalls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input) });
    else refuse(`an assistant message cannot be sent to the model with a ${block.type} block`);
  }
  return {
    role: 'assistant',
    content: text.join('\n'),
    ...(toolCalls.length ? { toolCalls } : {}),
  };
}

/** A user message: its tool results first (they answer the turn before), then its text and media. */
function userMessages(
  blocks: SamplingMessageContentBlock[],
  toolNames: Map<string, string>,
  model: ModelInputs,
): ChatMessage[] {
  const results: ChatMessage[] = blocks
    .filter((block): block is ToolResultContent => block.type === 'tool_result')
    .map((block) => ({
      role: 'tool',
      toolCallId: block.toolUseId,
      name: toolNames.get(block.toolUseId) ?? '',
      content: toolResultText(block),
      ...(block.isError ? { isError: true } : {}),
    }));
  const rest = blocks.filter((block) => block.type !== 'tool_result');
  if (rest.length === 0) return results;
  const text = rest.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
  const media = rest.filter((block) => block.type !== 'text').map((b) => mediaOf(b, model));
  return [...results, { role: 'user', content: text, ...(media.length ? { media } : {}) }];
}

/** The request as one chat turn: the system prompt, the messages, the tools and the tool choice. */
export function chatRequestOf(params: Params, model: ModelInputs): ChatRequest {
  const messages: ChatMessage[] = params.systemPrompt
    ? [{ role: 'system', content: params.systemPrompt }]
    : [];
  const toolNames = new Map<string, string>();
  for (const message of params.messages) {
    const blocks = blocksOf(message);
    for (const block of blocks) if (block.type === 'tool_use') toolNames.set(block.id, block.name);
    if (message.role === 'assistant') messages.push(assistantMessage(blocks));
    else messages.push(...userMessages(blocks, toolNames, model));
  }
  return {
    messages,
    tools: (params.tools ?? []).map((tool) => ({
      name: tool.name,
      description: tool.description ?? '',
      inputSchema: tool.inputSchema as Record<string, unknown>,
    })),
    toolChoice: params.toolChoice?.mode,
    maxTokens: params.maxTokens,
    temperature: params.temperature,
    stopSequences: params.stopSequences,
  };
}

function toolUseOf(call: ModelToolCall): ToolUseContent {
  let input: unknown;
  try {
    input = JSON.parse(call.arguments || '{}');
  } catch {
    input = undefined;
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new McpError(
      ErrorCode.InternalError,
      `the model called ${call.name} with arguments that are not a JSON object`,
    );
  return {
    type: 'tool_use',
    id: call.id,
    name: call.name,
    input: input as Record<string, unknown>,
  };
}

/** The model's turn as the result: its text, and a `tool_use` block per tool it called. */
export function samplingResultOf(turn: ChatTurn): CreateMessageResultWithTools {
  if (turn.toolCalls.length === 0)
    return {
      role: 'assistant',
      content: { type: 'text', text: turn.text },
      model: turn.model,
      stopReason: turn.stopReason ?? 'endTurn',
    };
  const blocks = [
    ...(turn.text ? [{ type: 'text' as const, text: turn.text }] : []),
    ...turn.toolCalls.map(toolUseOf),
  ];
  return { role: 'assistant', content: blocks, model: turn.model, stopReason: 'toolUse' };
}
