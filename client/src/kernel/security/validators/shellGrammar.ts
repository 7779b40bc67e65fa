/**
 * Entry of `dist/shellParser.js`: the Bash grammar of tree-sitter (npm `tree-sitter-bash`, run by npm
 * `web-tree-sitter`, both WebAssembly, no native module). Loaded at the first command the sandbox
 * validator reads (shellParse.ts), with the two .wasm files found where the caller says.
 */
import type { Parser as ParserType } from 'web-tree-sitter';

export type { Node as ShellNode, Tree as ShellTree } from 'web-tree-sitter';

// Its CommonJS build: the ES module build finds its files through import.meta.url, which a CommonJS
// bundle does not have.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Language, Parser } = require('web-tree-sitter') as typeof import('web-tree-sitter');

export interface WasmFiles {
  /** web-tree-sitter's runtime, `tree-sitter.wasm`. */
  runtime: string;
  /** The Bash grammar, `tree-sitter-bash.wasm`. */
  grammar: string;
}

export async function loadBashParser(files: WasmFiles): Promise<ParserType> {
  await Parser.init({ locateFile: () => files.runtime });
  const bash = await Language.load(files.grammar);
  const parser = new Parser();
  parser.setLanguage(bash);
  return parser;
}
