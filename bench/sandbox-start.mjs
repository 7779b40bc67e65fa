// What the sandbox costs a server's start: the time from spawn to the answer to `initialize`, for
// one stdio server started bare and started as the kernel starts it in the default sandbox
// (bubblewrap), alternating in one run. Prints medians and the ratio, last.
//
//   node bench/sandbox-start.mjs [--runs N] [--srt SETTINGS --srt-cli CLI --srt-node NODE]
//
// With --srt, a third arm starts the server under @anthropic-ai/sandbox-runtime (its cli.js, run by a
// Node 22+ binary, with the given settings file), for the comparison docs/sandbox.md reports. It is
// not a dependency: install it, and the socat and ripgrep it needs, where you measure.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { bundleExports, root, scratchFolder } from './lib/bundle.mjs';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 20;
const option = (name) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const srt = option('--srt')
  ? { settings: option('--srt'), cli: option('--srt-cli'), node: option('--srt-node') }
  : undefined;
const folder = scratchFolder('mgp-bench-sandbox-');
const workspace = join(folder, 'ws');
mkdirSync(workspace);
const { planLaunch, DEFAULT_SANDBOX } = await bundleExports(folder, 'sandbox', [
  "export { planLaunch } from './client/src/kernel/sandbox/launch';",
  "export { DEFAULT_SANDBOX } from './client/src/kernel/config/sandboxPolicy';",
]);
const server = join(root, 'test/fixtures/servers/rogue.js');
const initialize = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'b', version: '1' },
  },
})}\n`;

/** Milliseconds from spawn to the initialize answer. */
function startOnce(command, args, env, extraFds = []) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, {
      env,
      cwd: workspace,
      stdio: ['pipe', 'pipe', 'pipe', ...extraFds],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.once('data', () => {
      resolve(Number(process.hrtime.bigint() - started) / 1e6);
      child.kill();
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${command} exited (${code}): ${stderr}`)));
    child.stdin.write(initialize);
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const bare = [];
const sandboxed = [];
const runtime = [];
const env = { PATH: process.env.PATH };
for (let i = 0; i < runs; i++) {
  bare.push(await startOnce(process.execPath, [server], env));
  const launch = await planLaunch({
    serverId: 'bench',
    command: process.execPath,
    args: [server],
    env,
    cwd: workspace,
    policy: DEFAULT_SANDBOX,
    configFolder: workspace,
    workspaceFolders: [workspace],
    home: process.env.HOME ?? '/root',
    hostEnv: process.env,
    guard: async () => ({ refused: 'no network in this bench' }),
  });
  if (!launch.isolation.sandboxed) throw new Error(`no sandbox here: ${launch.isolation.reason}`);
  sandboxed.push(await startOnce(launch.command, launch.args, launch.env, launch.extraFds));
  await launch.dispose();
  if (srt)
    runtime.push(
      await startOnce(
        srt.node,
        [srt.cli, '--settings', srt.settings, '--', process.execPath, server],
        process.env,
      ),
    );
}
const [b, s] = [median(bare), median(sandboxed)];
console.log(`runs: ${runs} each, alternating`);
console.log(`bare start to initialize:       median ${b.toFixed(1)} ms`);
console.log(`sandboxed start to initialize:  median ${s.toFixed(1)} ms`);
if (srt) {
  const r = median(runtime);
  console.log(
    `sandbox-runtime start to initialize: median ${r.toFixed(1)} ms, ×${(r / b).toFixed(2)}`,
  );
}
console.log(`sandbox cost: +${(s - b).toFixed(1)} ms per start, ×${(s / b).toFixed(2)}`);
