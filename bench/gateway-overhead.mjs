// Benchmark: what the gateway adds to a tool call, beside call-overhead.mjs.
//
// Sequential tools/call of @modelcontextprotocol/server-everything's `echo`, from an SDK Client over
// stdio, through `mgp serve --expose all` (the bundled CLI: the client's call, the kernel's pipeline
// with every check and the durable audit record, the kernel's own call to the server over a second
// stdio hop) and directly to its own copy of the same server, in the same run. Calls run in
// alternating blocks, each timed alone, after warm-up calls of each side, in rounds with fresh
// processes (the median of the rounds' ratios is the figure). Also the CPU time of the gateway's
// process per call (/proc), against the client's own per call.
// A second stdio hop alone costs about as much as the first: the floor is near 2×. Goal (issue 37):
// gateway median ≤ 2.2 × direct median.
//
// Run: node bench/gateway-overhead.mjs [--calls N] [--block B] [--rounds R] [--warmup W] [--cpu-prof DIR] [--baseline-cli PATH]
// (needs `npm run build`: it runs dist/cli.js.)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = resolve(new URL('..', import.meta.url).pathname);
const arg = (name, fallback) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback;
const CALLS = arg('--calls', 1000);
const BLOCK = arg('--block', 100);
const ROUNDS = arg('--rounds', 5);
const WARMUP = arg('--warmup', 1000);
const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const cli = join(root, 'dist/cli.js');
// --baseline-cli PATH: a second gateway from another build (its dist/cli.js) timed in the same
// rounds, so that two versions of the code compare in one run.
const BASELINE = process.argv.includes('--baseline-cli')
  ? process.argv[process.argv.indexOf('--baseline-cli') + 1]
  : undefined;
// --cpu-prof DIR: the gateway's process writes a V8 CPU profile there when it ends.
const PROFILE = process.argv.includes('--cpu-prof')
  ? ['--cpu-prof', '--cpu-prof-dir', process.argv[process.argv.indexOf('--cpu-prof') + 1]]
  : [];

/** CPU seconds of one process so far (utime + stime, /proc). */
function cpuOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function connect(command, args, env, cwd) {
  const transport = new StdioClientTransport({ command, args, env, cwd, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return { client, pid: transport.pid };
}

async function gatewayCaller(dir, cliPath = cli) {
  const config = join(dir, 'mgp.toml');
  writeFileSync(
    config,
    `[[servers]]\nid = "everything"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(everything)}, "stdio"]\napproved_tools = ["echo"]\n`,
  );
  const env = { PATH: process.env.PATH, HOME: dir, XDG_STATE_HOME: join(dir, 'state') };
  const { client, pid } = await connect(
    process.execPath,
    [...PROFILE, cliPath, 'serve', '--expose', 'all', '--config', config],
    env,
    dir,
  );
  const { tools } = await client.listTools();
  if (!tools.some((tool) => tool.name === 'echo'))
    throw new Error(`the gateway lists no echo: ${tools.map((t) => t.name).join(', ')}`);
  return {
    call: (i) => client.callTool({ name: 'echo', arguments: { message: `call ${i}` } }),
    cpu: () => cpuOf(pid),
    close: () => client.close(),
  };
}

async function directCaller() {
  const { client } = await connect(process.execPath, [everything, 'stdio'], {
    PATH: process.env.PATH,
  });
  return {
    call: (i) => client.callTool({ name: 'echo', arguments: { message: `call ${i}` } }),
    close: () => client.close(),
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[
    Math.min(values.length - 1, Math.floor((p / 100) * values.length))
  ];

const cpu = { gateway: 0, gatewayClient: 0, direct: 0, baseline: 0 };

async function timeBlock(name, caller, from, count, into) {
  const before = process.cpuUsage();
  const gatewayBefore = caller.cpu?.();
  for (let i = from; i < from + count; i++) {
    const started = process.hrtime.bigint();
    const result = await caller.call(i);
    into.push(Number(process.hrtime.bigint() - started) / 1000);
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  }
  const used = process.cpuUsage(before);
  if (name === 'baseline') cpu.baseline += caller.cpu() - gatewayBefore;
  else if (caller.cpu) {
    cpu.gateway += caller.cpu() - gatewayBefore;
    cpu.gatewayClient += (used.user + used.system) / 1e6;
  } else cpu.direct += (used.user + used.system) / 1e6;
}

async function round(index) {
  const dir = mkdtempSync(join(tmpdir(), 'mgp-bench-gateway-'));
  const callers = { gateway: await gatewayCaller(dir), direct: await directCaller() };
  if (BASELINE) {
    const other = mkdtempSync(join(tmpdir(), 'mgp-bench-gateway-'));
    callers.baseline = await gatewayCaller(other, BASELINE);
    callers.baseline.dir = other;
  }
  const names = Object.keys(callers);
  try {
    for (let i = 0; i < WARMUP; i++) for (const name of names) await callers[name].call(i);
    const times = Object.fromEntries(names.map((name) => [name, []]));
    for (let done = 0; done < CALLS; done += BLOCK) {
      const size = Math.min(BLOCK, CALLS - done);
      // Each side goes first in turn.
      const turn = (done / BLOCK + index) % names.length;
      const order = [...names.slice(turn), ...names.slice(0, turn)];
      for (const name of order) await timeBlock(name, callers[name], done, size, times[name]);
    }
    return times;
  } finally {
    for (const caller of Object.values(callers)) {
      await caller.close();
      if (caller.dir) rmSync(caller.dir, { recursive: true, force: true });
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

const all = { gateway: [], direct: [], baseline: [] };
const ratios = [];
const baselineRatios = [];
for (let r = 0; r < ROUNDS; r++) {
  const times = await round(r);
  all.gateway.push(...times.gateway);
  all.direct.push(...times.direct);
  ratios.push(median(times.gateway) / median(times.direct));
  if (BASELINE) {
    all.baseline.push(...times.baseline);
    baselineRatios.push(median(times.baseline) / median(times.direct));
  }
  process.stderr.write(`round ${r + 1}: ${ratios.at(-1).toFixed(2)}×\n`);
}

const us = (value) => `${value.toFixed(0)} µs`;
const calls = CALLS * ROUNDS;
console.log(
  `gateway overhead: ${ROUNDS} rounds × ${CALLS} sequential tools/call of server-everything echo, blocks of ${BLOCK}, alternating, after ${WARMUP} warm-up calls each`,
);
console.log(`machine: ${availableParallelism()} cores, load average ${loadavg()[0].toFixed(1)}`);
console.log('');
console.log('                                median     p90        p99');
for (const [label, times] of [
  ['through mgp serve --expose all', all.gateway],
  ['direct SDK Client', all.direct],
  ...(BASELINE ? [["baseline build's gateway", all.baseline]] : []),
])
  console.log(
    `${label.padEnd(32)}${us(median(times)).padEnd(11)}${us(percentile(times, 90)).padEnd(11)}${us(percentile(times, 99))}`,
  );
console.log('');
console.log(
  `CPU per call: the gateway's process ${us((cpu.gateway / calls) * 1e6)}; this client ${us((cpu.gatewayClient / calls) * 1e6)} through it, ${us((cpu.direct / calls) * 1e6)} direct (the servers' own CPU not included)`,
);
console.log(`per-round median ratios: ${ratios.map((r) => r.toFixed(2)).join(', ')}`);
console.log(
  `gateway / direct: ${(median(all.gateway) / median(all.direct)).toFixed(3)}× (pooled medians), ${median(ratios).toFixed(3)}× (median of rounds)   goal ≤ 2.2×`,
);
if (BASELINE) {
  console.log('');
  console.log(`baseline build: ${BASELINE}`);
  console.log(
    `baseline gateway: CPU per call ${us((cpu.baseline / calls) * 1e6)}; per-round median ratios ${baselineRatios.map((r) => r.toFixed(2)).join(', ')}; baseline / direct ${median(baselineRatios).toFixed(3)}× (median of rounds)`,
  );
}
