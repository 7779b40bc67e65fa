/**
 * Entry of `dist/codeParser.js`: the real parsers the code safety checks read code with at the
 * `strict` and `readonly` levels — npm `acorn` (JavaScript, ESTree), `eslint-scope` (which names a
 * JavaScript program leaves unbound) and `@lezer/python` (a Python grammar). Pure JavaScript, loaded at
 * the first code argument read at those levels (codeParse.ts), so the other bundles do not carry them.
 */
import * as acorn from 'acorn';
import { parser as lezerPython } from '@lezer/python';
import type { Tree } from '@lezer/common';
// eslint-scope ships no types; the little used here is typed in codeParse.ts.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const eslintScope = require('eslint-scope') as { analyze(ast: unknown, options: object): unknown };

export type JsSourceType = 'module' | 'script';

/** The ESTree program of `code`; throws a SyntaxError (with `pos`) when it does not parse. */
export function parseJavaScript(code: string, sourceType: JsSourceType): acorn.Program {
  return acorn.parse(code, {
    ecmaVersion: 'latest',
    sourceType,
    allowHashBang: true,
    allowReturnOutsideFunction: sourceType === 'script',
    allowAwaitOutsideFunction: true,
    ranges: true, // eslint-scope reads `range`
  });
}

/** eslint-scope's analysis of a program parsed above. */
export function analyzeScopes(program: acorn.Program, sourceType: JsSourceType): unknown {
  return eslintScope.analyze(program, {
    ecmaVersion: 2022,
    sourceType,
    fallback: 'iteration',
  });
}

/**
 * Python without error recovery: a parse that meets an error stops there (its cost stays linear,
 * where recovering from a long run of errors is not), and what does not parse is refused anyway.
 */
const strictPython = lezerPython.configure({ strict: true });

/** The syntax tree of Python `code`; throws a SyntaxError ("No parse at N") when it does not parse. */
export function parsePython(code: string): Tree {
  return strictPython.parse(code);
}
