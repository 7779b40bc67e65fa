/**
 * Walks a tool call's arguments once and lists every primitive value with its JSON pointer (RFC 6901),
 * so each validator can say where it found something (`/command`, `/files/2/path`).
 */

export type LeafValue = string | number | boolean;

export interface Leaf {
  pointer: string;
  /** The nearest property name: for `/files/2/path` it is `path`, for `/args/0` it is `args`. */
  key: string;
  /** The top-level property the value sits under (`files` for `/files/2/path`). */
  top: string;
  value: LeafValue;
}

/** An array whose items are all strings, such as an argv: some patterns only show when it is joined. */
export interface StringArray {
  pointer: string;
  key: string;
  top: string;
  values: string[];
}

export interface Walked {
  leaves: Leaf[];
  stringArrays: StringArray[];
  /** Set when nesting went deeper than MAX_DEPTH: the validators then refuse the call. */
  tooDeepAt?: string;
}

/** Deeper arguments are not walked; the call is refused instead of passed unchecked. */
export const MAX_DEPTH = 64;

function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function walkArguments(args: Record<string, unknown>): Walked {
  const walked: Walked = { leaves: [], stringArrays: [] };
  visitObject(args, '', '', 0, walked);
  return walked;
}

function visit(
  value: unknown,
  pointer: string,
  key: string,
  top: string,
  depth: number,
  out: Walked,
): void {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    out.leaves.push({ pointer, key, top, value });
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (depth >= MAX_DEPTH) {
    out.tooDeepAt ??= pointer;
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => visit(item, `${pointer}/${i}`, key, top, depth + 1, out));
    if (value.length > 1 && value.every((item) => typeof item === 'string')) {
      out.stringArrays.push({ pointer, key, top, values: value as string[] });
    }
    return;
  }
  visitObject(value as Record<string, unknown>, pointer, top, depth, out);
}

function visitObject(
  value: Record<string, unknown>,
  pointer: string,
  top: string,
  depth: number,
  out: Walked,
): void {
  for (const [name, item] of Object.entries(value)) {
    visit(item, `${pointer}/${escapeToken(name)}`, name, depth === 0 ? name : top, depth + 1, out);
  }
}
