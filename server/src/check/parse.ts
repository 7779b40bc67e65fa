import { getStaticTOMLValue, ParseError, parseTOML } from 'toml-eslint-parser';
import type { AST } from 'toml-eslint-parser';
import { CheckDiagnostic } from './diagnostic';

export type ParsedToml =
  | { ok: true; ast: AST.TOMLProgram; value: Record<string, unknown> }
  | { ok: false; diagnostic: CheckDiagnostic };

/** Parses TOML 1.0 keeping a range for every key and value; a syntax error comes back at its position. */
export function parseTomlDocument(text: string): ParsedToml {
  try {
    const ast = parseTOML(text);
    return { ok: true, ast, value: getStaticTOMLValue(ast) as Record<string, unknown> };
  } catch (error) {
    if (!(error instanceof ParseError)) return { ok: false, diagnostic: internalError(error) };
    const line = Math.max(0, error.lineNumber - 1);
    const character = Math.max(0, error.column);
    return {
      ok: false,
      diagnostic: {
        range: { start: { line, character }, end: { line, character: character + 1 } },
        severity: 'error',
        code: 'toml-syntax',
        message: `TOML syntax error: ${error.message}`,
      },
    };
  }
}

function internalError(error: unknown): CheckDiagnostic {
  // The parser can exhaust the stack on pathological nesting; report it instead of crashing the server.
  const message = error instanceof RangeError ? 'the document is nested too deeply to check' : `the document could not be parsed: ${String(error)}`;
  return { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: 'error', code: 'toml-syntax', message };
}
