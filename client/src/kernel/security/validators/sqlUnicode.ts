/**
 * PostgreSQL's Unicode escapes, decoded before SQL is judged (PostgreSQL manual §4.1.1 "Identifiers and
 * Key Words", §4.1.2.3 "String Constants with Unicode Escapes"): `U&"dblink_exe\0063"` is the
 * identifier `dblink_exec`, `U&'d\0061ta'` the string 'data'; `\XXXX` is a four-digit code point,
 * `\+XXXXXX` a six-digit one, a doubled escape character is itself, and `UESCAPE 'c'` after the
 * literal makes `c` the escape character instead of `\`. Each such literal is rewritten as the plain
 * quoted identifier or string it stands for, so the parser and the checks see the names PostgreSQL
 * will call. Plain literals, `E'…'` strings, dollar quotes and comments are copied as they are.
 */

const HEX4 = /^[0-9a-fA-F]{4}/;
const HEX6 = /^[0-9a-fA-F]{6}/;
const UESCAPE = /\s*UESCAPE\s*'([^'])'/iy;

/** The body of a Unicode literal with its escapes decoded; undefined when one is malformed. */
function decodeBody(body: string, escape: string): string | undefined {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== escape) {
      out += body[i];
      continue;
    }
    const rest = body.slice(i + 1);
    if (rest[0] === escape) {
      out += escape;
      i++;
      continue;
    }
    const six = rest[0] === '+' ? HEX6.exec(rest.slice(1)) : null;
    const four = six ? null : HEX4.exec(rest);
    const digits = six?.[0] ?? four?.[0];
    if (!digits) return undefined;
    const point = parseInt(digits, 16);
    if (point > 0x10ffff) return undefined;
    // Four-digit escapes may spell surrogate pairs; JavaScript strings join them the same way.
    out += point > 0xffff ? String.fromCodePoint(point) : String.fromCharCode(point);
    i += digits.length + (six ? 1 : 0);
  }
  return out;
}

/** The index just past the literal that opens at `open` with `quote` (a doubled quote is inside it). */
function closing(sql: string, open: number, quote: string, backslash = false): number {
  for (let i = open + 1; i < sql.length; i++) {
    if (backslash && sql[i] === '\\') i++;
    else if (sql[i] === quote) {
      if (sql[i + 1] !== quote) return i + 1;
      i++;
    }
  }
  return sql.length;
}

/** The end of a comment, a plain literal or a dollar quote starting at `i`, or -1. */
function skipped(sql: string, i: number): number {
  const c = sql[i];
  const wordBefore = /[\w$]/.test(sql[i - 1] ?? '');
  if (c === '-' && sql[i + 1] === '-') {
    const eol = sql.indexOf('\n', i);
    return eol < 0 ? sql.length : eol;
  }
  if (c === '/' && sql[i + 1] === '*') {
    const end = sql.indexOf('*/', i + 2);
    return end < 0 ? sql.length : end + 2;
  }
  if ((c === 'E' || c === 'e') && sql[i + 1] === "'" && !wordBefore)
    return closing(sql, i + 1, "'", true);
  if (c === "'" || c === '"') return closing(sql, i, c);
  if (c === '$' && !wordBefore) {
    const tag = /\$[A-Za-z_]*\$/y;
    tag.lastIndex = i;
    const found = tag.exec(sql);
    if (found) {
      const end = sql.indexOf(found[0], i + found[0].length);
      return end < 0 ? sql.length : end + found[0].length;
    }
  }
  return -1;
}

/** `sql` with each Unicode-escaped identifier and string written plainly. */
export function decodeUnicodeEscapes(sql: string): string {
  if (!/u&["']/i.test(sql)) return sql;
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    const quote = sql[i + 2];
    const unicode =
      (c === 'U' || c === 'u') &&
      sql[i + 1] === '&' &&
      (quote === '"' || quote === "'") &&
      !/[\w$]/.test(sql[i - 1] ?? '');
    if (!unicode) {
      const end = skipped(sql, i);
      const next = end > i ? end : i + 1;
      out += sql.slice(i, next);
      i = next;
      continue;
    }
    const end = closing(sql, i + 2, quote);
    const body = sql
      .slice(i + 3, end - 1)
      .split(quote + quote)
      .join(quote);
    UESCAPE.lastIndex = end;
    const escape = UESCAPE.exec(sql);
    const after = escape ? UESCAPE.lastIndex : end;
    const decoded = decodeBody(body, escape?.[1] ?? '\\');
    // A malformed escape is an error to PostgreSQL: the statement does not run; left as written.
    out +=
      decoded === undefined
        ? sql.slice(i, after)
        : quote + decoded.split(quote).join(quote + quote) + quote;
    i = after;
  }
  return out;
}
