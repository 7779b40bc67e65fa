#!/usr/bin/env node
// Runs every client scenario of the official MCP conformance suite (@modelcontextprotocol/conformance)
// against `mgp`, through mgp-client.mjs, for each suite version tools/conformance installs (the pinned
// release and the newest prerelease; suites.mjs), one queue shared by PARALLEL workers. A scenario
// passes when a check ran and none failed. baseline.yml lists, per version, the scenarios that cannot
// pass, each with its reason: such a scenario failing is expected (and not counted as passed); one
// passing, or one the suite does not have, means the entry is stale. Prints one line per scenario as it
// ends, one line per version, `conformance VERSION (client): N passed, N failed`, then their sum,
// `conformance (client): N passed, N failed`.
//   node test/conformance/run.mjs [--scenario NAME]... [--suite-version VERSION]... [--keep DIR]
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBaseline } from './baseline.mjs';
import { preparedOrExit, runnerOptions } from './options.mjs';
import { run } from './processes.mjs';
import { installedSuites, node24, selectSuites } from './suites.mjs';

const root = new URL('../..', import.meta.url).pathname;
const adapter = join(root, 'test/conformance/mgp-client.mjs');
const PARALLEL = 2;
/** The suite's own per-scenario timeout, and ours for a scenario whose runner never ends. */
const SCENARIO_TIMEOUT_MS = 60_000;
const SCENARIO_HANG_MS = 3 * SCENARIO_TIMEOUT_MS;

/** Runs a command in its own process group, killed whole when it outlives the scenario's hang limit. */
async function runScenarioCommand(command, args) {
  const { code, output, timedOut } = await run(command, args, { deadlineMs: SCENARIO_HANG_MS });
  return { code, output, hung: timedOut };
}

async function listScenarios(suite) {
  const { output } = await runScenarioCommand(node24, [suite.entry, 'list', '--client']);
  const scenarios = [...output.matchAll(/^\s+-\s+(\S+)/gm)].map((m) => m[1]);
  if (scenarios.length === 0)
    throw new Error(`conformance suite ${suite.version} listed no client scenarios: ${output}`);
  return scenarios;
}

function newestChecks(dir) {
  if (!existsSync(dir)) return undefined;
  const found = [];
  const walk = (folder) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name === 'checks.json') found.push(path);
    }
  };
  walk(dir);
  return found.length ? JSON.parse(readFileSync(found.sort().at(-1), 'utf8')) : undefined;
}

const describe = (checks) => checks.map((c) => `${c.id}: ${c.errorMessage ?? c.description}`);

async function runScenario({ suite, scenario }, outDir) {
  const dir = join(outDir, suite.version, scenario.replace(/\//g, '_'));
  const command = `"${process.execPath}" "${adapter}"`;
  const { output, hung } = await runScenarioCommand(node24, [
    suite.entry,
    'client',
    '--command',
    command,
    '--scenario',
    scenario,
    '--timeout',
    String(SCENARIO_TIMEOUT_MS),
    '-o',
    dir,
  ]);
  if (hung) return { passed: false, detail: `still running after ${SCENARIO_HANG_MS} ms` };
  const checks = newestChecks(dir);
  if (!checks) return { passed: false, detail: `no results: ${output.trim().slice(-400)}` };
  const failures = checks.filter((c) => c.status === 'FAILURE');
  const judged = checks.filter((c) => c.status === 'SUCCESS' || c.status === 'WARNING');
  return {
    passed: failures.length === 0 && judged.length > 0,
    detail: failures.length ? describe(failures).join('; ') : 'no check ran',
    warnings: describe(checks.filter((c) => c.status === 'WARNING')),
    checks: judged.length,
  };
}

/** Each suite's client scenarios, and the jobs to run: all of them, or those of `only` each has. */
async function plan(suites, only) {
  const listings = new Map();
  for (const suite of suites) listings.set(suite, await listScenarios(suite));
  const known = new Set([...listings.values()].flat());
  const unknown = only.filter((scenario) => !known.has(scenario));
  if (unknown.length)
    throw new Error(`no conformance suite run here has client scenario ${unknown.join(', ')}`);
  const jobs = suites.flatMap((suite) =>
    listings
      .get(suite)
      .filter((scenario) => only.length === 0 || only.includes(scenario))
      .map((scenario) => ({ suite, scenario })),
  );
  return { listings, jobs };
}

/** Prints a scenario's verdict as soon as it is known, so a slow run still shows its progress. */
function report({ suite, scenario }, result, reason, tally) {
  const name = `${suite.version} ${scenario}`;
  if (result.passed && reason === undefined) {
    tally.passed++;
    console.log(`✔ ${name} (${result.checks} checks)`);
    for (const warning of result.warnings) console.log(`    warning: ${warning}`);
  } else if (!result.passed && reason !== undefined) {
    tally.expected++;
    console.log(`- ${name}: fails as baseline.yml expects (${reason})`);
  } else if (result.passed) {
    tally.failed++;
    console.log(`✘ ${name}: passes but baseline.yml expects it to fail: remove its entry`);
  } else {
    tally.failed++;
    console.log(`✘ ${name}: ${result.detail}`);
  }
}

/** Baseline entries naming a scenario the suite does not have fail the run: the entry is stale. */
function staleEntries(listings, reasons, tallies) {
  for (const [suite, listed] of listings)
    for (const scenario of reasons(suite.version, 'client').keys())
      if (!listed.includes(scenario)) {
        tallies.get(suite).failed++;
        console.log(
          `✘ ${suite.version} ${scenario}: baseline.yml lists it, but this suite has no such client scenario: remove its entry`,
        );
      }
}

function summarize(suites, tallies) {
  const total = { passed: 0, failed: 0 };
  for (const suite of suites) {
    const { passed, failed, expected } = tallies.get(suite);
    total.passed += passed;
    total.failed += failed;
    console.log(
      `conformance ${suite.version} (client): ${passed} passed, ${failed} failed` +
        ` (${expected} failing as baseline.yml expects, not counted)`,
    );
  }
  console.log(
    `conformance (client): ${total.passed} passed, ${total.failed} failed (suites ${suites.map((s) => s.version).join(' and ')})`,
  );
  return total;
}

const { only, versions, keep } = runnerOptions();
const { suites, reasons, listings, jobs } = await preparedOrExit('client', async () => {
  const suites = selectSuites(versions);
  const reasons = readBaseline(installedSuites().map((suite) => suite.version));
  return { suites, reasons, ...(await plan(suites, only)) };
});
const outDir = keep ?? mkdtempSync(join(tmpdir(), 'mgp-conformance-results-'));
const tallies = new Map(suites.map((suite) => [suite, { passed: 0, failed: 0, expected: 0 }]));
if (only.length === 0) staleEntries(listings, reasons, tallies);
const queue = [...jobs];
await Promise.all(
  Array.from({ length: PARALLEL }, async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const reason = reasons(job.suite.version, 'client').get(job.scenario);
      report(job, await runScenario(job, outDir), reason, tallies.get(job.suite));
    }
  }),
);
if (!keep) rmSync(outDir, { recursive: true, force: true });
process.exitCode = summarize(suites, tallies).failed ? 1 : 0;
