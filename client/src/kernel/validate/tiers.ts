/**
 * The tier a server reaches (MGP §17.5: each tier includes all before it): the highest N such that
 * every base MCP check is not a FAIL and every check of tiers 1..N passes. The extensions counted in
 * "k/11" are the rows of §17.6 all of whose checks pass.
 */
import {
  type CheckResult,
  EXTENSION_ROWS,
  type MgpExtensionRow,
  type ValidationReport,
} from './types';

export function reachedTier(checks: readonly CheckResult[]): ValidationReport['tier'] {
  if (checks.some((check) => check.tier === 0 && check.status === 'fail')) return 0;
  let tier: ValidationReport['tier'] = 0;
  for (const next of [1, 2, 3, 4] as const) {
    const ofTier = checks.filter((check) => check.tier === next);
    if (!ofTier.length || ofTier.some((check) => check.status !== 'pass')) break;
    tier = next;
  }
  return tier;
}

export function passedExtensions(checks: readonly CheckResult[]): MgpExtensionRow[] {
  return EXTENSION_ROWS.filter((row) => {
    const ofRow = checks.filter((check) => check.extension === row);
    return ofRow.length > 0 && ofRow.every((check) => check.status === 'pass');
  });
}

export function summarize(
  target: string,
  checks: CheckResult[],
  facts: Pick<ValidationReport, 'server' | 'protocolVersion' | 'mgpVersion' | 'mcpl' | 'isolation'>,
  started: number,
): ValidationReport {
  return {
    target,
    ...facts,
    checks,
    mcpCompliant: !checks.some((check) => check.tier === 0 && check.status === 'fail'),
    tier: reachedTier(checks),
    extensions: { passed: passedExtensions(checks), total: EXTENSION_ROWS.length },
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
  };
}
