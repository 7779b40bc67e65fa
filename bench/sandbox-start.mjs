// What the sandbox costs a server's start: the time from spawn to the answer to `initialize`, for
// one stdio server started bare and started as the kernel starts it in the default sandbox
// (bubblewrap), alternating in one run. Prints medians and the ratio, last.
//
//   node bench/sandbox-start.mjs [--runs N]
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { bundleExports, root, scratchFolder } from './lib/bundle.mjs';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 20;
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
function startOnce(command, args, env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { env, cwd: workspace, stdio: ['pipe', 'pipe', 'ignore'] });
    child.stdout.once('data', () => {
      resolve(Number(process.hrtime.bigint() - started) / 1e6);
      child.kill();
    });
    child.once('error', reject);
    child.stdin.write(initialize);
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const bare = [];
const sandboxed = [];
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
  sandboxed.push(await startOnce(launch.command, launch.args, launch.env));
  await launch.dispose();
}
const [b, s] = [median(bare), median(sandboxed)];
console.log(`runs: ${runs} each, alternating`);
console.log(`bare start to initialize:       median ${b.toFixed(1)} ms`);
console.log(`sandboxed start to initialize:  median ${s.toFixed(1)} ms`);
console.log(`sandbox cost: +${(s - b).toFixed(1)} ms per start, ×${(s / b).toFixed(2)}`);
