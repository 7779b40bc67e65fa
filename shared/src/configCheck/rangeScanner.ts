import type { Position, Range } from './diagnostic';

/** Where a JSON pointer's key, value and (for tables) header stand in the TOML text. */
export interface PointerLocation {
  key?: Range;
  value?: Range;
  /** The `[table]` / `[[array]]` header that opens this table. */
  header?: Range;
}

function escapePart(part: string | number): string {
  const text = String(part);
  return text.includes('~') || text.includes('/')
    ? text.replace(/~/g, '~0').replace(/\//g, '~1')
    : text;
}

export function pointerOf(path: readonly (string | number)[]): string {
  let pointer = '';
  for (const part of path) pointer += `/${escapePart(part)}`;
  return pointer;
}

/** A-Z a-z 0-9 _ - */
function isBareKeyChar(code: number): boolean {
  return (
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 45
  );
}

/** Whitespace , ] } # end a number, boolean or date. */
function isScalarEnd(code: number): boolean {
  return (
    code === 32 ||
    code === 9 ||
    code === 10 ||
    code === 13 ||
    code === 44 ||
    code === 93 ||
    code === 125 ||
    code === 35
  );
}
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * One pass over a TOML document that is already known to be valid (smol-toml parsed it), recording the
 * range of every key, value and table header by JSON pointer. The document's values come from the
 * parser; this only says where things are, at a small fraction of the cost of a full AST.
 */
class Scanner {
  private i = 0;
  private readonly lineStarts: number[] = [0];

  constructor(
    private readonly text: string,
    private readonly into: Map<string, PointerLocation>,
  ) {
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1))
      this.lineStarts.push(at + 1);
  }

  /** The position of the scan offset, by binary search in the line table. */
  private here(): Position {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.lineStarts[middle] <= this.i) low = middle;
      else high = middle - 1;
    }
    return { line: low, character: this.i - this.lineStarts[low] };
  }

  private entry(pointer: string): PointerLocation {
    let location = this.into.get(pointer);
    if (!location) this.into.set(pointer, (location = {}));
    return location;
  }

  private advance(count = 1): void {
    this.i = Math.min(this.text.length, this.i + count);
  }

  /** Spaces, tabs, comments and (when `newlines`) line breaks. */
  private skipBlank(newlines: boolean): void {
    while (this.i < this.text.length) {
      const c = this.text[this.i];
      if (c === ' ' || c === '\t' || (newlines && (c === '\n' || c === '\r'))) this.advance();
      else if (c === '#') {
        const end = this.text.indexOf('\n', this.i);
        this.i = end < 0 ? this.text.length : end;
      } else return;
    }
  }

  private startsWith(token: string): boolean {
    return this.text.startsWith(token, this.i);
  }

  /** A key part, bare or quoted: its name and range (quotes included). */
  private keyPart(): { name: string; range: Range } {
    const start = this.here();
    let name: string;
    const c = this.text[this.i];
    if (c === '"' || c === "'") {
      const from = this.i;
      this.skipString();
      const raw = this.text.slice(from + 1, this.i - 1);
      name = c === '"' ? decodeBasic(raw) : raw;
    } else {
      const from = this.i;
      while (this.i < this.text.length && isBareKeyChar(this.text.charCodeAt(this.i))) this.i++;
      name = this.text.slice(from, this.i);
    }
    return { name, range: { start, end: this.here() } };
  }

  private dottedKey(): { name: string; range: Range }[] {
    const parts = [this.keyPart()];
    for (;;) {
      this.skipBlank(false);
      if (this.text[this.i] !== '.') return parts;
      this.advance();
      this.skipBlank(false);
      parts.push(this.keyPart());
    }
  }

  private skipString(): void {
    const quote = this.text[this.i];
    const triple = this.startsWith(quote.repeat(3));
    this.advance(triple ? 3 : 1);
    const closing = triple ? quote.repeat(3) : quote;
    while (this.i < this.text.length) {
      const at = this.text.indexOf(closing, this.i);
      if (at < 0) {
        this.i = this.text.length;
        return;
      }
      if (quote === '"' && escaped(this.text, at)) {
        this.i = at + 1;
        continue;
      }
      this.i = at + closing.length;
      // Up to two quotes may stand right before a closing delimiter: `"""a""""` ends after four.
      for (let extra = 0; triple && extra < 2 && this.text[this.i] === quote; extra++)
        this.advance();
      return;
    }
  }

  private value(pointer: string): void {
    const start = this.here();
    const c = this.text[this.i];
    if (c === '"' || c === "'") this.skipString();
    else if (c === '[') this.array(pointer);
    else if (c === '{') this.inlineTable(pointer);
    else this.scalar();
    this.entry(pointer).value ??= { start, end: this.here() };
  }

  private scalar(): void {
    const from = this.i;
    while (this.i < this.text.length && !isScalarEnd(this.text.charCodeAt(this.i))) this.i++;
    // A date and a time may be separated by one space: `1979-05-27 07:32:00Z`.
    if (
      DATE_ONLY.test(this.text.slice(from, this.i)) &&
      /^ \d\d:/.test(this.text.slice(this.i, this.i + 4))
    ) {
      this.advance();
      while (this.i < this.text.length && !isScalarEnd(this.text.charCodeAt(this.i))) this.i++;
    }
  }

  private array(pointer: string): void {
    this.advance(); // [
    for (let index = 0; ; index++) {
      this.skipBlank(true);
      if (this.i >= this.text.length) return;
      if (this.text[this.i] === ']') break;
      this.value(`${pointer}/${index}`);
      this.skipBlank(true);
      if (this.text[this.i] === ',') this.advance();
    }
    this.advance(); // ]
  }

  private inlineTable(pointer: string): void {
    this.advance(); // {
    for (;;) {
      this.skipBlank(true);
      if (this.i >= this.text.length) return;
      if (this.text[this.i] === '}') break;
      this.keyValue(pointer);
      this.skipBlank(true);
      if (this.text[this.i] === ',') this.advance();
    }
    this.advance(); // }
  }

  /** `a.b.c = value` under `base`: `/a` and `/a/b` point at their own part; the last gets the whole key. */
  private keyValue(base: string): number {
    const parts = this.dottedKey();
    let pointer = base;
    parts.forEach((part, index) => {
      pointer += `/${escapePart(part.name)}`;
      const range =
        index === parts.length - 1
          ? { start: parts[0].range.start, end: part.range.end }
          : part.range;
      this.entry(pointer).key ??= range;
    });
    this.skipBlank(false);
    this.advance(); // =
    this.skipBlank(false);
    this.value(pointer);
    return this.i;
  }

  scan(): void {
    const arrayIndex = new Map<string, number>();
    let table: { pointer: string; start: Position; end: number } | undefined;
    const closeTable = () => {
      if (table) {
        const here = this.i;
        this.i = table.end;
        this.entry(table.pointer).value ??= { start: table.start, end: this.here() };
        this.i = here;
      }
    };
    let base = '';
    for (;;) {
      this.skipBlank(true);
      if (this.i >= this.text.length) break;
      const before = this.i;
      if (this.text[this.i] === '[') {
        closeTable();
        const start = this.here();
        const isArray = this.startsWith('[[');
        this.advance(isArray ? 2 : 1);
        this.skipBlank(false);
        const parts = this.dottedKey();
        this.skipBlank(false);
        this.advance(isArray ? 2 : 1);
        const headerEnd = this.i;
        let pointer = '';
        parts.forEach((part, index) => {
          pointer += `/${escapePart(part.name)}`;
          this.entry(pointer).key ??= part.range;
          if (index === parts.length - 1 && isArray) {
            const next = (arrayIndex.get(pointer) ?? -1) + 1;
            arrayIndex.set(pointer, next);
            pointer += `/${next}`;
          } else if (arrayIndex.has(pointer)) {
            pointer += `/${arrayIndex.get(pointer) as number}`;
          }
        });
        const location = this.entry(pointer);
        location.key ??= { start: parts[0].range.start, end: parts[parts.length - 1].range.end };
        location.header ??= { start, end: this.here() };
        table = { pointer, start, end: headerEnd };
        base = pointer;
      } else {
        const end = this.keyValue(base);
        if (table) table.end = end;
      }
      if (this.i === before) break; // not TOML after all: keep what was found
    }
    closeTable();
  }
}

/** Whether the character at `at` is escaped by an odd number of backslashes before it. */
function escaped(text: string, at: number): boolean {
  let count = 0;
  for (let k = at - 1; k >= 0 && text.charCodeAt(k) === 92; k--) count++;
  return count % 2 === 1;
}

/** A basic string's content with its escapes decoded (TOML's `\UXXXXXXXX` included). */
function decodeBasic(raw: string): string {
  return raw.replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)/g, (_, escape: string) => {
    if (escape.length > 1) return String.fromCodePoint(parseInt(escape.slice(1), 16));
    return (
      (
        { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' } as Record<
          string,
          string
        >
      )[escape] ?? escape
    );
  });
}

/** Every key, value and header range of a valid TOML document, by JSON pointer. */
export function scanRanges(text: string): Map<string, PointerLocation> {
  const into = new Map<string, PointerLocation>();
  new Scanner(text, into).scan();
  return into;
}
