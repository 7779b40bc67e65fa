// Benchmark: a document-sized query costs what its first 1,000 characters cost.
//
// The keyword search reads only the start of a query (normalizeQuery), so that a pasted document
// stays as quick as a sentence. Measures `keywordSearch` over the 17 servers of
// test/fixtures/discovery/corpus.json with queries of 20,000 characters (three shapes: dots, mixed
// case, repeated words), against the same search given what normalizeQuery keeps of each, same run.
// Goal: median long / median kept ≤ 1.5 (the cut happens before any work that grows with length).
//
// Run: node bench/long-query.mjs [--runs N]      (builds what it needs: no `npm run build` first)
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { bundleExports, root, scratchFolder } from './lib/bundle.mjs';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Math.max(1, Number(process.argv[runsArg + 1]) || 200) : 200;
const WARMUP = 20;
const GOAL = 1.5;

const work = scratchFolder('mgp-bench-long-query-');
const search = await bundleExports(work, 'search', [
  "export { createToolIndex, keywordSearch } from './client/src/kernel/discovery';",
  "export { normalizeQuery } from './client/src/kernel/search';",
]);

const corpus = JSON.parse(
  readFileSync(join(root, 'test/fixtures/discovery/corpus.json'), 'utf8'),
).servers;
const index = search.createToolIndex();
for (const server of corpus) index.upsertServer(server.id, server.tools);

const median = (times) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];

/** Times `keywordSearch` on `long` and on what is kept of it, alternating, after a warm-up. */
function compare(long) {
  const kept = search.normalizeQuery(long);
  const time = (query) => {
    const started = performance.now();
    search.keywordSearch(index, query);
    return performance.now() - started;
  };
  for (let i = 0; i < WARMUP; i++) {
    time(long);
    time(kept);
  }
  const longTimes = [];
  const keptTimes = [];
  for (let i = 0; i < RUNS; i++) {
    longTimes.push(time(long));
    keptTimes.push(time(kept));
  }
  return {
    chars: long.length,
    kept: kept.length,
    long: median(longTimes),
    short: median(keptTimes),
  };
}

const shapes = {
  'a. × 10,000': 'a.'.repeat(10_000),
  'aB × 10,000': 'aB'.repeat(10_000),
  'put  × 5,000': 'put '.repeat(5_000),
};
console.log(`keywordSearch, median of ${RUNS} runs each (ms); load ${loadavg()[0].toFixed(1)}\n`);
console.log(
  `${'query'.padEnd(14)} ${'chars'.padStart(7)} ${'kept'.padStart(6)} ${'long'.padStart(8)} ${'kept'.padStart(8)} ${'ratio'.padStart(7)}  goal ≤ ${GOAL}`,
);
let met = true;
for (const [name, long] of Object.entries(shapes)) {
  const r = compare(long);
  const ratio = r.long / r.short;
  met &&= ratio <= GOAL;
  console.log(
    `${name.padEnd(14)} ${String(r.chars).padStart(7)} ${String(r.kept).padStart(6)} ${r.long.toFixed(3).padStart(8)} ${r.short.toFixed(3).padStart(8)} ${ratio.toFixed(2).padStart(7)}  ${ratio <= GOAL ? 'met' : 'not met'}`,
  );
}
console.log(
  `\ngoal ${met ? 'met' : 'not met'}: a 20,000-character query costs what its kept part costs`,
);
