/**
 * Two views of a piece of Python or JavaScript, same length and offsets as the code, so the code safety
 * checks can tell code from comments and string contents:
 * - `stripped`: comments blanked, strings kept (import names and open modes are read from here);
 * - `codeOnly`: comments and string contents blanked, quotes kept (patterns are searched here, so
 *   `# eval(` and `print("do not eval(this)")` pass).
 * Blanking keeps line breaks, so line-anchored searches still work.
 *
 * Where a string can run code, its contents stay visible: Python f-strings and JavaScript template
 * literals are never blanked (`f"{eval(x)}"` is caught). JavaScript regex literals are read as a whole,
 * so a quote inside one cannot start a fake string that hides the code after it, and their bodies are
 * blanked in `codeOnly` (a regex cannot run anything). A slash after `)`, `]`, `}`, `++` or `--` is read
 * as division, the reading that blanks nothing.
 */

export type CodeLanguage = 'python' | 'javascript';

export interface Literal {
  /** Offset of the opening quote (a Python prefix such as `rb` is before it). */
  start: number;
  value: string;
}

export interface CodeViews {
  language: CodeLanguage;
  stripped: string;
  codeOnly: string;
  /** String literals by the offset of their opening quote. */
  literals: Map<number, Literal>;
}

function blank(chars: string[], from: number, to: number): void {
  for (let i = from; i < to; i++) if (chars[i] !== '\n') chars[i] = ' ';
}

function lineEnd(code: string, from: number): number {
  const eol = code.indexOf('\n', from);
  return eol < 0 ? code.length : eol;
}

interface Span {
  /** Offset just after the closing quote (or where an unterminated string gave up). */
  end: number;
  bodyEnd: number;
}

/** A string closed by `quote` (one or three characters) with backslash escapes; single-line ones end at a newline. */
function closeString(code: string, bodyStart: number, quote: string): Span {
  const multiline = quote.length === 3;
  for (let i = bodyStart; i < code.length; i++) {
    const c = code[i];
    if (c === '\\') i++;
    else if (c === '\n' && !multiline) return { end: i, bodyEnd: i };
    else if (code.startsWith(quote, i)) return { end: i + quote.length, bodyEnd: i };
  }
  return { end: code.length, bodyEnd: code.length };
}

export function lexPython(code: string): CodeViews {
  const stripped = code.split('');
  const codeOnly = code.split('');
  const literals = new Map<number, Literal>();
  for (let i = 0; i < code.length;) {
    const c = code[i];
    if (c === '#') {
      const end = lineEnd(code, i);
      blank(stripped, i, end);
      blank(codeOnly, i, end);
      i = end;
    } else if (c === '"' || c === "'") {
      const prefix = /(?<![\w])[rRbBuUfF]{1,2}$/.exec(code.slice(Math.max(0, i - 3), i))?.[0] ?? '';
      const quote = code.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      const bodyStart = i + quote.length;
      const span = closeString(code, bodyStart, quote);
      if (!/f/i.test(prefix)) {
        blank(codeOnly, bodyStart, span.bodyEnd);
        literals.set(i, { start: i, value: code.slice(bodyStart, span.bodyEnd) });
      }
      i = span.end;
    } else i++;
  }
  return { language: 'python', stripped: stripped.join(''), codeOnly: codeOnly.join(''), literals };
}

const REGEX_AFTER_WORD = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);

function regexAllowed(code: string, at: number): boolean {
  let j = at - 1;
  while (j >= 0 && /\s/.test(code[j])) j--;
  if (j < 0) return true;
  // After `)`, `]`, `}` or `++`/`--` a slash divides; reading it as a regex could blank real code.
  if ((code[j] === '+' || code[j] === '-') && code[j - 1] === code[j]) return false;
  if ('(,=:[!&|?{;~+-*%<>^'.includes(code[j])) return true;
  const word = /[A-Za-z_$][\w$]*$/.exec(code.slice(Math.max(0, j - 11), j + 1));
  return word !== null && REGEX_AFTER_WORD.has(word[0]);
}

/**
 * For each offset of a line, where a regex body starting there would close (the index after the
 * closing slash), or -1. Computed once per line from right to left, so a line full of unclosed `/[`
 * costs linear time, not quadratic.
 */
function regexClosers(
  code: string,
  from: number,
  to: number,
): { outside: Int32Array; inside: Int32Array } {
  const n = to - from;
  const outside = new Int32Array(n + 2).fill(-1);
  const inside = new Int32Array(n + 2).fill(-1);
  for (let k = n - 1; k >= 0; k--) {
    const c = code[from + k];
    if (c === '\\') {
      outside[k] = outside[k + 2];
      inside[k] = inside[k + 2];
    } else {
      outside[k] = c === '/' ? from + k + 1 : c === '[' ? inside[k + 1] : outside[k + 1];
      inside[k] = c === ']' ? outside[k + 1] : inside[k + 1];
    }
  }
  return { outside, inside };
}

interface LineClosers {
  start: number;
  end: number;
  outside: Int32Array;
}

/** The end of a regex literal starting at `at`, or -1 when the line has no closing slash. */
function regexEnd(code: string, at: number, cache: { line?: LineClosers }): number {
  if (!cache.line || at < cache.line.start || at >= cache.line.end) {
    const start = code.lastIndexOf('\n', at) + 1;
    const end = lineEnd(code, at);
    cache.line = { start, end, outside: regexClosers(code, start, end).outside };
  }
  return cache.line.outside[at + 1 - cache.line.start];
}

/** The end of a template literal starting at `at`, stepping over `${…}` with nested strings and templates. */
function templateEnd(code: string, at: number): number {
  for (let i = at + 1; i < code.length; i++) {
    const c = code[i];
    if (c === '\\') i++;
    else if (c === '`') return i + 1;
    else if (c === '$' && code[i + 1] === '{') i = expressionEnd(code, i + 2) - 1;
  }
  return code.length;
}

function expressionEnd(code: string, from: number): number {
  let depth = 1;
  for (let i = from; i < code.length; i++) {
    const c = code[i];
    if (c === '`') i = templateEnd(code, i) - 1;
    else if (c === '"' || c === "'") i = closeString(code, i + 1, c).end - 1;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  return code.length;
}

export function lexJavaScript(code: string): CodeViews {
  const stripped = code.split('');
  const codeOnly = code.split('');
  const literals = new Map<number, Literal>();
  const closers: { line?: LineClosers } = {};
  for (let i = 0; i < code.length;) {
    const c = code[i];
    const next = code[i + 1];
    if (c === '/' && (next === '/' || next === '*')) {
      const end =
        next === '/'
          ? lineEnd(code, i)
          : code.indexOf('*/', i + 2) < 0
            ? code.length
            : code.indexOf('*/', i + 2) + 2;
      blank(stripped, i, end);
      blank(codeOnly, i, end);
      i = end;
    } else if (c === '"' || c === "'") {
      const span = closeString(code, i + 1, c);
      blank(codeOnly, i + 1, span.bodyEnd);
      literals.set(i, { start: i, value: code.slice(i + 1, span.bodyEnd) });
      i = span.end;
    } else if (c === '`') {
      const end = templateEnd(code, i);
      const body = code.slice(i + 1, end - 1);
      if (!body.includes('${')) literals.set(i, { start: i, value: body });
      i = end;
    } else if (c === '/' && regexAllowed(code, i)) {
      const end = regexEnd(code, i, closers);
      if (end > 0) blank(codeOnly, i + 1, code.lastIndexOf('/', end - 1));
      i = end < 0 ? i + 1 : end;
    } else i++;
  }
  return {
    language: 'javascript',
    stripped: stripped.join(''),
    codeOnly: codeOnly.join(''),
    literals,
  };
}

export function lex(code: string, language: CodeLanguage): CodeViews {
  return language === 'python' ? lexPython(code) : lexJavaScript(code);
}

/** The string literal that starts at `index`, after spaces (and a Python prefix such as `r`). */
export function literalAt(views: CodeViews, index: number): Literal | undefined {
  let i = index;
  while (i < views.codeOnly.length && /\s/.test(views.codeOnly[i])) i++;
  if (views.language === 'python') while (/[rRbBuU]/.test(views.codeOnly[i] ?? '')) i++;
  return views.literals.get(i);
}

/** The text between the parentheses that open at `open`, split at top-level commas, with offsets. */
export function callArguments(code: string, open: number): { text: string; index: number }[] {
  const args: { text: string; index: number }[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < Math.min(code.length, open + 4096); i++) {
    const c = code[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    if ((c === ',' && depth === 1) || depth === 0) {
      args.push({ text: code.slice(start, i), index: start });
      if (depth === 0) break;
      start = i + 1;
    }
  }
  return args.filter((a) => a.text.trim() !== '');
}
