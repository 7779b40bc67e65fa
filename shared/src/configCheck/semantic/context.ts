import { CheckDiagnostic, ORIGIN, Range, Severity } from '../diagnostic';
import { locate, PointerLocation, PointerMap, pointerOf } from '../pointers';

/** What the semantic rules see: the parsed value, where each part stands, and the outside world. */
export interface RuleEnvironment {
  /** Folder of the checked file, for commands given as relative paths. */
  baseDir?: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Whether an executable with this name is on PATH (injected so checks are testable and cached). */
  commandOnPath(command: string): boolean;
  /** Whether a file exists (for commands given as paths). */
  fileExists(path: string): boolean;
}

export class RuleContext {
  readonly diagnostics: CheckDiagnostic[] = [];

  constructor(
    readonly value: Record<string, unknown>,
    private readonly map: PointerMap,
    readonly environment: RuleEnvironment,
    readonly text: string,
  ) {}

  range(path: readonly (string | number)[], prefer: (keyof PointerLocation)[] = ['value']): Range {
    return locate(this.map, pointerOf(path), prefer) ?? ORIGIN;
  }

  report(
    path: readonly (string | number)[],
    prefer: (keyof PointerLocation)[],
    severity: Severity,
    code: string,
    message: string,
    data?: Record<string, unknown>,
  ): void {
    this.diagnostics.push({
      range: this.range(path, prefer),
      severity,
      code: `semantic/${code}`,
      message,
      path: pointerOf(path),
      ...(data ? { data } : {}),
    });
  }

  reportAt(
    range: Range,
    path: readonly (string | number)[],
    severity: Severity,
    code: string,
    message: string,
    data?: Record<string, unknown>,
  ): void {
    this.diagnostics.push({
      range,
      severity,
      code: `semantic/${code}`,
      message,
      path: pointerOf(path),
      ...(data ? { data } : {}),
    });
  }
}

export type Table = Record<string, unknown>;

export function isTable(value: unknown): value is Table {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
  );
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
