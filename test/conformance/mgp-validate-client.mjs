#!/usr/bin/env node
// `mgp validate client`'s client under test: `mgp` itself. For each scenario the validator starts a
// probe server and runs `node mgp-validate-client.mjs <server-url>` with MGP_VALIDATE_SCENARIO set
// (and MGP_VALIDATE_CONTEXT: what the scenario asks, as JSON). This script writes an mgp.toml naming
// that server, then runs the `mgp` commands a user would run for what the scenario asks.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const cli = join(root, 'dist', 'cli.js');
const serverUrl = process.argv[2];
const scenario = process.env.MGP_VALIDATE_SCENARIO ?? '';
const context = JSON.parse(process.env.MGP_VALIDATE_CONTEXT || '{}');
if (!serverUrl) {
  console.error('usage: mgp-validate-client.mjs SERVER_URL (with MGP_VALIDATE_SCENARIO set)');
  process.exit(2);
}

const SERVER = 'probe';
/** What `mgp call` may end with here: done, the tool's error, refused by the kernel's checks. */
const OUTCOMES = new Set([0, 1, 3]);

const folder = mkdtempSync(join(tmpdir(), 'mgp-validate-client-'));
const config = join(folder, 'mgp.toml');
writeFileSync(
  config,
  [
    '[[servers]]',
    `id = "${SERVER}"`,
    `url = ${JSON.stringify(serverUrl)}`,
    'transport = "http"',
    '',
  ].join('\n'),
);
const env = {
  ...process.env,
  XDG_STATE_HOME: join(folder, 'state'),
  MGP_OAUTH_FLOW: 'none',
  MGP_OAUTH_TOKEN_STORE: 'file',
};

/**
 * Runs `mgp ARGS --config FILE`; resolves with its exit status and stdout. `onOutput` sees stdout as
 * it comes and may stop the command (with Ctrl-C's signal, as a user at a terminal would).
 */
function mgp(args, onOutput) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args, '--config', config], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env,
    });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      onOutput?.(stdout, () => child.kill('SIGINT'));
    });
    child.once('error', reject);
    child.once('close', (status, signal) => resolve({ status: status ?? signal, stdout }));
  });
}

/** `mgp ARGS`, whose exit status must be one a user would take as an answer. */
async function run(args, onOutput, accepted = OUTCOMES) {
  const { status, stdout } = await mgp(args, onOutput);
  if (!accepted.has(status)) throw new Error(`mgp ${args.join(' ')} ended with ${status}`);
  return stdout;
}

const call = (tool, args = {}, ...flags) => [
  'call',
  SERVER,
  tool,
  '--args',
  JSON.stringify(args),
  ...flags,
];

const scenarios = {
  'mgp-negotiation': () => run(['tools', '--server', SERVER]),
  // No --approve: the safe tool runs, the dangerous one must be refused.
  'mgp-security-metadata': async () => {
    await run(['tools', '--server', SERVER]);
    await run(call(context.safe_tool));
    await run(call(context.dangerous_tool));
  },
  'mgp-permission-flow': () => run(call(context.tool, context.arguments, '--approve', 'once')),
  'mgp-error-retries': async () => {
    for (const tool of context.tools) await run(call(tool, {}, '--approve', 'once'));
  },
  'mgp-audit': () => run(call(context.tool, {}, '--approve', 'once')),
  'mgp-health': () => run(call('mgp.health.ping', { server_id: SERVER }).toSpliced(1, 1, 'mgp')),
  // Ctrl-C once the first chunk is shown: mgp cancels the stream (MGP §12.7).
  'mgp-streaming-cancel': () => {
    let interrupted = false;
    return run(
      [...call(context.tool, {}, '--approve', 'once'), '--stream'],
      (stdout, interrupt) => {
        if (interrupted || !stdout.trim()) return;
        interrupted = true;
        interrupt();
      },
      new Set([...OUTCOMES, 130]),
    );
  },
  'mgp-events': async () => {
    const events = await run(['events', '--channels', context.channel, '--count', '1', '--json']);
    const [first] = events.trim().split('\n');
    const { data } = JSON.parse(first);
    await run(call(context.tool, { token: data.token }, '--approve', 'once'));
  },
  'mgp-tool-discovery': async () => {
    const found = JSON.parse(await run(['discover', context.query, '--json']));
    const [best] = found.tools;
    if (!best) throw new Error(`mgp discover found nothing for "${context.query}"`);
    await run(call(best.name, context.arguments, '--approve', 'once'));
  },
};

try {
  await (scenarios[scenario] ?? (() => run(['tools', '--server', SERVER])))();
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
} finally {
  rmSync(folder, { recursive: true, force: true });
}
