// Benchmark: shipping the audit trail to PostgreSQL (`[kernel.audit.postgres]`), in one run against a
// throwaway cluster of Debian's PostgreSQL (scripts/setup.sh installs it):
//
// 1. Records per second shipped. R records are made by P concurrent producers on a durable audit
//    trail with a shipper attached; the time runs until the last one is in the table. Baseline,
//    same run: the same records on a trail without a shipper, until the last is durable locally.
// 2. What shipping costs a tool call. Two kernels, each with its own copy of server-everything and
//    its own durable trail, one of them shipping; sequential `echo` calls through Kernel.call, in
//    alternating blocks so both see the same machine, after a warm-up. The ratio of the medians is
//    the cost (the shipper works after a record is durable, so a call never waits for the database),
//    the median over rounds of fresh kernels.
//
// Run: node bench/audit-shipping.mjs [--records R (20000)] [--producers P (64)] [--calls N (2000)]
//      [--block B (100)] [--warmup W (1000)] [--rounds K (3)]
// (builds what it needs with esbuild; needs node_modules installed and Debian's postgresql.)
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { bundleAuditWorker, bundleExports, root, scratchFolder } from './lib/bundle.mjs';

const arg = (name, fallback) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback;
const RECORDS = arg('--records', 20_000);
const PRODUCERS = arg('--producers', 64);
const CALLS = arg('--calls', 2000);
const BLOCK = arg('--block', 100);
const WARMUP = arg('--warmup', 1000);
const ROUNDS = arg('--rounds', 3);
const work = scratchFolder('mgp-bench-shipping-');
const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const m = await bundleExports(work, 'kernel', [
  "export { Kernel } from './client/src/kernel/kernel';",
  "export { AuditLog } from './client/src/kernel/audit/auditLog';",
  "export { AuditTrail, KERNEL_AUDIT_COMMIT_DELAY_MS } from './client/src/kernel/audit/auditTrail';",
  "export { AuditShipper } from './client/src/kernel/teamAudit/auditShipper';",
  "export { mergeConfigFiles, parseConfigText } from './client/src/kernel/config/load';",
  "export { NOBODY_TO_ASK } from './client/src/kernel/host/interaction';",
  "export { PostgresCluster } from './test/support/postgresCluster';",
  "export { Pool } from 'pg';",
]);
await bundleAuditWorker(work);

/** A durable trail in a state folder of its own, as the kernel opens it; with a shipper when asked. */
async function trailIn(name, cluster) {
  const stateRoot = join(work, name, 'state');
  const logDirectory = join(stateRoot, 'ws-0123456789ab', 'audit');
  const trail = new m.AuditTrail(
    await m.AuditLog.open({
      directory: logDirectory,
      commitDelayMs: m.KERNEL_AUDIT_COMMIT_DELAY_MS,
    }),
  );
  const shipper =
    cluster &&
    (await m.AuditShipper.start({
      url: cluster.url,
      logDirectory,
      stateRoot,
      onRecord: (listener) => trail.onRecord(listener),
    }));
  return { trail, shipper };
}

const record = (trail, n) =>
  trail.record({
    event_type: 'TOOL_EXECUTED',
    actor: { type: 'agent', id: `agent.bench.${n % 7}` },
    target: { server_id: ['files', 'git', 'notes'][n % 3], tool_name: `tool_${n % 11}` },
    result: n % 13 ? 'SUCCESS' : 'BLOCKED',
    details: { n, duration_ms: n % 250, arguments_shape: { path: 'string', limit: 'number' } },
  });

/** R records by P producers; resolves with the seconds until `done()` holds. */
async function produce(trail, done) {
  const started = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: PRODUCERS }, async () => {
      while (next < RECORDS) await record(trail, next++);
    }),
  );
  await done();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function rowsIn(cluster) {
  const pool = new m.Pool({ connectionString: cluster.url, max: 1 });
  const { rows } = await pool.query('SELECT count(*)::int AS n FROM mgp_audit_records');
  await pool.end();
  return rows[0].n;
}

async function throughput(cluster) {
  // The records made with no shipper; then a shipper started on that log drains it (the spool).
  const local = await trailIn('local');
  const localSeconds = await produce(local.trail, () => local.trail.flush());
  const drainStarted = process.hrtime.bigint();
  const drainer = await m.AuditShipper.start({
    url: cluster.url,
    logDirectory: join(work, 'local', 'state', 'ws-0123456789ab', 'audit'),
    stateRoot: join(work, 'local', 'state'),
    onRecord: (listener) => local.trail.onRecord(listener),
  });
  await drainer.shipped(RECORDS);
  const drainSeconds = Number(process.hrtime.bigint() - drainStarted) / 1e9;
  await drainer.close(0);
  await local.trail.close();

  // The records made with the shipper attached, until the last is in the table.
  const shipping = await trailIn('shipping', cluster);
  const liveSeconds = await produce(shipping.trail, async () => {
    await shipping.trail.flush();
    await shipping.shipper.shipped(RECORDS);
  });
  await shipping.shipper.close(0);
  await shipping.trail.close();
  const rows = await rowsIn(cluster);
  if (rows !== 2 * RECORDS) throw new Error(`${rows} rows shipped, ${2 * RECORDS} made`);
  return { localSeconds, drainSeconds, liveSeconds };
}

/** A kernel on its own server-everything, auditing to its own trail (shipping when `cluster`). */
async function kernelCaller(name, cluster) {
  const folder = join(work, name);
  const toml = `[[servers]]\nid = "everything"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(everything)}, "stdio"]\n[servers.sandbox]\nmode = "off"\n`;
  const config = m.mergeConfigFiles([
    m.parseConfigText(toml, { path: join(folder, 'mgp.toml'), format: 'mgp', origin: 'user' }),
  ]);
  const { trail, shipper } = await trailIn(name, cluster);
  const kernel = new m.Kernel({
    hostEnv: { PATH: process.env.PATH },
    secrets: { get: async () => undefined },
    interaction: m.NOBODY_TO_ASK,
    audit: trail,
    stateDir: join(folder, 'kernel-state'),
    operator: { agentId: 'agent.bench', kind: 'operator' },
  });
  await kernel.apply(config);
  if (kernel.manager.get('everything').state !== 'connected')
    throw new Error('server-everything did not connect through the kernel');
  return {
    call: (i) =>
      kernel.call({ serverId: 'everything', toolName: 'echo', args: { message: `call ${i}` } }),
    settle: () => trail.flush(),
    close: async () => {
      await kernel.dispose();
      await trail.flush();
      await shipper?.close();
      await trail.close();
    },
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One round: two fresh kernels, each with its own server process, timed in alternating blocks. */
async function callRound(cluster, round) {
  const callers = {
    off: await kernelCaller(`calls-off-${round}`),
    on: await kernelCaller(`calls-on-${round}`, cluster),
  };
  for (let i = 0; i < WARMUP; i++)
    for (const caller of Object.values(callers)) await caller.call(i);
  const times = { off: [], on: [] };
  const names = Object.keys(callers);
  for (let done = 0; done < CALLS; done += BLOCK) {
    const order = (done / BLOCK) % 2 ? names : [...names].reverse();
    for (const name of order) {
      for (let i = done; i < done + BLOCK; i++) {
        const started = process.hrtime.bigint();
        await callers[name].call(i);
        times[name].push(Number(process.hrtime.bigint() - started) / 1000);
      }
      await callers[name].settle();
    }
  }
  for (const caller of Object.values(callers)) await caller.close();
  return { off: median(times.off), on: median(times.on) };
}

/** Two server processes of one program can differ by tens of percent: the median of the rounds. */
async function callCost(cluster) {
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) rounds.push(await callRound(cluster, round));
  return {
    off: median(rounds.map((r) => r.off)),
    on: median(rounds.map((r) => r.on)),
    ratio: median(rounds.map((r) => r.on / r.off)),
    ratios: rounds.map((r) => (r.on / r.off).toFixed(2)),
  };
}

const cluster = await m.PostgresCluster.create();
try {
  const { localSeconds, drainSeconds, liveSeconds } = await throughput(cluster);
  const calls = await callCost(cluster);
  const rate = (seconds) => Math.round(RECORDS / seconds).toLocaleString('en');
  console.log(`audit shipping: ${RECORDS} records by ${PRODUCERS} producers; ${CALLS} calls`);
  console.log(
    `machine: ${availableParallelism()} cores, load average ${loadavg()[0].toFixed(1)}; node ${process.version}\n`,
  );
  console.log(`made durable locally, no shipper (baseline)   ${rate(localSeconds)} records/s`);
  console.log(`shipped from the local log (a spool draining)  ${rate(drainSeconds)} records/s`);
  console.log(`made and shipped, shipper attached             ${rate(liveSeconds)} records/s`);
  console.log(
    `  made and shipped against made alone           ${(liveSeconds / localSeconds).toFixed(2)}× the time\n`,
  );
  console.log(`tool call, shipping off (baseline)             median ${calls.off.toFixed(0)} µs`);
  console.log(`tool call, shipping on                         median ${calls.on.toFixed(0)} µs`);
  console.log(
    `  on against off, median of ${ROUNDS} rounds       ${calls.ratio.toFixed(2)}× (rounds: ${calls.ratios.join(', ')})`,
  );
} finally {
  await cluster.remove();
}
