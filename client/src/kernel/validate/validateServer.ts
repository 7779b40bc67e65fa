/**
 * `mgp validate server` (MGP §17.8): opens the server twice with the kernel's connection code, once
 * offering nothing beyond base MCP and once offering MGP (§2.2) as the kernel does, runs the checks
 * tier by tier, each with a timeout of its own so a server that hangs fails that check and the run
 * goes on, and works out the tier the server reaches (§17.5).
 */
import type { Authorizations } from '../auth/authorizations';
import type { ServerLaunchDeps } from '../sandbox/serverLaunch';
import { environmentSecrets, type SecretSource } from '../config/interpolate';
import { mgpOffer } from '../mgp/negotiation';
import { BASE_MCP_CHECKS } from './checks/baseMcp';
import { TIER1_CHECKS } from './checks/tier1';
import { TIER2_CHECKS } from './checks/tier2';
import { TIER3_CHECKS, TIER4_CHECKS } from './checks/tier3';
import { MCPL_CHECKS } from './checks/mcpl';
import {
  type Check,
  type CheckContext,
  fail,
  skipped,
  type ValidateRunOptions,
  type Verdict,
} from './context';
import { Probe } from './probe';
import { checkContext, foreseenIsolation, openMgpSession, reportFacts } from './sessions';
import { describeTarget, targetServer, type ValidationTarget } from './target';
import { summarize } from './tiers';
import type { CheckResult, ValidationReport } from './types';

export const ALL_SERVER_CHECKS: readonly Check[] = [
  ...BASE_MCP_CHECKS,
  ...TIER1_CHECKS,
  ...TIER2_CHECKS,
  ...TIER3_CHECKS,
  ...TIER4_CHECKS,
  // The feature-set check comes after the others so the tags of everything the server sent are judged.
  ...MCPL_CHECKS.filter((check) => check.id !== 'mcpl.feature-sets'),
  ...MCPL_CHECKS.filter((check) => check.id === 'mcpl.feature-sets'),
];

export interface ValidateServerOptions extends Partial<ValidateRunOptions> {
  target: ValidationTarget;
  hostEnv?: Readonly<Record<string, string | undefined>>;
  secrets?: SecretSource;
  authorization?: Authorizations;
  /** Run a stdio server in its sandbox, as the kernel would (probe.ts). */
  sandbox?: ServerLaunchDeps;
  /** Told each result as its check ends (the CLI prints it at once). */
  onResult?(result: CheckResult): void;
  log?(level: string, message: string): void;
}

export const DEFAULT_CHECK_TIMEOUT_MS = 10_000;

function withTimeout(check: Check, context: CheckContext): Promise<Verdict> {
  const timeoutMs = check.timeoutMs ?? context.options.checkTimeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<Verdict>((resolve) => {
    timer = setTimeout(
      () =>
        resolve(
          fail({
            detail: `the check did not finish within ${timeoutMs / 1000} s: the server stopped answering`,
            expected: 'an answer to each request the check makes',
            received: 'nothing in time',
          }),
        ),
      timeoutMs,
    );
  });
  const ran = check.run(context).catch((error: unknown) =>
    fail({
      detail: 'the check could not complete',
      received: error instanceof Error ? error.message : String(error),
    }),
  );
  return Promise.race([ran, timedOut]).finally(() => clearTimeout(timer));
}

/** A check's result when the server did not start: initialize FAILs, the rest cannot be judged. */
function notStarted(check: Check, error: unknown, started: number): CheckResult {
  const verdict =
    check.id === 'mcp.initialize'
      ? fail({
          detail: 'the server could not be started or did not complete initialize',
          expected: 'an initialize result',
          received: error instanceof Error ? error.message : String(error),
        })
      : skipped('the server did not start');
  return resultOf(check, verdict, started);
}

function resultOf(check: Check, verdict: Verdict, started: number): CheckResult {
  return {
    id: check.id,
    tier: check.tier,
    title: check.title,
    section: check.section,
    ...(check.extension && { extension: check.extension }),
    ...verdict,
    durationMs: Date.now() - started,
  };
}

/** Validates one server; never throws for what the server does (that is a finding), only for bad usage. */
export async function validateServer(options: ValidateServerOptions): Promise<ValidationReport> {
  const started = Date.now();
  const hostEnv = options.hostEnv ?? process.env;
  const server = targetServer(options.target, hostEnv);
  const run: ValidateRunOptions = {
    allowDangerous: options.allowDangerous ?? false,
    checkTimeoutMs: options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS,
  };
  // The connection's own request timeout is the check's, so no request outlives its check.
  server.settings.requestTimeoutMs = run.checkTimeoutMs;
  const common = {
    server,
    hostEnv,
    secrets: options.secrets ?? environmentSecrets(hostEnv),
    authorization: options.authorization,
    sandbox: options.sandbox,
    log: options.log,
  };
  const offer = mgpOffer();
  const results: CheckResult[] = [];
  const report = (result: CheckResult) => {
    results.push(result);
    options.onResult?.(result);
  };
  let plain: Probe;
  try {
    plain = await Probe.open({ ...common, offer: {} });
  } catch (error) {
    for (const check of ALL_SERVER_CHECKS) report(notStarted(check, error, started));
    const isolation = await foreseenIsolation(server, options.sandbox);
    return summarize(describeTarget(options.target), results, { isolation }, started);
  }
  const mgp = await openMgpSession(common, offer);
  try {
    const context = await checkContext(plain, mgp, offer, run);
    for (const check of ALL_SERVER_CHECKS) {
      const checkStarted = Date.now();
      const result = resultOf(check, await withTimeout(check, context), checkStarted);
      context.earlier.set(check.id, result);
      report(result);
    }
    const facts = reportFacts(context, results);
    return summarize(describeTarget(options.target), results, facts, started);
  } finally {
    await Promise.all([plain.close(), mgp?.close()]);
  }
}
