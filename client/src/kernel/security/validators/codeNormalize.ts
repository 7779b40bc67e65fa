/**
 * Code as its language reads the names in it, before any name is checked:
 * - Python normalises identifiers with NFKC (PEP 3131, Python reference §2.3): `import ｓｕｂｐｒｏｃｅｓｓ`
 *   imports `subprocess`. Identifiers outside strings and comments are normalised here the same way.
 * - JavaScript reads `\u0072` and `\u{72}` in an identifier as the character (ECMAScript §12.7, "Names
 *   and Keywords"): `\u0072equire` is `require`. Those escapes outside strings are decoded here.
 * - A JavaScript computed member key that is a constant expression (string literals with their
 *   escapes, template literals of constants, numbers, `+`, parentheses) is folded:
 *   `x['constr' + 'uctor']` is written `x["constructor"]`, so the checks see the name it reaches.
 *   A key that spells a name at run time from pieces of a dangerous one (`x['constr' + k]`,
 *   `x[String.fromCharCode(…)]`) is reported: what it reaches cannot be read.
 */
import type { CodeFinding } from './codeFinding';
import { lexJavaScript, lexPython, type CodeLanguage } from './codeLexer';

/** Names a computed key may not spell at run time: the ways out of a tokenizer's blocklist. */
const DANGEROUS_NAMES = [
  'constructor',
  '__proto__',
  'prototype',
  'caller',
  'callee',
  'eval',
  'Function',
  'require',
  'mainModule',
  'binding',
  '_linkedBinding',
  'dlopen',
  'process',
  'globalThis',
  'global',
  'getBuiltinModule',
  'child_process',
];
const CHAR_CODES = /\b(?:fromCharCode|fromCodePoint|atob|unescape|decodeURI(?:Component)?)\b/;
const IDENTIFIER_RUN = /[\p{L}\p{N}\p{M}\p{Pc}\u00b7\u0387\u2118\u212e\u309b\u309c]+/gu;

function normalizePython(code: string): string {
  if (/^[\x00-\x7f]*$/.test(code)) return code;
  const { codeOnly } = lexPython(code);
  return code.replace(IDENTIFIER_RUN, (name, at: number) =>
    /[^\x00-\x7f]/.test(name) && codeOnly.startsWith(name, at) ? name.normalize('NFKC') : name,
  );
}

const IDENTIFIER_ESCAPE = /\\u(?:\{([0-9a-fA-F]{1,6})\}|([0-9a-fA-F]{4}))/g;

function decodeIdentifierEscapes(code: string, codeOnly: string): string {
  return code.replace(IDENTIFIER_ESCAPE, (escape, braced: string, four: string, at: number) => {
    if (!codeOnly.startsWith(escape, at)) return escape;
    const point = parseInt(braced ?? four, 16);
    return point <= 0x10ffff ? String.fromCodePoint(point) : escape;
  });
}

const STRING_ESCAPE =
  /\\(?:x([0-9a-fA-F]{2})|u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|([0-7]{1,3})|\r?\n|(.))/gs;
const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  v: '\v',
};

/** The value of a JavaScript string or template body, its escapes decoded. */
function cooked(body: string): string {
  return body.replace(
    STRING_ESCAPE,
    (_m, hex: string, braced: string, four: string, octal: string, other: string) => {
      const code = hex ?? braced ?? four;
      if (code) return String.fromCodePoint(Math.min(parseInt(code, 16), 0x10ffff));
      if (octal) return String.fromCharCode(parseInt(octal, 8));
      if (other !== undefined) return SIMPLE_ESCAPES[other] ?? other;
      return '';
    },
  );
}

const KEY_TOKEN =
  /\s+|(['"])((?:\\[\s\S]|(?!\1)[^\\\n])*)\1|`((?:\\[\s\S]|[^\\`])*)`|\d+(?:\.\d+)?|[+()]/y;

interface KeyReading {
  /** The key's value when it is a constant expression. */
  value?: string;
  /** The string pieces it holds, constant or not. */
  pieces: string[];
}

/** A computed key's expression, folded when it is made of constants only. */
function readKey(text: string): KeyReading {
  const pieces: string[] = [];
  const values: string[] = [];
  let constant = true;
  for (let at = 0; at < text.length && constant;) {
    KEY_TOKEN.lastIndex = at;
    const token = KEY_TOKEN.exec(text);
    if (!token) {
      constant = false;
      break;
    }
    at = KEY_TOKEN.lastIndex;
    const [whole, quote, body, template] = token;
    if (quote) values.push(cooked(body));
    else if (template !== undefined) {
      const folded = foldTemplate(template, pieces);
      if (folded === undefined) constant = false;
      else values.push(folded);
    } else if (/^\d/.test(whole)) values.push(whole);
  }
  pieces.push(...values);
  if (!constant)
    for (const m of text.matchAll(/(['"])((?:\\.|(?!\1).)*)\1/g)) pieces.push(cooked(m[2]));
  return { value: constant && values.length ? values.join('') : undefined, pieces };
}

/** A template's value when each `${…}` in it is a constant; its literal parts go to `pieces`. */
function foldTemplate(body: string, pieces: string[]): string | undefined {
  const parts = body.split(/\$\{((?:[^{}]|\{[^{}]*\})*)\}/);
  let out = '';
  for (let k = 0; k < parts.length; k++) {
    if (k % 2 === 0) {
      pieces.push(cooked(parts[k]));
      out += cooked(parts[k]);
      continue;
    }
    const inner = readKey(parts[k]);
    pieces.push(...inner.pieces);
    if (inner.value === undefined) return undefined;
    out += inner.value;
  }
  return out;
}

/** The index just after the `]` that closes the `[` at `open` in `codeOnly`, or -1. */
function closingBracket(codeOnly: string, open: number): number {
  let depth = 0;
  for (let i = open; i < codeOnly.length; i++) {
    if (codeOnly[i] === '[') depth++;
    else if (codeOnly[i] === ']' && --depth === 0) return i + 1;
  }
  return -1;
}

const MEMBER_BEFORE = /(?:[\w$)\]]|\?\.)\s*$/;

function reachesDangerousName(pieces: string[], text: string): boolean {
  if (CHAR_CODES.test(text)) return true;
  return pieces.some((p) => p !== '' && DANGEROUS_NAMES.some((name) => name.includes(p)));
}

function normalizeJavaScript(source: string, found: CodeFinding[]): string {
  const code = decodeIdentifierEscapes(source, lexJavaScript(source).codeOnly);
  const { codeOnly } = lexJavaScript(code);
  let out = '';
  let copied = 0;
  for (let i = codeOnly.indexOf('['); i >= 0; i = codeOnly.indexOf('[', i + 1)) {
    if (!MEMBER_BEFORE.test(codeOnly.slice(Math.max(0, i - 40), i))) continue;
    const end = closingBracket(codeOnly, i);
    if (end < 0) break;
    const key = code.slice(i + 1, end - 1);
    if (!/['"`]/.test(key) && !CHAR_CODES.test(key)) continue;
    const reading = readKey(key);
    if (reading.value !== undefined) {
      out += `${code.slice(copied, i)}[${JSON.stringify(reading.value)}]`;
      copied = end;
    } else if (reachesDangerousName(reading.pieces, key))
      found.push({
        rule: 'computed_access',
        text: 'Computed member access: a key spelled at run time from pieces of a blocked name',
        index: i,
      });
  }
  return out + code.slice(copied);
}

/** The code with its names as the language reads them, and what could not be read. */
export function normalizeCode(
  code: string,
  language: CodeLanguage,
): { code: string; findings: CodeFinding[] } {
  const findings: CodeFinding[] = [];
  const normal =
    language === 'python' ? normalizePython(code) : normalizeJavaScript(code, findings);
  return { code: normal, findings };
}
