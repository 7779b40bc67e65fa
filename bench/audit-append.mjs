// Benchmark: durable audit events per second.
//
// Measures `AuditLog.append` (client/src/kernel/audit): each event is redacted, hash-chained,
// written and fsynced before its promise resolves, with group commit batching the appends of
// concurrent producers into one write+fsync. The chaining, hashing and I/O run on the log's writer
// thread (dist/auditWorker.js, built here next to the bundle); `--writer inline` keeps them on the
// calling thread, to compare. Realistic TOOL_EXECUTED events of ~300–500 bytes,
// appended by P concurrent producers (each awaits its append before the next, as tool calls do).
// Goal (from the issue): median ≥ 50,000 durable events/s.
// Baseline, same run, same disk: the naive durable append, `appendFileSync` + `fsyncSync` per
// event (plain JSON, no chain, no redaction), on fewer events.
//
// Run: node bench/audit-append.mjs [--events N] [--producers P] [--runs R] [--dir DIR] [--writer thread|inline]
// (defaults 200000, 256, 5; DIR is where the logs are written, os.tmpdir() by default: pick a folder
// on the disk you care about, since fsync on tmpfs costs nothing). Builds what it needs with esbuild,
// so no `npm run build` first; everything is written under a temp folder and removed afterwards.
import { appendFileSync, closeSync, fsyncSync, openSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleAuditWorker, bundleExports, scratchFolder } from './lib/bundle.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const EVENTS = Number(arg('--events', 200_000));
const PRODUCERS = Number(arg('--producers', 256));
const RUNS = Number(arg('--runs', 5));
const WRITER = arg('--writer', 'thread');
const BASELINE_EVENTS = Math.max(500, Math.min(5_000, Math.floor(EVENTS / 40)));
const work = scratchFolder('mgp-bench-audit-', arg('--dir', tmpdir()));

// ── 1. Build the audit log from source into the temp folder ─────────────────────────────────────
async function loadAudit() {
  const audit = await bundleExports(work, 'audit', [
    "export * from './client/src/kernel/audit';",
    "export { openSegmentFile } from './client/src/kernel/audit/segmentFile';",
  ]);
  await bundleAuditWorker(work);
  return audit;
}

// ── 2. Realistic events (seeded) ────────────────────────────────────────────────────────────────
const servers = ['tool.terminal', 'files', 'git', 'memory.recall', 'browser', 'tickets'];
const tools = [
  'execute_command',
  'read_file',
  'write_file',
  'search',
  'commit',
  'fetch_page',
  'create_issue',
];
const results = ['SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS', 'FAILURE', 'BLOCKED'];
function event(i) {
  const server = servers[i % servers.length];
  const tool = tools[(i * 7) % tools.length];
  return {
    event_type: results[i % results.length] === 'BLOCKED' ? 'TOOL_BLOCKED' : 'TOOL_EXECUTED',
    actor: { type: 'agent', id: `agent.worker-${i % 12}` },
    target: { server_id: server, tool_name: tool },
    result: results[i % results.length],
    details: {
      risk_level: i % 3 ? 'moderate' : 'dangerous',
      validator_applied: 'sandbox',
      duration_ms: (i * 37) % 4000,
      arguments:
        i % 2
          ? { command: `npm test -- --grep "case ${i % 97}"` }
          : { path: `src/module-${i % 500}/index.ts` },
    },
  };
}

// ── 3. Timing helpers ───────────────────────────────────────────────────────────────────────────
const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;
const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const int = (x) => Math.round(x).toLocaleString('en-US');

async function ours(audit, run) {
  const directory = join(work, `log-${run}`);
  const redactor = new audit.Redactor({
    secrets: ['ghp_benchmarkToken0123456789', 'sk-live-0123456789abcdef'],
  });
  const log = await audit.AuditLog.open({ directory, redactor, writer: WRITER });
  // The records of one write+fsync are told to listeners together, in one task.
  let fsyncs = 0;
  let telling = false;
  log.onAppend(() => {
    if (telling) return;
    telling = true;
    fsyncs++;
    queueMicrotask(() => (telling = false));
  });
  const writer = log.writerKind;
  let next = 0;
  const producer = async () => {
    while (next < EVENTS) await log.append(event(next++));
  };
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: PRODUCERS }, producer));
  const elapsed = seconds(start);
  await log.close();
  const bytes = readdirSync(directory)
    .filter((f) => f.endsWith('.jsonl'))
    .reduce((sum, f) => sum + statSync(join(directory, f)).size, 0);
  return { rate: EVENTS / elapsed, elapsed, fsyncs, bytes, directory, writer };
}

async function sequential(audit) {
  const log = await audit.AuditLog.open({ directory: join(work, 'sequential'), writer: WRITER });
  const n = BASELINE_EVENTS;
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await log.append(event(i));
  const rate = n / seconds(start);
  await log.close();
  return rate;
}

function baseline(run) {
  const path = join(work, `naive-${run}.jsonl`);
  const fd = openSync(path, 'a');
  const start = process.hrtime.bigint();
  for (let i = 0; i < BASELINE_EVENTS; i++) {
    const e = event(i);
    appendFileSync(
      fd,
      `${JSON.stringify({ timestamp: new Date().toISOString(), trace_id: `t-${i}`, ...e })}\n`,
    );
    fsyncSync(fd);
  }
  const rate = BASELINE_EVENTS / seconds(start);
  closeSync(fd);
  return rate;
}

// ── Main ────────────────────────────────────────────────────────────────────────────────────────
let audit;
try {
  audit = await loadAudit();
} catch (error) {
  console.error(`cannot build the audit log: ${error.message}`);
  process.exit(1);
}
const runs = [];
const baselines = [];
for (let run = 0; run < RUNS; run++) {
  runs.push(await ours(audit, run));
  baselines.push(baseline(run));
}
const single = await sequential(audit);
const last = runs[runs.length - 1];
const verifyStart = process.hrtime.bigint();
const report = await audit.verifyAuditLog(last.directory);
const verifyMs = seconds(verifyStart) * 1000;

// ── 4. Figures ──────────────────────────────────────────────────────────────────────────────────
const rate = median(runs.map((r) => r.rate));
const naive = median(baselines);
const eventBytes = median(
  Array.from(
    { length: 1000 },
    (_, i) =>
      JSON.stringify({
        timestamp: new Date().toISOString(),
        trace_id: audit.newTraceId(),
        ...event(i),
      }).length,
  ),
);
console.log(
  `events: ${int(EVENTS)} per run from ${PRODUCERS} concurrent producers, ${RUNS} runs; events of ~${int(eventBytes)} bytes as JSON, records of ${int(last.bytes / EVENTS)} bytes on disk (with seq, prev_hash, hash)`,
);
console.log(
  `group commit: median ${int(median(runs.map((r) => r.fsyncs)))} write+fsync rounds per run (≈ ${int(EVENTS / median(runs.map((r) => r.fsyncs)))} records per fsync)`,
);
console.log(
  `verify of the last run: ${report.ok ? 'ok' : `BROKEN (${report.problem?.reason})`}, ${int(report.records)} records in ${int(verifyMs)} ms`,
);
console.log(
  `one producer awaiting each append: ${int(single)} events/s (one fsync per event, as the baseline)`,
);
console.log(`logs written under ${work}`);
console.log(
  `machine: node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0].toFixed(2)} at the end`,
);
console.log('');
console.log(
  `audit-append: durable events per second (acknowledged only after fsync), written by the ${last.writer === 'thread' ? "log's writer thread" : 'calling thread'}`,
);
console.log(
  `  AuditLog.append, group commit   median ${int(rate)}/s  min ${int(Math.min(...runs.map((r) => r.rate)))}/s  max ${int(Math.max(...runs.map((r) => r.rate)))}/s  (${RUNS} runs × ${int(EVENTS)})`,
);
console.log(
  `  appendFileSync + fsyncSync      median ${int(naive)}/s  (${RUNS} runs × ${int(BASELINE_EVENTS)})`,
);
console.log(`  ratio group commit / naive: ${(rate / naive).toFixed(1)}×`);
console.log(`  goal median ≥ 50,000/s: ${rate >= 50_000 ? 'met' : 'not met'}`);
