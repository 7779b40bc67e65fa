/**
 * Parses command lines with tree-sitter's Bash grammar (shellGrammar.ts). The grammar and its runtime
 * are WebAssembly, loaded once at the first command: the bundles find `dist/shellParser.js` and the
 * .wasm files next to themselves; unbundled code (the tests) loads shellGrammar.js beside this module
 * and the .wasm files from the npm packages.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ShellTree, WasmFiles } from './shellGrammar';

export const SHELL_PARSER_BUNDLE = 'shellParser.js';
export const SHELL_WASM_FILES = ['tree-sitter.wasm', 'tree-sitter-bash.wasm'] as const;

/** Longer command lines are not parsed: the sandbox refuses them (no command a tool runs needs more). */
export const MAX_PARSED_COMMAND = 64 * 1024;

/**
 * How long one parse may take. Error recovery on hostile lines (a flood of `>`) grows with the square
 * of their length; a line not read within this is refused, never waited for.
 */
export const PARSE_BUDGET_MS = 1000;

interface BashParser {
  parse(
    text: string,
    old?: null,
    options?: { progressCallback?: (state: unknown) => boolean },
  ): ShellTree | null;
  reset(): void;
}

interface Grammar {
  loadBashParser(files: WasmFiles): Promise<BashParser>;
}

let parser: Promise<BashParser> | undefined;

function load(): Promise<BashParser> {
  // Not `import`: a bundler would then pull the grammar's runtime into every bundle holding this module.
  const require = createRequire(__filename);
  const bundle = join(__dirname, SHELL_PARSER_BUNDLE);
  if (existsSync(bundle)) {
    const [runtime, grammar] = SHELL_WASM_FILES.map((f) => join(__dirname, f));
    return (require(bundle) as Grammar).loadBashParser({ runtime, grammar });
  }
  return (require('./shellGrammar') as Grammar).loadBashParser({
    runtime: require.resolve('web-tree-sitter/tree-sitter.wasm'),
    grammar: require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'),
  });
}

/**
 * The syntax tree of `text` (the caller must `delete()` it), or no tree when the parse ran past
 * `budgetMs`. A backslash-newline is removed first, as the shell does before it reads words (POSIX
 * 2.2.1), except inside single quotes; the tree's offsets are then those of the joined text, which is
 * returned with it.
 */
export async function parseShell(
  text: string,
  budgetMs = PARSE_BUDGET_MS,
): Promise<{ tree: ShellTree | undefined; text: string }> {
  parser ??= load();
  const joined = joinContinuations(text);
  const bash = await parser;
  const deadline = performance.now() + budgetMs;
  const tree = bash.parse(joined, null, { progressCallback: () => performance.now() > deadline });
  if (!tree) bash.reset();
  return { tree: tree ?? undefined, text: joined };
}

/** `rm -r\<newline>f` → `rm -rf`: line continuations removed outside single quotes. */
export function joinContinuations(text: string): string {
  if (!text.includes('\\\n') && !text.includes('\\\r\n')) return text;
  let out = '';
  let single = false;
  let double = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'" && !double) single = !single;
    else if (c === '"' && !single) double = !double;
    else if (c === '\\' && !single) {
      const rest = text.startsWith('\r\n', i + 1) ? 2 : text[i + 1] === '\n' ? 1 : 0;
      if (rest) {
        i += rest;
        continue;
      }
      out += c + (text[i + 1] ?? '');
      i++;
      continue;
    }
    out += c;
  }
  return out;
}
