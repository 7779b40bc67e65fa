/**
 * How `mgp validate server` and `mgp validate client` print a report (MGP §17.8): one line per check
 * as it ends, then the result line; `--json` the report; `--junit FILE` the checks for CI; and the
 * exit status (1 on a FAIL or below `--require-tier N`).
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  checkDetails,
  checkLine,
  junitXml,
  resultLine,
  type CheckResult,
  type ValidationReport,
} from '../kernel';
import { UsageError } from './flags';
import type { Io } from './io';

export function positiveNumber(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new UsageError(`--${flag} must be a number above 0`);
  return value;
}

export function requiredTier(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^[1-4]$/.test(raw)) throw new UsageError('--require-tier must be 1, 2, 3 or 4');
  return Number(raw);
}

export function printCheck(io: Io, check: CheckResult): void {
  io.out(checkLine(check));
  if (check.status !== 'pass') for (const line of checkDetails(check)) io.out(`    ${line}`);
}

/** The exit status: 1 when a check failed or the tier asked for is not reached. */
export function exitOf(report: ValidationReport, requireTier?: number): number {
  if (report.checks.some((check) => check.status === 'fail')) return 1;
  if (requireTier !== undefined && report.tier < requireTier) return 1;
  return 0;
}

/** The result (or the JSON report), the JUnit file when asked; returns the exit status. */
export async function finishReport(
  report: ValidationReport,
  options: { json: boolean; junit?: string; requireTier?: number },
  io: Io,
): Promise<number> {
  if (options.json) io.out(JSON.stringify(report, null, 2));
  else {
    if (report.isolation) io.out(`Server process: ${report.isolation}`);
    io.out(resultLine(report));
  }
  if (options.junit) await writeFile(resolve(options.junit), junitXml(report));
  const code = exitOf(report, options.requireTier);
  if (!options.json && options.requireTier !== undefined && report.tier < options.requireTier)
    io.err(
      `mgp validate: Tier ${options.requireTier} required, the ${report.kind ?? 'server'} reaches ${report.tier === 0 ? 'none' : `Tier ${report.tier}`}`,
    );
  return code;
}
