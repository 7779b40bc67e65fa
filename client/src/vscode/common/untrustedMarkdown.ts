/**
 * Text a server or a model wrote, placed in markdown the extension renders: as inline code or a
 * fenced block, where no link, command or formatting of theirs is live (MarkdownString may be trusted
 * for the links the extension makes itself).
 */

/** Inline code a server's text cannot break out of. */
export function code(text: string): string {
  return `\`${String(text).replace(/[`\n\r]/g, ' ')}\``;
}

/** A fenced block longer than any run of backticks in the text. */
export function fenced(text: string, language = ''): string {
  const longest = (text.match(/`+/g) ?? []).reduce((n, run) => Math.max(n, run.length), 0);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

/** Where a streamed indented block stands between pieces. */
export interface IndentState {
  /** The previous piece ended a line: the next text needs its indentation. */
  atLineStart: boolean;
  /** The previous piece ended with a carriage return: a line feed first in the next one is its pair. */
  afterCarriageReturn: boolean;
}

export const BLOCK_START: IndentState = { atLineStart: true, afterCarriageReturn: false };

/**
 * Text as part of an indented code block, streamed piece by piece: every line with text starts with
 * four spaces, so nothing in it can end the block (CommonMark §4.4; blank lines stay inside it).
 */
export function indentedCode(
  text: string,
  state: IndentState,
): { markdown: string; state: IndentState } {
  let markdown = '';
  let lineStart = state.atLineStart;
  const piece = state.afterCarriageReturn && text.startsWith('\n') ? text.slice(1) : text;
  piece
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .forEach((line, i) => {
      if (i > 0) {
        markdown += '\n';
        lineStart = true;
      }
      if (!line) return;
      markdown += (lineStart ? '    ' : '') + line;
      lineStart = false;
    });
  const afterCarriageReturn = text.endsWith('\r') || (state.afterCarriageReturn && text === '');
  return { markdown, state: { atLineStart: lineStart, afterCarriageReturn } };
}
