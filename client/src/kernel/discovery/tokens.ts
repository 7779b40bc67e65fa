/**
 * Token counting for the context budget (MGP §16.8). A tool's context cost is the number of tokens
 * of its JSON definition as a model receives it: `{"name","description","inputSchema"}`.
 *
 * The default counter is a real BPE tokenizer: OpenAI's cl100k_base (npm `gpt-tokenizer`, ranks
 * bundled, works offline). Other models tokenize differently; a host that knows its model's
 * tokenizer (VS Code's `LanguageModelChat.countTokens`) passes its own counter.
 */
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import type { JsonSchemaObject } from './types';

export type TokenCounter = (text: string) => number;

/** cl100k_base token count. */
export const cl100kTokens: TokenCounter = (text) => countTokens(text);

export interface ToolDefinition {
  name: string;
  description?: string;
  inputSchema?: JsonSchemaObject;
}

/** The JSON a model's tool list carries for one tool. */
export function toolDefinitionJson(tool: ToolDefinition): string {
  return JSON.stringify({ name: tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema ?? { type: 'object' } });
}

const cache = new WeakMap<object, { counter: TokenCounter; tokens: number }>();

/** Tokens of a tool's definition; cached per tool object and counter. */
export function toolTokens(tool: ToolDefinition, counter: TokenCounter = cl100kTokens): number {
  const hit = cache.get(tool);
  if (hit && hit.counter === counter) return hit.tokens;
  const tokens = counter(toolDefinitionJson(tool));
  cache.set(tool, { counter, tokens });
  return tokens;
}
