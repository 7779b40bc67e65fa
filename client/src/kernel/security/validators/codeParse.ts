/**
 * Loads the code parsers (codeGrammar.ts) at the first code argument the `strict` and `readonly`
 * levels read: the bundles find `dist/codeParser.js` next to themselves; unbundled code (the tests)
 * loads codeGrammar.js beside this module. Synchronous: the parsers are pure JavaScript.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Program } from 'acorn';
import type { Tree } from '@lezer/common';
import type { JsSourceType } from './codeGrammar';

export const CODE_PARSER_BUNDLE = 'codeParser.js';

/** What the kernel reads of eslint-scope's analysis. */
export interface JsScopeVariable {
  name: string;
  defs: {
    type: string;
    node: { type: string; id?: unknown; init?: unknown };
    parent?: { type: string } | null;
  }[];
  references: JsScopeReference[];
}
export interface JsScopeReference {
  identifier: { type: 'Identifier'; name: string; start: number; end: number };
  resolved: JsScopeVariable | null;
  writeExpr?: unknown;
  isWrite(): boolean;
}
export interface JsScope {
  type: string;
  through: JsScopeReference[];
  references: JsScopeReference[];
  childScopes: JsScope[];
  variables: JsScopeVariable[];
  set: Map<string, JsScopeVariable>;
}
export interface JsScopeManager {
  globalScope: JsScope;
}

interface Grammar {
  parseJavaScript(code: string, sourceType: JsSourceType): Program;
  analyzeScopes(program: Program, sourceType: JsSourceType): JsScopeManager;
  /** Throws a SyntaxError ("No parse at N") when the code does not parse. */
  parsePython(code: string): Tree;
}

let grammar: Grammar | undefined;

export function codeGrammar(): Grammar {
  if (grammar) return grammar;
  // Not `import`: a bundler would then pull the parsers into every bundle holding this module.
  const load = createRequire(__filename);
  const bundle = join(__dirname, CODE_PARSER_BUNDLE);
  grammar = load(existsSync(bundle) ? bundle : './codeGrammar') as Grammar;
  return grammar;
}
