/**
 * Where the cursor is in a TOML document, read from the text alone so that it works while the user is
 * typing (when the document does not parse): the table it is in, and whether it is on a key or a value.
 */
export type CursorContext =
  | { kind: 'header'; tablePath: (string | number)[]; prefix: string }
  | { kind: 'key'; tablePath: (string | number)[]; prefix: string }
  | {
      kind: 'value';
      tablePath: (string | number)[];
      keyPath: string[];
      inArray: boolean;
      prefix: string;
    };

const HEADER = /^\s*(\[\[?)\s*([^\]#]*?)\s*\]\]?\s*(#.*)?$/;

/** Splits a dotted key (`a."b.c".d`) into its names. */
export function splitDottedKey(text: string): string[] {
  const names: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (const char of text.trim()) {
    if (quote) {
      if (char === quote) quote = undefined;
      else current += char;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '.') {
      names.push(current.trim());
      current = '';
    } else current += char;
  }
  names.push(current.trim());
  return names.filter((name) => name.length > 0);
}

/**
 * The document path of the table that line `line` belongs to, resolving array tables to their
 * current index: `[servers.mgp]` after the second `[[servers]]` is `servers/1/mgp`.
 */
export function tablePathAt(lines: readonly string[], line: number): (string | number)[] {
  const arrayCounts = new Map<string, number>();
  let path: (string | number)[] = [];
  for (let i = 0; i < Math.min(line + 1, lines.length); i++) {
    const match = HEADER.exec(lines[i]);
    if (!match) continue;
    const names = splitDottedKey(match[2]);
    const resolved: (string | number)[] = [];
    names.forEach((name, index) => {
      resolved.push(name);
      const key = resolved.join('\u0000');
      const isLast = index === names.length - 1;
      if (isLast && match[1] === '[[') {
        const next = (arrayCounts.get(key) ?? -1) + 1;
        arrayCounts.set(key, next);
        resolved.push(next);
      } else if (arrayCounts.has(key)) {
        resolved.push(arrayCounts.get(key) as number);
      }
    });
    path = resolved;
  }
  return path;
}

export function cursorContext(text: string, line: number, character: number): CursorContext {
  const lines = text.split(/\r?\n/);
  const before = (lines[line] ?? '').slice(0, character);
  const headerMatch = /^\s*\[\[?\s*([^\]]*)$/.exec(before);
  if (headerMatch) return { kind: 'header', tablePath: [], prefix: headerMatch[1] };
  const tablePath = tablePathAt(
    lines,
    line - 1 >= 0 && HEADER.test(lines[line] ?? '') ? line - 1 : line,
  );
  const equals = before.indexOf('=');
  if (equals < 0) {
    const open = openArrayAbove(lines, line, before);
    if (open)
      return {
        kind: 'value',
        tablePath,
        keyPath: open,
        inArray: true,
        prefix: /["']?([^"',\[\s]*)$/.exec(before)?.[1] ?? '',
      };
    return { kind: 'key', tablePath, prefix: before.trim() };
  }
  const keyPath = splitDottedKey(before.slice(0, equals));
  const valueText = before.slice(equals + 1);
  const inArray = (valueText.match(/\[/g)?.length ?? 0) > (valueText.match(/\]/g)?.length ?? 0);
  const prefix = /["']?([^"',\[\s]*)$/.exec(valueText)?.[1] ?? '';
  return { kind: 'value', tablePath, keyPath, inArray, prefix };
}

/** The key of a multi-line array that is still open at the cursor (`key = [` on an earlier line). */
function openArrayAbove(
  lines: readonly string[],
  line: number,
  before: string,
): string[] | undefined {
  let depth = bracketBalance(before);
  for (let i = line - 1; i >= 0 && i >= line - 200; i--) {
    if (HEADER.test(lines[i])) return undefined;
    const match = /^\s*([^=#\[]+?)\s*=\s*(.*)$/.exec(lines[i]);
    depth += bracketBalance(match ? match[2] : lines[i]);
    if (match) return depth > 0 ? splitDottedKey(match[1]) : undefined;
  }
  return undefined;
}

/** Opening minus closing brackets outside strings and comments. */
function bracketBalance(text: string): number {
  let balance = 0;
  let quote: string | undefined;
  for (const char of text) {
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '#') break;
    else if (char === '[') balance++;
    else if (char === ']') balance--;
  }
  return balance;
}

/**
 * The id (or OpenFang name) of the server whose table `tablePath` is in, read from the text so that it
 * works while the document does not parse.
 */
export function serverIdInText(
  text: string,
  tablePath: readonly (string | number)[],
): string | undefined {
  const [list, index] = tablePath;
  if ((list !== 'servers' && list !== 'mcp_servers') || typeof index !== 'number') return undefined;
  const lines = text.split(/\r?\n/);
  const idKey = list === 'servers' ? 'id' : 'name';
  let seen = -1;
  let inside = false;
  for (const line of lines) {
    const header = HEADER.exec(line);
    if (header) {
      const names = splitDottedKey(header[2]);
      if (header[1] === '[[' && names.length === 1 && names[0] === list) {
        seen++;
        inside = seen === index;
      } else if (names[0] !== list) inside = false;
      continue;
    }
    const match = inside ? new RegExp(`^\\s*${idKey}\\s*=\\s*["']([^"']*)["']`).exec(line) : null;
    if (match) return match[1];
  }
  return undefined;
}
