/**
 * How deep a syntax tree goes, measured with a cursor (no recursion), so that the judges, which
 * recurse once per level, are never handed a tree deep enough to exhaust the stack. CPython itself
 * refuses code nested this deep ("too many nested parentheses" beyond 200 brackets, a recursion
 * error in its compiler for deeper expressions): no program that runs is refused.
 */
import type { Tree } from '@lezer/common';

/** Deeper than any program people write, and well within the stack of one judge. */
export const MAX_SYNTAX_DEPTH = 1000;

/** Where the tree first goes deeper than `limit` levels, or undefined when it never does. */
export function tooDeepAt(tree: Tree, limit = MAX_SYNTAX_DEPTH): number | undefined {
  const cursor = tree.cursor();
  let depth = 0;
  for (;;) {
    if (depth > limit) return cursor.from;
    if (cursor.firstChild()) {
      depth++;
      continue;
    }
    while (!cursor.nextSibling()) {
      if (!cursor.parent()) return undefined;
      depth--;
    }
  }
}

/** CPython's tokenizer refuses more brackets open at once than this ("too many nested parentheses"). */
export const PYTHON_MAX_BRACKETS = 200;

/**
 * Where more than `limit` brackets are first open at once in `codeOnly` (comments and string
 * contents blanked, codeLexer.ts), or undefined. Read before parsing: deep nesting is where a
 * parser's error recovery costs the most.
 */
export function bracketsTooDeepAt(codeOnly: string, limit: number): number | undefined {
  let open = 0;
  for (let i = 0; i < codeOnly.length; i++) {
    const c = codeOnly.charCodeAt(i);
    if (c === 0x28 || c === 0x5b || c === 0x7b) {
      if (++open > limit) return i;
    } else if (c === 0x29 || c === 0x5d || c === 0x7d) open = Math.max(0, open - 1);
  }
  return undefined;
}
