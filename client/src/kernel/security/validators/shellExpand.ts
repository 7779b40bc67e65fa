/**
 * Expands one word of a parsed command line (shellParse.ts) the way Bash would before running it
 * (Bash manual §3.5): quotes removed, `$'…'` escapes decoded, brace expansion (`{rm,-rf,x}`,
 * `{1..3}`), `$IFS` in any form as a field separator when unquoted (`rm$IFS-rf$IFS/`), `$HOME` as `~`,
 * and HOME's operators as Bash applies them to a set variable (`${HOME:?}`, `${HOME:-x}` → `~`).
 * What cannot be known before run time — other variables, other operators, command substitution — is
 * kept as written and marked unknown, so the judge can refuse rather than guess; a write target with
 * such a piece is judged with the piece as each value it may plausibly take (`worst`).
 */
import type { ShellNode } from './shellGrammar';

export interface Expanded {
  text: string;
  /** Offset of the word in the text that was parsed. */
  index: number;
  /** Some of it was quoted (a nested command line is read only from a quoted or single word). */
  quoted: boolean;
  /** Some of it is only known at run time (a variable, a command's output). */
  unknown: boolean;
  /** An unquoted `*`, `?` or `[`: the shell replaces the word with the file names it matches. */
  glob?: boolean;
  /** When unknown: the text with each unknown piece read as `~`, as `/`, and as the default it names. */
  worst?: string[];
}

/** One character of a word: `free` characters are unquoted literal text, subject to brace expansion. */
interface Ch {
  /** One character, or the whole text of an unknown piece. */
  c: string;
  free: boolean;
  unknown?: boolean;
  /** For an unknown piece: the value its operator names (`${X:-/etc/x}` → `/etc/x`). */
  fallback?: string;
  /** An unquoted `$IFS`: it separates fields. */
  split?: boolean;
}

/** More fields than this from one word is refused as an expansion bomb. */
export const MAX_FIELDS = 512;

export class ExpansionError extends Error {}

const chars = (text: string, free: boolean, unknown = false): Ch[] =>
  [...text].map((c) => ({ c, free, unknown }));

const DQ_ESCAPE = /\\([$`"\\])/g;

function decodeAnsiC(body: string): string {
  return body.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/g,
    (_, e: string) => {
      const simple: Record<string, string> = {
        n: '\n',
        t: '\t',
        r: '\r',
        a: '\x07',
        b: '\b',
        e: '\x1b',
        E: '\x1b',
        f: '\f',
        v: '\v',
      };
      if (e in simple) return simple[e];
      if (/^[xuU]/.test(e)) return String.fromCodePoint(parseInt(e.slice(1), 16) % 0x110000);
      if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8) & 0xff);
      if (e[0] === 'c') return String.fromCharCode(e.charCodeAt(1) & 0x1f);
      return e;
    },
  );
}

/** An unknown piece: one entry holding its whole text, so a judge can read it as a value it may take. */
const unknownPiece = (text: string, fallback?: string): Ch[] => [
  { c: text, free: false, unknown: true, fallback },
];

/** Operators that give HOME's value when HOME is set and not empty (Bash manual §3.5.3). */
const VALUE_OPERATORS = new Set([':-', '-', ':=', '=', ':?', '?']);
/** Operators that give their word when the variable is set (and, with `:`, not empty). */
const ALTERNATE_OPERATORS = new Set([':+', '+']);
/** Operators whose word is the value when the variable is unset or empty. */
const DEFAULT_OPERATORS = new Set([':-', '-', ':=', '=']);

function parameter(node: ShellNode, quoted: boolean, found: (n: ShellNode) => void): Ch[] {
  if (node.type === 'simple_expansion') {
    const name = node.namedChildren[0]?.text ?? '';
    if (name === 'IFS') return [{ c: ' ', free: false, split: !quoted }];
    return name === 'HOME' ? chars('~', false) : unknownPiece(node.text);
  }
  // `${`, an optional `#` or `!`, the name, then an operator and its word, then `}`.
  const inside = node.children.slice(1, -1).filter((c): c is ShellNode => !!c);
  const nameAt = inside.findIndex((c) => c.type === 'variable_name');
  const name = nameAt >= 0 ? inside[nameAt].text : '';
  // Any part of IFS (${IFS:0:1}, ${IFS%?}…) is whitespace or nothing.
  if (name === 'IFS' || /^\$\{[#!]?IFS\b/.test(node.text))
    return [{ c: ' ', free: false, split: !quoted }];
  if (nameAt !== 0) return unknownPiece(node.text);
  const operator = inside[1] && !inside[1].isNamed ? inside[1].text : '';
  const word = inside.slice(operator ? 2 : 1);
  const operand = () =>
    word.flatMap((c) => (c.isNamed ? piece(c, quoted, found) : chars(c.text, false)));
  if (name === 'HOME') {
    if (!operator && word.length === 0) return chars('~', false);
    if (VALUE_OPERATORS.has(operator)) return chars('~', false);
    if (ALTERNATE_OPERATORS.has(operator)) return operand();
  }
  const fallback =
    DEFAULT_OPERATORS.has(operator) || ALTERNATE_OPERATORS.has(operator)
      ? operand()
          .map((c) => c.c)
          .join('')
      : undefined;
  return unknownPiece(node.text, fallback);
}

/** The characters of a double-quoted string: literal stretches between its expansions. */
function doubleQuoted(node: ShellNode, found: (n: ShellNode) => void): Ch[] {
  const text = node.text;
  const base = node.startIndex;
  const out: Ch[] = [];
  let at = text.startsWith('$"') ? 2 : 1;
  const end = text.length - 1;
  for (const child of node.namedChildren) {
    if (!child || child.type === 'string_content') continue;
    out.push(...chars(text.slice(at, child.startIndex - base).replace(DQ_ESCAPE, '$1'), false));
    out.push(...piece(child, true, found));
    at = child.endIndex - base;
  }
  out.push(...chars(text.slice(at, Math.max(at, end)).replace(DQ_ESCAPE, '$1'), false));
  return out;
}

function piece(node: ShellNode, quoted: boolean, found: (n: ShellNode) => void): Ch[] {
  switch (node.type) {
    case 'word':
    case 'number':
    case 'brace_expression':
    case 'command_name':
      if (node.type === 'command_name' && node.namedChildren[0])
        return piece(node.namedChildren[0], quoted, found);
      return quoted ? chars(node.text, false) : unquotedWord(node.text);
    case 'raw_string':
      return chars(node.text.slice(1, -1), false);
    case 'ansi_c_string':
      return chars(decodeAnsiC(node.text.slice(2, -1)), false);
    case 'string':
    case 'translated_string':
      return doubleQuoted(node, found);
    case 'simple_expansion':
    case 'expansion':
      if (node.descendantsOfType(['command_substitution', 'process_substitution']).length)
        found(node);
      return parameter(node, quoted, found);
    case 'concatenation':
      // Unnamed pieces (a lone `$`) are literal text as the grammar read them.
      return node.children.flatMap((c) =>
        !c ? [] : c.isNamed ? piece(c, quoted, found) : chars(c.text, false),
      );
    default:
      // Command and process substitution, arithmetic: known only when run.
      found(node);
      return unknownPiece(node.text);
  }
}

/** An unquoted word: a backslash quotes the next character. */
function unquotedWord(text: string): Ch[] {
  const out: Ch[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && i + 1 < text.length) out.push({ c: text[++i], free: false });
    else out.push({ c: text[i], free: true });
  }
  return out;
}

const isFree = (ch: Ch | undefined, c: string) => ch !== undefined && ch.free && ch.c === c;

/** The `}` closing the `{` at `open`, and the top-level commas between; undefined when none. */
function braceGroup(word: Ch[], open: number): { close: number; commas: number[] } | undefined {
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < word.length; i++) {
    if (isFree(word[i], '{') && !isFree(word[i - 1], '$')) depth++;
    else if (isFree(word[i], '}')) {
      depth--;
      if (depth === 0) return { close: i, commas };
    } else if (isFree(word[i], ',') && depth === 1) commas.push(i);
  }
  return undefined;
}

function range(body: string): string[] | undefined {
  const m = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$/.exec(body);
  if (!m) return undefined;
  const numeric = /\d/.test(m[1]);
  if (numeric !== /\d/.test(m[2])) return undefined;
  const from = numeric ? Number(m[1]) : m[1].charCodeAt(0);
  const to = numeric ? Number(m[2]) : m[2].charCodeAt(0);
  const step = Math.max(1, Math.abs(Number(m[3] ?? 1)));
  if (Math.abs(to - from) / step > MAX_FIELDS) throw new ExpansionError('brace range too long');
  const out: string[] = [];
  for (let v = from; from <= to ? v <= to : v >= to; v += from <= to ? step : -step)
    out.push(numeric ? String(v) : String.fromCharCode(v));
  return out;
}

/** Bash brace expansion (manual §3.5.1) of one word, left to right. */
function braceExpand(word: Ch[], budget: { left: number }): Ch[][] {
  for (let open = 0; open < word.length; open++) {
    if (!isFree(word[open], '{') || isFree(word[open - 1], '$')) continue;
    const group = braceGroup(word, open);
    if (!group) continue;
    const inner = word.slice(open + 1, group.close);
    let alternatives: Ch[][];
    if (group.commas.length > 0) {
      const cuts = [open, ...group.commas, group.close];
      alternatives = cuts.slice(1).map((cut, k) => word.slice(cuts[k] + 1, cut));
    } else {
      const values = inner.every((c) => c.free) ? range(inner.map((c) => c.c).join('')) : undefined;
      if (!values) continue;
      alternatives = values.map((v) => chars(v, false));
    }
    const before = word.slice(0, open);
    const after = word.slice(group.close + 1);
    const out: Ch[][] = [];
    for (const alternative of alternatives) {
      if (--budget.left < 0) throw new ExpansionError('too many words from brace expansion');
      out.push(...braceExpand([...before, ...alternative, ...after], budget));
    }
    return out;
  }
  return [word];
}

function fields(word: Ch[]): Ch[][] {
  const out: Ch[][] = [];
  let current: Ch[] = [];
  for (const ch of word) {
    if (ch.split) {
      if (current.length) out.push(current);
      current = [];
    } else current.push(ch);
  }
  if (current.length) out.push(current);
  return out;
}

const GLOB = new Set(['*', '?', '[']);

/**
 * The part of a word from `from` on (the value in `--output=VALUE`, `of=VALUE`), its worst readings cut
 * the same way when the part before is literal in all of them.
 */
export function wordFrom(word: Expanded, from: number): Expanded {
  const head = word.text.slice(0, from);
  const worst = word.worst?.every((w) => w.startsWith(head))
    ? word.worst.map((w) => w.slice(from))
    : word.worst;
  return { ...word, text: word.text.slice(from), worst };
}

/** The field with every unknown piece read as `value` (or as the default it names, when `value` is undefined). */
function readAs(field: Ch[], value: string | undefined): string {
  return field.map((c) => (c.unknown ? (value ?? c.fallback ?? '~') : c.c)).join('');
}

/**
 * The words one word node becomes. `found` is told of every node whose value only running the
 * command can tell (command substitution and kin).
 */
export function expandWord(node: ShellNode, found: (n: ShellNode) => void): Expanded[] {
  const word = piece(node, false, found);
  const budget = { left: MAX_FIELDS };
  const quoted = word.some((c) => !c.free && !c.unknown);
  return braceExpand(word, budget)
    .flatMap(fields)
    .map((field) => {
      const unknown = field.some((c) => c.unknown);
      return {
        text: field.map((c) => c.c).join(''),
        index: node.startIndex,
        quoted,
        unknown,
        glob: field.some((c) => c.free && GLOB.has(c.c)),
        worst: unknown ? ['~', '/', undefined].map((v) => readAs(field, v)) : undefined,
      };
    });
}
