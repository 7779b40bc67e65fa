/**
 * `mgp validate client` (MGP §17.8, the client half): for each scenario, a probe server of its own,
 * the client's command run against it (the MCP conformance suite's way: the URL as its last
 * argument, the scenario named in the environment), then the scenario's checks judge what the probe
 * saw. A client that hangs is killed at the scenario's timeout and FAILs that scenario; the run goes
 * on. The tier is worked out as for a server (§17.5).
 */
import { runProblem } from './observe';
import { ProbeServer } from './probeServer';
import { clientArgv, runClient } from './clientRun';
import type { ClientCheck, ClientScenario, Observation } from './scenario';
import { NEGOTIATION_SCENARIO, SECURITY_SCENARIO } from './tier1Scenarios';
import { AUDIT_SCENARIO } from './auditScenario';
import { ERRORS_SCENARIO, PERMISSION_SCENARIO } from './tier2Scenarios';
import { EVENTS_SCENARIO, HEALTH_SCENARIO, STREAMING_SCENARIO } from './tier3Scenarios';
import { TOOL_DISCOVERY_SCENARIO } from './tier4Scenarios';
import { fail, type Verdict } from '../context';
import { summarize } from '../tiers';
import type { CheckResult, ValidationReport } from '../types';

export const CLIENT_SCENARIOS: readonly ClientScenario[] = [
  NEGOTIATION_SCENARIO,
  SECURITY_SCENARIO,
  PERMISSION_SCENARIO,
  ERRORS_SCENARIO,
  AUDIT_SCENARIO,
  HEALTH_SCENARIO,
  STREAMING_SCENARIO,
  EVENTS_SCENARIO,
  TOOL_DISCOVERY_SCENARIO,
];

export const ALL_CLIENT_CHECKS: readonly ClientCheck[] = CLIENT_SCENARIOS.flatMap((s) => s.checks);

export const DEFAULT_CLIENT_TIMEOUT_MS = 30_000;

export interface ValidateClientOptions {
  /** The client's command line; the probe's URL is added as its last argument. */
  command: string;
  /** How long the client may take for one scenario. */
  timeoutMs?: number;
  cwd?: string;
  env?: Readonly<Record<string, string | undefined>>;
  /** Told each result as its check is judged (the CLI prints it at once). */
  onResult?(result: CheckResult): void;
}

function judged(check: ClientCheck, seen: Observation): Verdict {
  const problem = runProblem(seen.run);
  if (problem) return problem;
  try {
    return check.judge(seen);
  } catch (error) {
    return fail({
      detail: 'what the probe saw could not be judged',
      received: error instanceof Error ? error.message : String(error),
    });
  }
}

/** Runs every scenario; throws only for bad usage (a command that cannot be split). */
export async function validateClient(options: ValidateClientOptions): Promise<ValidationReport> {
  const argv = clientArgv(options.command);
  const timeoutMs = options.timeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS;
  const started = Date.now();
  const results: CheckResult[] = [];
  let client: { name: string; version: string } | undefined;
  let protocolVersion: string | undefined;
  let mgpVersion: string | undefined;
  for (const scenario of CLIENT_SCENARIOS) {
    const scenarioStarted = Date.now();
    const facts = scenario.facts?.() ?? {};
    const probe = await ProbeServer.start(scenario, facts);
    let seen: Observation;
    try {
      const run = await runClient({
        argv,
        url: probe.url,
        scenario: scenario.name,
        context: scenario.context,
        timeoutMs,
        cwd: options.cwd,
        env: options.env,
      });
      seen = { sessions: [...probe.sessions], run, facts };
    } finally {
      await probe.close();
    }
    for (const session of seen.sessions) {
      const info = session.initialize.clientInfo as
        { name?: unknown; version?: unknown } | undefined;
      if (!client && typeof info?.name === 'string')
        client = { name: info.name, version: String(info.version ?? '') };
      if (typeof session.initialize.protocolVersion === 'string')
        protocolVersion ??= session.initialize.protocolVersion;
      const offered = (session.offer.mgp as { version?: unknown } | undefined)?.version;
      if (typeof offered === 'string') mgpVersion ??= offered;
    }
    for (const check of scenario.checks) {
      const result: CheckResult = {
        id: check.id,
        tier: check.tier,
        title: check.title,
        section: check.section,
        ...(check.extension && { extension: check.extension }),
        ...judged(check, seen),
        durationMs: Date.now() - scenarioStarted,
      };
      results.push(result);
      options.onResult?.(result);
    }
  }
  return {
    kind: 'client',
    ...summarize(options.command, results, { protocolVersion, mgpVersion }, started),
    ...(client && { client }),
  };
}
