/**
 * A tool's result as the model reads it: its text, the other content named in brackets (a text
 * model cannot see an image: it learns one is there), structured content as JSON when there is no
 * text, all cut to the budget with a note saying how much was left out.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface ResultText {
  text: string;
  truncated: boolean;
}

function approximateBytes(base64: string): number {
  return Math.floor((base64.length * 3) / 4);
}

function contentText(item: NonNullable<CallToolResult['content']>[number]): string {
  switch (item.type) {
    case 'text':
      return item.text;
    case 'image':
    case 'audio':
      return `[${item.type} ${item.mimeType}, ${approximateBytes(item.data)} bytes]`;
    case 'resource_link':
      return `[resource ${item.uri}${item.name ? ` "${item.name}"` : ''}]`;
    case 'resource': {
      const resource = item.resource as { uri: string; text?: string; mimeType?: string };
      return typeof resource.text === 'string'
        ? resource.text
        : `[resource ${resource.uri}${resource.mimeType ? ` ${resource.mimeType}` : ''}]`;
    }
    default:
      return `[${(item as { type: string }).type}]`;
  }
}

/** Cuts text to `maxChars`, saying how much was cut. */
export function cutText(text: string, maxChars: number): ResultText {
  if (text.length <= maxChars) return { text, truncated: false };
  const omitted = text.length - maxChars;
  return {
    text: `${text.slice(0, maxChars)}\n[truncated: ${omitted} of ${text.length} characters omitted]`,
    truncated: true,
  };
}

/** The result's text for the model, at most `maxChars` characters of it. */
export function resultText(result: CallToolResult, maxChars: number): ResultText {
  const parts = (result.content ?? []).map(contentText);
  let text = parts.join('\n');
  if (!text && result.structuredContent !== undefined)
    text = JSON.stringify(result.structuredContent);
  if (!text) text = result.isError ? 'The tool failed without saying why.' : '(no output)';
  return cutText(text, maxChars);
}
