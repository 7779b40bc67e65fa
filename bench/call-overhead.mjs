// Benchmark: what the kernel adds to a tool call.
//
// 2,000 sequential tools/call of @modelcontextprotocol/server-everything's `echo` over stdio, through
// the kernel (Kernel.call: resolve, access control, approval policy, argument schema check, kernel-side
// validators, forward with trace id, durable hash-chained audit event with fsync batching) and through a
// bare SDK Client (`client.callTool`) on its own copy of the same server, in the same run. Calls are run in
// alternating blocks of 100 so that both see the same machine conditions; each call is timed alone.
// Two server processes of the same program can differ by tens of percent on a shared machine, so
// the run is repeated in rounds with fresh processes, and the median of the rounds' ratios is given.
// Each round also times, alternating the same way, the kernel's own SDK Client calling callTool on
// the kernel's connection: the same server process and pipe as Kernel.call, so that ratio is what the
// kernel's checks and audit add, without the difference between two server processes.
// Goal (from the issues): kernel median ≤ 1.05 × bare median, with every check on.
//
// Run: node bench/call-overhead.mjs [--calls N] [--block B] [--rounds R (15)] [--warmup W] [--audit-in-memory | --audit-inline] [--baseline-root DIR]
// (--baseline-root DIR: a kernel built from another checkout's sources, e.g. the code before a change,
// timed as a third caller beside the kernel and the bare client, on its own copy of the server.)
// (--audit-in-memory keeps events in memory instead of the durable log: to see the log's share;
// --audit-inline makes the durable log redact, hash and write on the calling thread, not its writer thread.)
// (builds the kernel itself with esbuild; needs node_modules installed.)
import { availableParallelism, loadavg } from 'node:os';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bundleAuditWorker, bundleExports, root, scratchFolder } from './lib/bundle.mjs';

const arg = (name, fallback) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback;
const CALLS = arg('--calls', 2000);
const BLOCK = arg('--block', 100);
// Both sides take about 1,500 calls to reach their steady speed (V8 compiles the hot paths as they run;
// the first hundred calls take 3-4× as long), so each caller makes this many calls before any timing
// counts. Those warm-up calls are timed too, and printed apart.
const WARMUP = arg('--warmup', 2000);
const IN_MEMORY = process.argv.includes('--audit-in-memory');
const INLINE = process.argv.includes('--audit-inline');
const BASELINE_ROOT = process.argv.includes('--baseline-root')
  ? resolve(process.argv[process.argv.indexOf('--baseline-root') + 1])
  : undefined;
const work = scratchFolder('mgp-bench-calls-');
const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const KERNEL_EXPORTS = [
  "export { Kernel } from './client/src/kernel/kernel';",
  "export { AuditLog } from './client/src/kernel/audit/auditLog';",
  "export { AuditTrail, KERNEL_AUDIT_COMMIT_DELAY_MS } from './client/src/kernel/audit/auditTrail';",
  "export { mergeConfigFiles, parseConfigText } from './client/src/kernel/config/load';",
  "export { NOBODY_TO_ASK } from './client/src/kernel/host/interaction';",
  "export { MemoryAuditSink } from './client/src/kernel/audit/auditSink';",
  "export { Client } from '@modelcontextprotocol/sdk/client/index.js';",
  "export { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';",
];

async function build() {
  const kernel = await bundleExports(work, 'kernel', KERNEL_EXPORTS);
  await bundleAuditWorker(work);
  return kernel;
}

/** The same exports from another checkout, in a folder of their own (with its audit writer). */
async function buildBaseline() {
  const folder = join(work, 'baseline');
  mkdirSync(folder);
  const kernel = await bundleExports(folder, 'kernel', KERNEL_EXPORTS, BASELINE_ROOT);
  await bundleAuditWorker(folder, BASELINE_ROOT);
  return kernel;
}

async function kernelCaller(m, folder = work) {
  const path = join(folder, 'mgp.toml');
  const toml = `[[servers]]\nid = "everything"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(everything)}, "stdio"]\n`;
  const config = m.mergeConfigFiles([
    m.parseConfigText(toml, { path, format: 'mgp', origin: 'workspace' }),
  ]);
  // As the editor and the CLI open it (commit delay included).
  const trail = IN_MEMORY
    ? undefined
    : new m.AuditTrail(
        await m.AuditLog.open({
          directory: join(folder, 'audit'),
          commitDelayMs: m.KERNEL_AUDIT_COMMIT_DELAY_MS,
          writer: INLINE ? 'inline' : undefined,
        }),
      );
  const memory = new m.MemoryAuditSink();
  const kernel = new m.Kernel({
    hostEnv: { PATH: process.env.PATH },
    secrets: { get: async () => undefined },
    interaction: m.NOBODY_TO_ASK,
    audit: trail ?? memory,
    stateDir: join(folder, 'state'),
    operator: { agentId: 'agent.bench', kind: 'operator' },
  });
  await kernel.apply(config);
  if (kernel.manager.get('everything').state !== 'connected')
    throw new Error('server-everything did not connect through the kernel');
  const sameServer = kernel.manager.get('everything').liveConnection.client;
  return {
    call: (i) =>
      kernel.call({ serverId: 'everything', toolName: 'echo', args: { message: `call ${i}` } }),
    // Audit records still being made and written at the end of a block: their work belongs to this side.
    settle: () => trail?.flush(),
    bareOnSameServer: {
      call: (i) => sameServer.callTool({ name: 'echo', arguments: { message: `call ${i}` } }),
    },
    close: async () => {
      if (!trail) {
        await kernel.dispose();
        return {
          audited: memory.ofType('TOOL_EXECUTED').length,
          chainOk: 'n/a (in memory)',
          writer: 'none',
        };
      }
      await trail.flush();
      const records = [];
      for await (const record of trail.log.records({ types: ['TOOL_EXECUTED'] }))
        records.push(record);
      const report = await trail.log.verify();
      await kernel.dispose();
      await trail.close();
      return { audited: records.length, chainOk: report.ok, writer: trail.log.writerKind };
    },
  };
}

async function bareCaller(m) {
  const client = new m.Client({ name: 'bench', version: '1' });
  await client.connect(
    new m.StdioClientTransport({
      command: process.execPath,
      args: [everything, 'stdio'],
      env: { PATH: process.env.PATH },
      stderr: 'ignore',
    }),
  );
  return {
    call: (i) => client.callTool({ name: 'echo', arguments: { message: `call ${i}` } }),
    close: async () => client.close(),
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function mean(values) {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const cpu = { kernel: 0, bare: 0, kernelSame: 0, sameBare: 0, baseline: 0 };
/** The warm-up calls' times, all rounds. */
const warm = { kernel: [], bare: [] };

async function timeBlock(name, caller, from, count, into) {
  const before = process.cpuUsage();
  for (let i = from; i < from + count; i++) {
    const started = process.hrtime.bigint();
    await caller.call(i);
    into.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  await caller.settle?.();
  const used = process.cpuUsage(before);
  cpu[name] += used.user + used.system;
}

const ROUNDS = arg('--rounds', 15);

/** CALLS calls of each caller, in blocks of BLOCK, taking turns (who goes first rotates). */
async function alternate(callers, index, times) {
  const names = Object.keys(callers);
  for (let done = 0; done < CALLS; done += BLOCK) {
    const size = Math.min(BLOCK, CALLS - done);
    const turn = (done / BLOCK + index) % names.length;
    for (const name of [...names.slice(turn), ...names.slice(0, turn)])
      await timeBlock(name, callers[name], done, size, times[name]);
  }
}

/** One round: a fresh kernel (with its own server process) and a fresh bare client (with its own). */
async function round(m, index, mBaseline) {
  const kernel = await kernelCaller(m);
  const bare = await bareCaller(m);
  const baseline =
    mBaseline &&
    (await kernelCaller(mBaseline, join(work, 'baseline', `round-${index}`)).catch((error) => {
      throw new Error(`the baseline kernel: ${error.message}`);
    }));
  for (let i = 0; i < WARMUP; i++) {
    for (const [name, caller] of [
      ['kernel', kernel],
      ['bare', bare],
    ]) {
      const started = process.hrtime.bigint();
      await caller.call(i);
      warm[name].push(Number(process.hrtime.bigint() - started) / 1000);
    }
    await kernel.bareOnSameServer.call(i);
    await baseline?.call(i);
  }
  const times = { kernel: [], bare: [], kernelSame: [], sameBare: [], baseline: [] };
  // The two comparisons take turns going first, round by round.
  const phases = [
    () => alternate(baseline ? { kernel, bare, baseline } : { kernel, bare }, index, times),
    () => alternate({ kernelSame: kernel, sameBare: kernel.bareOnSameServer }, index, times),
  ];
  for (const phase of index % 2 === 0 ? phases : phases.reverse()) await phase();
  const audit = await kernel.close();
  await baseline?.close();
  await bare.close();
  return { times, audit };
}

const m = await build();
const mBaseline = BASELINE_ROOT ? await buildBaseline() : undefined;
const all = { kernel: [], bare: [], kernelSame: [], sameBare: [], baseline: [] };
const ratios = [];
const baselineRatios = [];
const sameRatios = [];
let audit;
for (let r = 0; r < ROUNDS; r++) {
  const result = await round(m, r, mBaseline);
  for (const name of Object.keys(all)) all[name].push(...result.times[name]);
  ratios.push(median(result.times.kernel) / median(result.times.bare));
  if (mBaseline) baselineRatios.push(median(result.times.baseline) / median(result.times.bare));
  sameRatios.push(median(result.times.kernelSame) / median(result.times.sameBare));
  audit = result.audit;
}

const fmt = (us) => `${us.toFixed(0)} µs`;
const kernelMedian = median(all.kernel);
const bareMedian = median(all.bare);
console.log(
  `call overhead: ${ROUNDS} rounds × ${CALLS} sequential tools/call of server-everything echo over stdio, blocks of ${BLOCK}, alternating;`,
);
console.log(
  'each round starts a fresh kernel and a fresh bare client, each with its own server process',
);
console.log(`machine: ${availableParallelism()} cores, load average ${loadavg()[0].toFixed(1)}`);
console.log(
  `audit: ${audit.audited} TOOL_EXECUTED records ${IN_MEMORY ? 'in memory (last round)' : `on disk after all rounds, written by the ${audit.writer === 'thread' ? "log's writer thread" : 'calling thread'}`} (warm-up included), chain verified: ${audit.chainOk}`,
);
console.log('');
const row = (label, times) =>
  `${label.padEnd(22)}${fmt(median(times)).padEnd(11)} ${fmt(percentile(times, 90)).padEnd(10)} ${fmt(percentile(times, 99)).padEnd(10)} ${fmt(mean(times))}`;
console.log('                      median      p90        p99        mean');
console.log(row('kernel (all checks)', all.kernel));
console.log(row('bare SDK Client', all.bare));
console.log('');
console.log(
  `CPU of this process per call: kernel ${fmt(cpu.kernel / (CALLS * ROUNDS))}, bare ${fmt(cpu.bare / (CALLS * ROUNDS))} (the server's own CPU not included)`,
);
console.log(`per-round median ratios: ${ratios.map((r) => r.toFixed(2)).join(', ')}`);
console.log(
  `kernel / bare: ${(kernelMedian / bareMedian).toFixed(3)}× (pooled medians), ${median(ratios).toFixed(3)}× (median of rounds)   goal ≤ 1.05×`,
);
console.log('');
console.log(
  "the same server process: Kernel.call against the kernel's own SDK Client calling callTool on the same connection",
);
console.log(row('kernel (all checks)', all.kernelSame));
console.log(row('SDK Client, same pipe', all.sameBare));
console.log(
  `CPU of this process per call: kernel ${fmt(cpu.kernelSame / (CALLS * ROUNDS))}, SDK Client ${fmt(cpu.sameBare / (CALLS * ROUNDS))}`,
);
console.log(`per-round median ratios: ${sameRatios.map((r) => r.toFixed(2)).join(', ')}`);
console.log(
  `kernel / SDK Client on the same server: ${(median(all.kernelSame) / median(all.sameBare)).toFixed(3)}× (pooled medians), ${median(sameRatios).toFixed(3)}× (median of rounds)   goal ≤ 1.05×`,
);
console.log(
  `means (every call, slow ones included): kernel / bare ${(mean(all.kernel) / mean(all.bare)).toFixed(3)}×, kernel / SDK Client on the same server ${(mean(all.kernelSame) / mean(all.sameBare)).toFixed(3)}×`,
);
console.log('');
console.log(
  `the ${WARMUP} warm-up calls of each round, before either side runs at its steady speed (not counted above):`,
);
console.log(
  `kernel ${fmt(median(warm.kernel))}, bare SDK Client ${fmt(median(warm.bare))} (medians): ${(median(warm.kernel) / median(warm.bare)).toFixed(3)}×`,
);
if (mBaseline) {
  console.log('');
  console.log(
    `baseline kernel built from ${BASELINE_ROOT}, timed in the same blocks as the kernel and bare:`,
  );
  console.log(row('baseline kernel', all.baseline));
  console.log(
    `CPU of this process per call: baseline kernel ${fmt(cpu.baseline / (CALLS * ROUNDS))}; per-round median ratios ${baselineRatios.map((r) => r.toFixed(2)).join(', ')}`,
  );
  console.log(
    `baseline / bare: ${median(baselineRatios).toFixed(3)}× (median of rounds); kernel / bare: ${median(ratios).toFixed(3)}×`,
  );
}
