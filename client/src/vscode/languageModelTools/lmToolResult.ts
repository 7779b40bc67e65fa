/**
 * A tool's result as a language-model tool returns it: text parts, images and audio as data parts
 * (where this VS Code has `LanguageModelDataPart`; a note naming them otherwise), structured content
 * as JSON, everything cut to the token budget the caller gives (about three characters a token,
 * counted with the model's own tokenizer when it offers one).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as vscode from 'vscode';
import { cutText } from '../../kernel';

interface DataPartClass {
  new (data: Uint8Array, mimeType: string): unknown;
}

/** VS Code's data part, when this version has it (stable after 1.104). */
function dataPart(): DataPartClass | undefined {
  return (vscode as unknown as { LanguageModelDataPart?: DataPartClass }).LanguageModelDataPart;
}

const DEFAULT_MAX_CHARS = 16_000;
const CHARS_PER_TOKEN = 3;

/** The characters of text a result may hold for this invocation. */
export function charBudget(options: vscode.LanguageModelToolInvocationOptions<unknown>): number {
  const tokens = options.tokenizationOptions?.tokenBudget;
  return tokens && tokens > 0
    ? Math.min(DEFAULT_MAX_CHARS, tokens * CHARS_PER_TOKEN)
    : DEFAULT_MAX_CHARS;
}

function textOf(result: CallToolResult): string {
  const texts: string[] = [];
  for (const item of result.content ?? []) {
    if (item.type === 'text') texts.push(item.text);
    else if (item.type === 'resource_link') texts.push(`[resource ${item.uri}]`);
    else if (item.type === 'resource') {
      const resource = item.resource as { uri: string; text?: string };
      texts.push(resource.text ?? `[resource ${resource.uri}]`);
    }
  }
  if (!texts.length && result.structuredContent !== undefined)
    texts.push(JSON.stringify(result.structuredContent, null, 2));
  return texts.join('\n');
}

/** The parts of a tool's result, prefixed by `header` (who answered), within `maxChars` of text. */
export function toolResultParts(
  result: CallToolResult,
  header: string,
  maxChars: number,
): vscode.LanguageModelToolResult {
  const DataPart = dataPart();
  const parts: unknown[] = [];
  const cut = cutText(
    textOf(result) || (result.isError ? 'The tool failed without saying why.' : '(no output)'),
    maxChars,
  );
  parts.push(
    new vscode.LanguageModelTextPart(
      `${header}${result.isError ? ' (the tool reported an error)' : ''}\n${cut.text}`,
    ),
  );
  for (const item of result.content ?? []) {
    if (item.type !== 'image' && item.type !== 'audio') continue;
    const bytes = Buffer.from(item.data, 'base64');
    if (DataPart) parts.push(new DataPart(new Uint8Array(bytes), item.mimeType));
    else
      parts.push(
        new vscode.LanguageModelTextPart(`[${item.type} ${item.mimeType}, ${bytes.length} bytes]`),
      );
  }
  return new vscode.LanguageModelToolResult(parts as vscode.LanguageModelTextPart[]);
}

/** A plain text result (JSON of a kernel answer, a refusal). */
export function textResult(
  text: string,
  maxChars = DEFAULT_MAX_CHARS,
): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([
    new vscode.LanguageModelTextPart(cutText(text, maxChars).text),
  ]);
}
