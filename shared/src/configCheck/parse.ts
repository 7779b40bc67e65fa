import { parse, TomlError } from 'smol-toml';
import { CheckDiagnostic } from './diagnostic';
import { PointerMap } from './pointers';

export type ParsedToml =
  | { ok: true; value: Record<string, unknown>; pointers: PointerMap }
  | { ok: false; diagnostic: CheckDiagnostic };

/** Nesting deeper than this is refused as an error instead of exhausting the stack. */
const MAX_DEPTH = 200;

/**
 * Parses TOML 1.0 with smol-toml (fast, exact positions for syntax errors); the ranges of keys and
 * values are scanned from the text only when a diagnostic, hover or outline needs them.
 */
export function parseTomlDocument(text: string): ParsedToml {
  try {
    const value = parse(text, { maxDepth: MAX_DEPTH }) as Record<string, unknown>;
    return { ok: true, value, pointers: new PointerMap(text) };
  } catch (error) {
    if (!(error instanceof TomlError)) return { ok: false, diagnostic: internalError(error) };
    const line = Math.max(0, error.line - 1);
    const character = Math.max(0, error.column - 1);
    const message = humanSyntaxMessage(
      error.message.split('\n')[0].replace(/^Invalid TOML document: /, ''),
      text,
      line,
      character,
    );
    return {
      ok: false,
      diagnostic: {
        range: { start: { line, character }, end: { line, character: character + 1 } },
        severity: 'error',
        code: 'toml-syntax',
        message: `TOML syntax error: ${message}`,
      },
    };
  }
}

/** smol-toml names the symptom; at the end of a line the cause is an unterminated string. */
function humanSyntaxMessage(
  message: string,
  text: string,
  line: number,
  character: number,
): string {
  const atLineEnd = character >= (text.split('\n')[line] ?? '').replace(/\r$/, '').length;
  if (atLineEnd && /control characters are not allowed in strings/.test(message))
    return 'unterminated string: the closing quote is missing at the end of this line';
  return message;
}

function internalError(error: unknown): CheckDiagnostic {
  const message =
    error instanceof RangeError
      ? 'the document is nested too deeply to check'
      : `the document could not be parsed: ${String(error)}`;
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: 'error',
    code: 'toml-syntax',
    message,
  };
}
