#!/usr/bin/env node
// The gateway's transparency check with the official MCP conformance suite (pinned in
// tools/conformance, run on the Node 24 of tools/node24). Every server scenario runs twice: against our
// conformance test server directly (test/fixtures/servers/conformance-server.js, Streamable HTTP), and
// against the same server through `mgp serve --http 0 --expose all`. A scenario passes when both runs
// give the same checks with the same outcomes and none fails; dns-rebinding-protection through the
// gateway shows its own Host/Origin checks. The gateway wants its bearer token, which the suite cannot
// send: a loopback relay adds `Authorization` to each request and passes everything else, Host and
// Origin included, unchanged. Last, every tool call the suite made must be in the gateway's audit log
// under the suite's identity (agent.gateway.conformance-test-client).
// Bounded: each scenario has SCENARIO_MS (a hung one is killed, reported, and the rest run one by one)
// and the whole step STEP_MS. Prints each scenario as both runs have ended it, then
// `conformance (server): N passed, N failed`.
//   node test/conformance/run-server.mjs [--scenario NAME]... [--keep DIR]
import { createServer, request } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, start } from './processes.mjs';
import { node24, runServerSuite, suite } from './serverSuite.mjs';
import { runnerOptions } from './options.mjs';

const root = new URL('../..', import.meta.url).pathname;
const cli = join(root, 'dist/cli.js');
const testServer = join(root, 'test/fixtures/servers/conformance-server.js');
const SUITE_CLIENT = 'agent.gateway.conformance-test-client';
// Each scenario takes well under a second; these deadlines are only for hangs.
const SCENARIO_MS = 30_000;
const STEP_MS = 5 * 60_000;
const START_MS = 60_000;

/** A loopback relay that adds the bearer token and passes the rest of each request as it came. */
function tokenRelay(target, token) {
  const to = new URL(target);
  const server = createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    const upstream = request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}${to.pathname}`,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}

async function listScenarios() {
  const { output } = await run(node24, [suite, 'list', '--server'], { deadlineMs: START_MS });
  return [...output.matchAll(/^\s+-\s+(\S+)/gm)].map((m) => m[1]);
}

const outcomes = (checks) =>
  checks
    .filter((c) => c.status !== 'INFO')
    .map((c) => `${c.id}=${c.status}`)
    .sort();

function unusable(outcome) {
  if (outcome === undefined) return 'no results';
  if (outcome.timedOut) return `no end within ${SCENARIO_MS / 1000} s (killed)`;
  if (outcome.notRun) return `not run: the step's ${STEP_MS / 60_000} minutes were up`;
  return undefined;
}

/** Why a scenario fails (directly or through the gateway, or they differ), or undefined. */
function judge(direct, gateway) {
  const problems = [
    [direct, 'directly'],
    [gateway, 'through the gateway'],
  ]
    .map(([outcome, how]) => unusable(outcome) && `${unusable(outcome)} ${how}`)
    .filter(Boolean);
  if (problems.length) return problems.join('; ');
  const failed = [...direct, ...gateway].filter((c) => c.status === 'FAILURE');
  if (failed.length)
    return failed.map((c) => `${c.id}: ${c.errorMessage ?? c.description}`).join('; ');
  const [a, b] = [outcomes(direct), outcomes(gateway)];
  if (a.join() !== b.join())
    return `directly [${a.join(', ')}], through the gateway [${b.join(', ')}]`;
  return undefined;
}

/** The gateway's audit log: the tool calls the suite made, each under the suite's identity. */
async function auditedCalls(stateHome, workspace) {
  const { output } = await run(
    process.execPath,
    [cli, 'audit', 'export', '--format', 'jsonl', '--cwd', workspace],
    { env: { ...process.env, XDG_STATE_HOME: stateHome }, deadlineMs: START_MS },
  );
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
    .filter((record) => record.event_type === 'TOOL_EXECUTED');
}

function checkAudit(calls, fullRun) {
  const foreign = calls.filter((c) => c.actor.id !== SUITE_CLIENT);
  const called = new Set(calls.map((c) => c.target.tool_name));
  const expected = [
    'test_simple_text',
    'test_sampling',
    'test_elicitation',
    'test_tool_with_progress',
  ];
  const missing = fullRun ? expected.filter((tool) => !called.has(tool)) : [];
  if (missing.length || foreign.length || (fullRun && calls.length === 0))
    return `✘ audit: ${missing.length ? `no TOOL_EXECUTED for ${missing.join(', ')}` : ''}${foreign.length ? ` calls by ${[...new Set(foreign.map((c) => c.actor.id))].join(', ')}` : ''}`;
  return undefined;
}

const { only, keep } = runnerOptions();
const began = Date.now();
const deadline = began + STEP_MS;
const scenarios = only.length ? only : await listScenarios();
if (scenarios.length === 0) throw new Error('the conformance suite listed no server scenarios');
const work = keep ?? mkdtempSync(join(tmpdir(), 'mgp-conformance-server-'));
const stateHome = join(work, 'state');
const processes = [];
let relay;
let passed = 0;
let failed = 0;
try {
  const server = start(process.execPath, [testServer, '--http', '0'], /listening on (\S+)/, {
    deadlineMs: START_MS,
  });
  processes.push(server);
  const [, directUrl] = await server.match;
  writeFileSync(
    join(work, 'mgp.toml'),
    `[[servers]]\nid = "conformance"\nurl = ${JSON.stringify(directUrl)}\n`,
  );
  const gateway = start(
    process.execPath,
    [cli, 'serve', '--http', '0', '--expose', 'all', '--config', join(work, 'mgp.toml')],
    /MCP endpoint: (\S+)\nBearer token: (\S+)/,
    { env: { ...process.env, XDG_STATE_HOME: stateHome }, deadlineMs: START_MS },
  );
  processes.push(gateway);
  const [, gatewayUrl, token] = await gateway.match;
  relay = await tokenRelay(gatewayUrl, token);
  // Both runs go side by side; a scenario is judged (and printed) once both have ended it.
  const ended = new Map();
  const report = (side) => (scenario, outcome) => {
    const both = ended.get(scenario) ?? {};
    both[side] = outcome;
    ended.set(scenario, both);
    if (!('direct' in both && 'gateway' in both)) return;
    const problem = judge(both.direct, both.gateway);
    if (problem === undefined) {
      passed++;
      const checks = outcomes(both.gateway);
      const warnings = checks.filter((c) => c.endsWith('=WARNING')).length;
      console.log(
        `✔ ${scenario}: the same ${checks.length} checks directly and through mgp serve${warnings ? ` (${warnings} warnings in both)` : ''}`,
      );
    } else {
      failed++;
      console.log(`✘ ${scenario}: ${problem}`);
    }
  };
  const runs = { scenarios, together: only.length === 0, scenarioMs: SCENARIO_MS, deadline };
  await Promise.all([
    runServerSuite({
      ...runs,
      url: directUrl,
      outDir: join(work, 'direct'),
      report: report('direct'),
    }),
    runServerSuite({
      ...runs,
      url: relay.url,
      outDir: join(work, 'gateway'),
      report: report('gateway'),
    }),
  ]);
  await relay.close();
  relay = undefined;
  await gateway.stop();
  const calls = await auditedCalls(stateHome, work);
  const auditProblem = checkAudit(calls, only.length === 0);
  if (auditProblem) {
    failed++;
    console.log(auditProblem);
  } else {
    passed++;
    console.log(
      `✔ audit: the suite's ${calls.length} tool calls went through the kernel as ${SUITE_CLIENT}`,
    );
  }
} catch (error) {
  failed++;
  console.log(`✘ ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await relay?.close();
  await Promise.all(processes.map((p) => p.stop()));
  if (!keep) rmSync(work, { recursive: true, force: true });
}
console.log(
  `conformance (server): ${passed} passed, ${failed} failed (${((Date.now() - began) / 1000).toFixed(0)} s)`,
);
process.exitCode = failed ? 1 : 0;
