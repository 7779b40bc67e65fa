/**
 * A sampling request and the model's answer as the person reviews them (MCP sampling, human in the
 * loop), the same words in the editor and on the terminal. Everything here is the server's or the
 * model's text: callers show it as untrusted.
 */
import type {
  CreateMessageRequest,
  SamplingMessageContentBlock,
} from '@modelcontextprotocol/sdk/types.js';
import type { SampledAnswer } from './interaction';

type Params = CreateMessageRequest['params'];

const MAX_ARGUMENTS = 400;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** One block as a line: text as it is, a tool call with its arguments, a tool result, media by kind. */
export function blockText(block: SamplingMessageContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'tool_use':
      return `[calls tool ${block.name} with ${clip(JSON.stringify(block.input), MAX_ARGUMENTS)}]`;
    case 'tool_result': {
      const text = (block.content ?? [])
        .map((part) => (part.type === 'text' ? part.text : `[${part.type}]`))
        .join(' ');
      return `[result of ${block.toolUseId}${block.isError ? ' (error)' : ''}: ${clip(text, MAX_ARGUMENTS)}]`;
    }
    default:
      return `[${block.type}, ${block.mimeType}]`;
  }
}

function contentText(content: SampledAnswer['content'] | Params['messages'][number]['content']) {
  return (Array.isArray(content) ? content : [content]).map(blockText).join('\n');
}

/** The last message of the request: what the model is asked now. */
export function lastMessageText(params: Params): string {
  const last = params.messages[params.messages.length - 1];
  return last ? contentText(last.content) : '';
}

/** The tools the request offers the model, with the choice it leaves it; '' when none. */
export function toolsOffered(params: Params): string {
  if (!params.tools?.length) return '';
  const choice = params.toolChoice?.mode ? ` (${params.toolChoice.mode})` : '';
  return `Tools offered${choice}: ${params.tools.map((tool) => tool.name).join(', ')}`;
}

/** The whole request: system prompt, every message with its role, the tools offered, the limit. */
export function requestDetail(params: Params): string {
  const lines = params.systemPrompt ? [`System prompt: ${params.systemPrompt}`, ''] : [];
  for (const message of params.messages)
    lines.push(`${message.role}: ${contentText(message.content)}`);
  if (params.tools?.length) lines.push('', toolsOffered(params));
  lines.push('', `Up to ${params.maxTokens} tokens.`);
  return lines.join('\n');
}

/**
 * The request in short, for a view with room for a line: the system prompt and the message; in a
 * later turn the newest message first (a tool's result, what the model is asked now), then how many
 * came before, since the start of a long request would hide it.
 */
export function requestSummary(params: Params): string[] {
  const [newest] = params.messages.slice(-1);
  if (params.messages.length < 2) {
    const prompt = params.systemPrompt ? [`System prompt: ${params.systemPrompt}`] : [];
    return newest ? [...prompt, `${newest.role}: ${contentText(newest.content)}`] : prompt;
  }
  const earlier = params.messages.length - 1;
  return [
    `${newest.role}: ${contentText(newest.content)}`,
    `after ${earlier} earlier message${earlier === 1 ? '' : 's'}`,
  ];
}

/** The model's answer: its text and the tools it calls. */
export function answerText(result: SampledAnswer): string {
  return contentText(result.content);
}

/** The answer's text replaced by `text`; its tool calls stay as the model made them. */
export function withAnswerText(result: SampledAnswer, text: string): SampledAnswer {
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  const others = blocks.filter((block) => block.type !== 'text');
  if (others.length === 0) return { ...result, content: { type: 'text', text } };
  return {
    ...result,
    content: [...(text ? [{ type: 'text' as const, text }] : []), ...others],
  } as SampledAnswer;
}

/** The answer's own text (no tool calls): what an edit starts from. */
export function answerOwnText(result: SampledAnswer): string {
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  return blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}
