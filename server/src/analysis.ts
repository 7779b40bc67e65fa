import { type ConfigFormat, managedPolicyPath } from '@shared/configFiles';
import { checkParsed, formatToCheck } from '@shared/configCheck/checkDocument';
import type { CheckDiagnostic } from '@shared/configCheck/diagnostic';
import { parseTomlDocument } from '@shared/configCheck/parse';
import type { PointerMap } from '@shared/configCheck/pointers';

/** One analysis of one document version, shared by every feature (diagnostics, hover, symbols…). */
export interface Analysis {
  version: number;
  text: string;
  /** undefined: a `config.toml` that is not OpenFang's, which the server leaves alone. */
  format?: ConfigFormat;
  value?: Record<string, unknown>;
  pointers?: PointerMap;
  diagnostics: CheckDiagnostic[];
}

export class AnalysisCache {
  private readonly entries = new Map<string, Analysis>();

  get(uri: string, path: string, version: number, text: string): Analysis {
    const cached = this.entries.get(uri);
    if (cached && cached.version === version) return cached;
    const analysis = analyze(path, version, text);
    this.entries.set(uri, analysis);
    return analysis;
  }

  delete(uri: string): void {
    this.entries.delete(uri);
  }
}

/** Larger files get one notice instead of a check that would stall the server. */
export const MAX_CHECKED_BYTES = 2 * 1024 * 1024;

function notice(range: CheckDiagnostic['range'], message: string): CheckDiagnostic {
  return { range, severity: 'information', code: 'not-checked', message };
}

function analyze(path: string, version: number, text: string): Analysis {
  const format = formatToCheck(path, text, managedPolicyPath(process.platform, process.env));
  if (!format) return { version, text, diagnostics: [] };
  const origin = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  if (text.length > MAX_CHECKED_BYTES) {
    return {
      version,
      text,
      format,
      diagnostics: [
        notice(
          origin,
          `this file is ${(text.length / 1048576).toFixed(1)} MB: config files over ${MAX_CHECKED_BYTES / 1048576} MB are not checked`,
        ),
      ],
    };
  }
  try {
    return analyzeFormat(path, version, text, format);
  } catch (error) {
    // Pathological input (say, thousands of nested inline tables) must cost a diagnostic, not the server.
    const reason =
      error instanceof RangeError
        ? 'it is nested too deeply'
        : `of an internal error: ${error instanceof Error ? error.message : String(error)}`;
    return {
      version,
      text,
      format,
      diagnostics: [
        {
          ...notice(origin, `this file could not be checked because ${reason}`),
          severity: 'error',
        },
      ],
    };
  }
}

function analyzeFormat(
  path: string,
  version: number,
  text: string,
  format: ConfigFormat,
): Analysis {
  const parsed = parseTomlDocument(text);
  const { diagnostics, pointers } = checkParsed(format, parsed, text, { path });
  if (!parsed.ok) return { version, text, format, diagnostics };
  return { version, text, format, value: parsed.value, pointers, diagnostics };
}
