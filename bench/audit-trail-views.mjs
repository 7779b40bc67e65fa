// Benchmark: the Audit Trail panel's index and views at 100,000 records.
//
// Measures, in process, what the panel's host does with a large log (client/src/vscode/auditTrail:
// AuditIndex, buildDisplay, displayItems): indexing 100,000 realistic records as they are read
// (JSON.parse included), then the three views a person switches between (all records, a filter on
// one server and event type, grouped by trace) and a window of 100 grouped rows. Baseline: only
// JSON.parse of the same 100,000 lines, which any reader of the log pays; same run.
// Goals: indexing ≤ 3 × the baseline; the three views together ≤ 0.25 × the baseline.
//
// Run: node bench/audit-trail-views.mjs [--runs N]      (builds what it needs: no `npm run build` first)
import { loadavg } from 'node:os';
import { bundleExports, scratchFolder } from './lib/bundle.mjs';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Math.max(1, Number(process.argv[runsArg + 1]) || 7) : 7;
const RECORDS = 100_000;

const work = scratchFolder('mgp-bench-audit-trail-');
const panel = await bundleExports(work, 'panel', [
  "export { AuditIndex } from './client/src/vscode/auditTrail/auditIndex';",
  "export { buildDisplay, displayItems } from './client/src/vscode/auditTrail/auditView';",
  "export { busyAuditLine } from './test/support/busyAuditLog';",
]);

const lines = () => Array.from({ length: RECORDS }, (_, i) => panel.busyAuditLine(i + 1));

const time = (body) => {
  const started = performance.now();
  const value = body();
  return { ms: performance.now() - started, value };
};

function round(text) {
  const parse = time(() => text.map((line) => JSON.parse(line)));
  const indexed = time(() => {
    const built = new panel.AuditIndex();
    text.forEach((line, i) =>
      built.add(JSON.parse(line), { segment: 1 + Math.floor(i / 20_000), offset: i * 480 }),
    );
    return built;
  });
  const index = indexed.value;
  const view = (options) =>
    time(() => panel.buildDisplay(index, { filter: {}, newestFirst: false, ...options }));
  const flat = view({ groupByTrace: false });
  const filtered = view({
    filter: { serverId: 'example', types: ['TOOL_EXECUTED'] },
    groupByTrace: false,
  });
  const grouped = view({ groupByTrace: true });
  const window = time(() => panel.displayItems(index, grouped.value, 16_000, 100));
  return {
    parse: parse.ms,
    index: indexed.ms,
    views: flat.ms + filtered.ms + grouped.ms,
    flat: flat.ms,
    filtered: filtered.ms,
    grouped: grouped.ms,
    window: window.ms,
  };
}

const text = lines();
round(text); // warm-up
const rounds = Array.from({ length: RUNS }, () => round(text));
const median = (key) => rounds.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(RUNS / 2)];
const parse = median('parse');
console.log(
  `${RECORDS.toLocaleString('en-US')} records, median of ${RUNS} rounds (ms); load ${loadavg()[0].toFixed(1)}\n`,
);
console.log(`baseline: JSON.parse of every line      ${parse.toFixed(1).padStart(8)}`);
const rows = [
  ['index (JSON.parse included)', 'index', 3],
  ['views: all + filtered + grouped', 'views', 0.25],
  ['  all', 'flat'],
  ['  filtered', 'filtered'],
  ['  grouped by trace', 'grouped'],
  ['a window of 100 grouped rows', 'window'],
];
let met = true;
for (const [label, key, goal] of rows) {
  const ms = median(key);
  const ratio = ms / parse;
  if (goal) met &&= ratio <= goal;
  const verdict = goal
    ? `× ${ratio.toFixed(2)} (goal ≤ ${goal}: ${ratio <= goal ? 'met' : 'not met'})`
    : '';
  console.log(`${label.padEnd(40)} ${ms.toFixed(1).padStart(8)}  ${verdict}`.trimEnd());
}
console.log(`\ngoals ${met ? 'met' : 'not met'}`);
