#!/usr/bin/env node
// The gateway's transparency check with the official MCP conformance suite, for each suite version
// tools/conformance installs (the pinned release and the newest prerelease; suites.mjs), one after the
// other. Every server scenario runs twice: against our conformance test server directly
// (test/fixtures/servers/conformance-server.js, Streamable HTTP), and against the same server through
// `mgp serve --http 0 --expose all`. They are compared by outcome: a scenario passes when it passes
// both ways (the checks may differ: dns-rebinding-protection through the gateway shows its own
// Host/Origin checks). baseline.yml lists, per version, the scenarios that cannot pass, each with its
// reason: such a scenario failing is expected (and not counted); one passing both ways, or one the
// suite does not have, means the entry is stale. The gateway wants its bearer token, which the suite
// cannot send: a loopback relay adds `Authorization` to each request and passes everything else, Host
// and Origin included, unchanged. Last, every tool call the suite made must be in the gateway's audit
// log under the suite's identity (agent.gateway.conformance-test-client).
// Bounded: each scenario has SCENARIO_MS (a hung one is killed, reported, and the rest run one by one)
// and the whole step STEP_MS. Prints each scenario as both runs have ended it, one line per version,
// `conformance VERSION (server): N passed, N failed`, then the sum with the audit,
// `conformance (server): N passed, N failed`.
//   node test/conformance/run-server.mjs [--scenario NAME]... [--suite-version VERSION]... [--keep DIR]
import { createServer, request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBaseline } from './baseline.mjs';
import { preparedOrExit, runnerOptions } from './options.mjs';
import { run, start } from './processes.mjs';
import { runServerSuite } from './serverSuite.mjs';
import { installedSuites, node24, selectSuites } from './suites.mjs';

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

async function listScenarios(suite) {
  const { output } = await run(node24, [suite.entry, 'list', '--server'], { deadlineMs: START_MS });
  const scenarios = [...output.matchAll(/^\s+-\s+(\S+)/gm)].map((m) => m[1]);
  if (scenarios.length === 0)
    throw new Error(`conformance suite ${suite.version} listed no server scenarios: ${output}`);
  return scenarios;
}

/** One run's outcome: `{ passed: true, checks }`, or `{ passed: false, why }`. */
function outcome(checks) {
  if (checks === undefined) return { passed: false, why: 'no results' };
  if (checks.threw) return { passed: false, why: `the suite could not run it: ${checks.threw}` };
  if (checks.timedOut)
    return { passed: false, why: `no end within ${SCENARIO_MS / 1000} s (killed)` };
  if (checks.notRun)
    return { passed: false, why: `not run: the step's ${STEP_MS / 60_000} minutes were up` };
  const failures = checks.filter((c) => c.status === 'FAILURE');
  if (failures.length)
    return {
      passed: false,
      why: failures.map((c) => `${c.id}: ${c.errorMessage ?? c.description}`).join('; '),
    };
  const judged = checks.filter((c) => c.status === 'SUCCESS' || c.status === 'WARNING');
  return judged.length
    ? { passed: true, checks: judged.length }
    : { passed: false, why: 'no check ran' };
}

/** A scenario's verdict from its two runs' outcomes and its baseline entry (`reason`), printed. */
function judge(name, direct, gateway, reason, tally) {
  const [a, b] = [outcome(direct), outcome(gateway)];
  const failing = [
    !a.passed && `directly: ${a.why}`,
    !b.passed && `through the gateway: ${b.why}`,
  ].filter(Boolean);
  if (failing.length === 0 && reason === undefined) {
    tally.passed++;
    console.log(
      `✔ ${name}: passes directly (${a.checks} checks) and through mgp serve (${b.checks})`,
    );
  } else if (failing.length && reason !== undefined) {
    tally.expected++;
    const how =
      !a.passed && !b.passed ? 'both ways' : !a.passed ? 'directly' : 'through the gateway';
    console.log(`- ${name}: fails ${how} as baseline.yml expects (${reason})`);
  } else if (failing.length === 0) {
    tally.failed++;
    console.log(
      `✘ ${name}: passes both ways but baseline.yml expects it to fail: remove its entry`,
    );
  } else {
    tally.failed++;
    console.log(`✘ ${name}: ${failing.join('; ')}`);
  }
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

/** Each suite's server scenarios to run: all it lists, or those of `only` it has. */
async function plan(suites, only) {
  const listings = new Map();
  for (const suite of suites) listings.set(suite, await listScenarios(suite));
  const unknown = only.filter((s) => ![...listings.values()].some((listed) => listed.includes(s)));
  if (unknown.length)
    throw new Error(`no conformance suite run here has server scenario ${unknown.join(', ')}`);
  return listings;
}

/** Baseline entries naming a scenario the suite does not have fail the run: the entry is stale. */
function staleEntries(suite, listed, reasons, tally) {
  for (const scenario of reasons(suite.version, 'server').keys())
    if (!listed.includes(scenario)) {
      tally.failed++;
      console.log(
        `✘ ${suite.version} ${scenario}: baseline.yml lists it, but this suite has no such server scenario: remove its entry`,
      );
    }
}

/** Runs one suite version's scenarios directly and through the relay, side by side. */
async function runVersion(
  suite,
  scenarios,
  { directUrl, relayUrl, work, deadline, reasons, tally },
) {
  // A scenario is judged (and printed) once both runs have ended it.
  const ended = new Map();
  const report = (side) => (scenario, checks) => {
    const both = ended.get(scenario) ?? {};
    both[side] = checks;
    ended.set(scenario, both);
    if (!('direct' in both && 'gateway' in both)) return;
    const reason = reasons(suite.version, 'server').get(scenario);
    judge(`${suite.version} ${scenario}`, both.direct, both.gateway, reason, tally);
  };
  const runs = { entry: suite.entry, scenarios, scenarioMs: SCENARIO_MS, deadline };
  const together = scenarios.length > 1;
  await Promise.all([
    runServerSuite({
      ...runs,
      together,
      url: directUrl,
      outDir: join(work, suite.version, 'direct'),
      report: report('direct'),
    }),
    runServerSuite({
      ...runs,
      together,
      url: relayUrl,
      outDir: join(work, suite.version, 'gateway'),
      report: report('gateway'),
    }),
  ]);
}

/** Starts the test server and the gateway in front of it; returns their URLs, token and processes. */
async function startServers(work, stateHome, processes) {
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
  return { directUrl, gatewayUrl, token, gateway };
}

function summarize(suites, tallies, extra, began) {
  const total = { passed: extra.passed, failed: extra.failed };
  for (const suite of suites) {
    const { passed, failed, expected } = tallies.get(suite);
    total.passed += passed;
    total.failed += failed;
    console.log(
      `conformance ${suite.version} (server): ${passed} passed, ${failed} failed` +
        ` (${expected} failing as baseline.yml expects, not counted)`,
    );
  }
  console.log(
    `conformance (server): ${total.passed} passed, ${total.failed} failed` +
      ` (suites ${suites.map((s) => s.version).join(' and ')}, and the audit;` +
      ` ${((Date.now() - began) / 1000).toFixed(0)} s)`,
  );
  return total;
}

const { only, versions, keep } = runnerOptions();
const began = Date.now();
const deadline = began + STEP_MS;
const { suites, reasons, listings } = await preparedOrExit('server', async () => {
  const suites = selectSuites(versions);
  const reasons = readBaseline(installedSuites().map((suite) => suite.version));
  return { suites, reasons, listings: await plan(suites, only) };
});
const tallies = new Map(suites.map((suite) => [suite, { passed: 0, failed: 0, expected: 0 }]));
// The audit check, and an error that stopped the run.
const extra = { passed: 0, failed: 0 };
const work = keep ?? mkdtempSync(join(tmpdir(), 'mgp-conformance-server-'));
mkdirSync(work, { recursive: true });
const stateHome = join(work, 'state');
const processes = [];
let relay;
try {
  const { directUrl, gatewayUrl, token, gateway } = await startServers(work, stateHome, processes);
  relay = await tokenRelay(gatewayUrl, token);
  for (const suite of suites) {
    const listed = listings.get(suite);
    const scenarios = only.length ? only.filter((s) => listed.includes(s)) : listed;
    if (only.length === 0) staleEntries(suite, listed, reasons, tallies.get(suite));
    const context = { directUrl, relayUrl: relay.url, work, deadline, reasons };
    await runVersion(suite, scenarios, { ...context, tally: tallies.get(suite) });
  }
  await relay.close();
  relay = undefined;
  await gateway.stop();
  const calls = await auditedCalls(stateHome, work);
  const auditProblem = checkAudit(calls, only.length === 0);
  if (auditProblem) {
    extra.failed++;
    console.log(auditProblem);
  } else {
    extra.passed++;
    console.log(
      `✔ audit: the suite's ${calls.length} tool calls went through the kernel as ${SUITE_CLIENT}`,
    );
  }
} catch (error) {
  extra.failed++;
  console.log(`✘ ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await relay?.close();
  await Promise.all(processes.map((p) => p.stop()));
  if (!keep) rmSync(work, { recursive: true, force: true });
}
process.exitCode = summarize(suites, tallies, extra, began).failed ? 1 : 0;
