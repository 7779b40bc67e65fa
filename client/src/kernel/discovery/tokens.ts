/**
 * Token counting for the context budget (MGP §16.8). A tool's context cost is the number of tokens
 * of its JSON definition as a model receives it: `{"name","description","inputSchema"}`.
 *
 * The default counter is a real BPE tokenizer: OpenAI's cl100k_base (npm `gpt-tokenizer`, ranks
 * included, works offline). Other models tokenize differently; a host that knows its model's
 * tokenizer (VS Code's `LanguageModelChat.countTokens`) passes its own counter.
 *
 * The tokenizer is large, so it is loaded at first use, not imported: the bundles (`dist/extension.js`,
 * `dist/cli.js`) find it as `dist/tokenizer.js` next to themselves (its own bundle, built from
 * cl100k.ts); unbundled code (the tests) finds no such file and requires the package.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { JsonSchemaObject } from './types';

export type TokenCounter = (text: string) => number;

/** Where the cl100k tokenizer was loaded from: its own bundle, the npm package, or neither (then counts are estimated). */
export type TokenizerSource = 'bundle' | 'package' | 'estimate';

/** File name of the tokenizer's bundle, next to the bundle that loads it. */
export const TOKENIZER_BUNDLE = 'tokenizer.js';

interface Cl100k {
  countTokens(text: string): number;
}

let loaded: { count: TokenCounter; source: TokenizerSource } | undefined;

/** About four characters a token: the usual figure for English and JSON under cl100k_base. */
const estimate: TokenCounter = (text) => Math.ceil(text.length / 4);

function loadTokenizer(): { count: TokenCounter; source: TokenizerSource } {
  // Not `require`: a bundler would then pull the package into every bundle that holds this module.
  const load = createRequire(__filename);
  const bundle = join(__dirname, TOKENIZER_BUNDLE);
  try {
    if (existsSync(bundle))
      return { count: (load(bundle) as Cl100k).countTokens, source: 'bundle' };
    return {
      count: (load('gpt-tokenizer/encoding/cl100k_base') as Cl100k).countTokens,
      source: 'package',
    };
  } catch {
    return { count: estimate, source: 'estimate' };
  }
}

/** Where the tokenizer comes from (loads it if it was not yet). */
export function tokenizerSource(): TokenizerSource {
  return (loaded ??= loadTokenizer()).source;
}

/** cl100k_base token count (the tokenizer is loaded on the first call). */
export const cl100kTokens: TokenCounter = (text) => (loaded ??= loadTokenizer()).count(text);

export interface ToolDefinition {
  name: string;
  description?: string;
  inputSchema?: JsonSchemaObject;
}

/** The JSON a model's tool list carries for one tool. */
export function toolDefinitionJson(tool: ToolDefinition): string {
  return JSON.stringify({
    name: tool.name,
    description: tool.description ?? '',
    inputSchema: tool.inputSchema ?? { type: 'object' },
  });
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
