import { parse, TomlError } from 'smol-toml';

/** A diagnostic in LSP terms (0-based positions), without depending on the LSP library. */
export interface CheckDiagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity: 'error' | 'warning' | 'information';
  code: string;
  message: string;
}

/** TOML syntax errors at their exact position (smol-toml reports 1-based line and column). */
export function checkTomlSyntax(text: string): CheckDiagnostic[] {
  try {
    parse(text);
    return [];
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const line = Math.max(0, error.line - 1);
    const character = Math.max(0, error.column - 1);
    const lineText = text.split(/\r?\n/)[line] ?? '';
    const end = Math.max(character + 1, Math.min(lineText.length, character + 1));
    const message = error.message.split('\n')[0].replace(/^Invalid TOML document: /, '');
    return [{
      range: { start: { line, character }, end: { line, character: end } },
      severity: 'error',
      code: 'toml-syntax',
      message: `TOML syntax error: ${message}`,
    }];
  }
}
