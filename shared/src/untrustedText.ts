/**
 * Text from servers, models and workspace files is untrusted where it is shown. Control characters
 * (a terminal's escape sequences, a carriage return that rewrites the line, a BEL), invisible format
 * characters (bidi overrides and isolates that reorder what is shown, zero-width characters) and
 * Unicode line separators can make it read as something it is not: `risk: dangerous` drawn over with
 * `risk: safe`. These functions show each such character as a `\uXXXX` escape instead, so what is
 * shown is what was sent. The escapes are JSON's, so JSON text stays valid and means the same.
 *
 * Left as they are: the joiners U+200C and U+200D, which emoji sequences and several scripts need;
 * and, in `visibleText`, line feeds, tabs and CRLF line ends.
 */

// Controls (C0, DEL, C1), format characters (bidi, zero-width, tags…), line and paragraph separators.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const JOINERS = new Set(['\u200c', '\u200d']);
const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\t': '\\t' };

function escape(ch: string): string {
  let out = '';
  for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/** The text with every invisible or control character escaped, except line feeds, tabs and CRLF. */
export function visibleText(text: string): string {
  if (!hasInvisible(text)) return text;
  return text.replace(INVISIBLE, (ch, offset: number, whole: string) => {
    if (JOINERS.has(ch) || ch === '\n' || ch === '\t') return ch;
    if (ch === '\r' && whole[offset + 1] === '\n') return ch;
    return escape(ch);
  });
}

/** The text on one line: also line feeds, tabs and carriage returns escaped (for names, titles, table cells). */
export function oneLine(text: string): string {
  if (!hasInvisible(text)) return text;
  return text.replace(INVISIBLE, (ch) =>
    JOINERS.has(ch) ? ch : (SHORT[ch] ?? (ch === '\r' ? '\\r' : escape(ch))),
  );
}

function hasInvisible(text: string): boolean {
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(text);
}

// CommonMark §2.4: any ASCII punctuation character may be backslash-escaped.
const MARKDOWN_PUNCTUATION = /[!-/:-@[-`{-~]/g;

/**
 * The text as literal words inside markdown the editor renders (tooltips, chat): on one line, with
 * the invisible characters escaped as `oneLine` does, and every ASCII punctuation character
 * backslash-escaped (leading spaces as entities), so no code block, emphasis, link, autolink, heading, list, HTML, entity or theme icon
 * (`$(…)`) of its own is live.
 */
export function markdownInline(text: string): string {
  return (
    oneLine(text)
      .replace(MARKDOWN_PUNCTUATION, '\\$&')
      // Four leading spaces would start an indented code block (CommonMark §4.4).
      .replace(/^ +/, (spaces) => '&#32;'.repeat(spaces.length))
  );
}
