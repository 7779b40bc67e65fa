/** Positions and diagnostics in LSP terms (0-based line, UTF-16 character), free of the LSP library. */
export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export type Severity = 'error' | 'warning' | 'information';

export interface CheckDiagnostic {
  range: Range;
  severity: Severity;
  /** Stable code, e.g. `toml-syntax`, `schema/enum`, `semantic/duplicate-id`. */
  code: string;
  message: string;
  /** The JSON pointer of the key or value it is about, e.g. `/servers/1/transport`. */
  path?: string;
  /** What a quick fix needs, e.g. the replacement for a "did you mean" or a secret's name. */
  data?: Record<string, unknown>;
}

export const ORIGIN: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** toml-eslint-parser locations: 1-based line, 0-based column. */
export function rangeOfLoc(loc: {
  start: { line: number; column: number };
  end: { line: number; column: number };
}): Range {
  return {
    start: { line: loc.start.line - 1, character: loc.start.column },
    end: { line: loc.end.line - 1, character: loc.end.column },
  };
}
