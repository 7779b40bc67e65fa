// Benchmark: tool discovery (MGP §16) — ranking quality with 95% bootstrap intervals, query latency,
// index build time, tool-context tokens.
//
// Built here from source with esbuild (no `npm run build` needed). Data (test/fixtures/discovery):
// - corpus.json: 17 MCP servers from npm (178 tools), the servers the ranker was developed on;
// - queries-studied-NN.json: requests for them whose misses were studied, frozen into a training split
//   ("train", for fitting) and a dev split ("dev", for choices); queries-test-NN.json: requests for them
//   never studied (the seen-servers test split);
// - unseen-corpus.json: 10 MCP servers from npm the ranker has never seen (161 tools), and
//   queries-unseen.json: requests for them written before any ranking ran on them (unseen-servers test).
// Test data is measured here, never studied.
//
// Strategies, side by side in one run: plain BM25 (one field, lower-cased words, no stemming, no
// gains: the textbook baseline, PLAIN_ANALYSIS + PLAIN_SEARCH) and keyword (the engine, the default:
// BM25F over fields, stemming, typo tolerance, synonyms, thesaurus, literal values, gains). The
// semantic strategy ranks with the user's own embedding endpoint, so it is not measured here; the
// discovery lab (tools/discovery-lab) measures it over a static model.
// The unseen servers are ranked in an index of their own tools (as a user with those servers would).
// Ablations: each surviving query rule turned off in turn, on dev and on the unseen servers.
// Goals (issue): unseen hit@5 ≥ 0.93 and hit@1 ≥ 0.75; seen test no worse than 0.92 (the former rules
// without examples); query p50 ≤ 1 ms and p99 ≤ 5 ms at 10k tools; index build for 10k ≤ 2 s.
//
// Run: node bench/discovery.mjs [--runs N] [--sets dev,seen test,unseen]
//   --runs N  passes over the dev queries for latency (default 3)
//   --sets    the query sets whose quality is measured (default all three)
import {
  discoveryFixtures,
  loadDiscovery,
  quantile,
  rankMetrics,
  ranksOf,
  withIntervals,
} from './lib/discovery.mjs';
import { scaleCorpus } from './lib/synthetic.mjs';
import { scratchFolder } from './lib/bundle.mjs';

const argAt = (name) => process.argv.indexOf(name);
const RUNS = argAt('--runs') > 0 ? Math.max(1, Number(process.argv[argAt('--runs') + 1]) || 3) : 3;
const QUALITY_SETS =
  argAt('--sets') > 0
    ? process.argv[argAt('--sets') + 1].split(',')
    : ['dev', 'seen test', 'unseen'];
const work = scratchFolder('mgp-bench-discovery-');

// ── 1. The discovery module, bundled as the extension bundles it (tokenizer beside it) ──────────
const d = await loadDiscovery(work);
const { corpus, unseenCorpus, sets: SETS } = discoveryFixtures();
for (const set of QUALITY_SETS)
  if (!SETS[set]) throw new Error(`--sets: no set ${set} (dev, seen test, unseen)`);

// ── 2. Measures ──────────────────────────────────────────────────────────────────────────────────
const now = () => Number(process.hrtime.bigint()) / 1e6;
const f3 = (x) => x.toFixed(3);

function buildIndex(servers, analysis) {
  const index = d.createToolIndex({ analysis });
  for (const s of servers) index.upsertServer(s.id, s.tools);
  return index;
}

const indexes = {
  seen: { ours: buildIndex(corpus, {}), plain: buildIndex(corpus, d.PLAIN_ANALYSIS) },
  unseen: { ours: buildIndex(unseenCorpus, {}), plain: buildIndex(unseenCorpus, d.PLAIN_ANALYSIS) },
};
const indexOf = (set) => (set === 'unseen' ? 'unseen' : 'seen');

const STRATEGIES = {
  'plain BM25': (set) => (q) =>
    d.keywordSearch(indexes[indexOf(set)].plain, q, {}, { ...d.PLAIN_SEARCH, limit: 10 }).results,
  keyword:
    (set, options = {}) =>
    (q) =>
      d.keywordSearch(indexes[indexOf(set)].ours, q, {}, { ...options, limit: 10 }).results,
};

console.log('\nQuality (hit@1, hit@5, MRR with 95% bootstrap intervals)');
const table = [];
for (const set of QUALITY_SETS) {
  for (const [name, strategy] of Object.entries(STRATEGIES)) {
    const m = withIntervals(await ranksOf(SETS[set], strategy(set)));
    table.push({ set, strategy: name, n: m.n, 'hit@1': m.hit1, 'hit@5': m.hit5, MRR: m.mrr });
  }
}
console.table(table);

// ── 3. Ablations: each surviving query rule off, on dev and on the unseen servers ────────────────
const ABLATIONS = {
  'engine as shipped': {},
  'no literal values, dictation or filler words': { literals: false },
  'no action factor': { actionMismatch: 1 },
  'no synonyms, categories or thesaurus': { expansion: false },
  'no thesaurus': { thesaurus: false },
  'no typo tolerance': { fuzzy: false },
  'no name, server or phrase gains': { nameBoost: 0, serverBoost: 0, phraseBoost: 0 },
};
const ablationSets = ['dev', 'unseen'].filter((set) => QUALITY_SETS.includes(set));
console.log('\nAblations of the keyword strategy (hit@5 / MRR)');
const ablation = [];
for (const [name, options] of Object.entries(ABLATIONS)) {
  const row = { variant: name };
  for (const set of ablationSets) {
    const m = rankMetrics(await ranksOf(SETS[set], STRATEGIES.keyword(set, options)));
    row[set] = `${f3(m.hit5)} / ${f3(m.mrr)}`;
  }
  ablation.push(row);
}
console.table(ablation);

// ── 4. Latency and build time at 1k and 10k tools, beside plain BM25 in the same run ────────────
function latency(servers) {
  const index = buildIndex(servers, {});
  const plain = buildIndex(servers, d.PLAIN_ANALYSIS);
  const times = { plain: [], keyword: [] };
  for (let run = -1; run < RUNS; run++) {
    for (const q of SETS.dev) {
      let start = now();
      d.keywordSearch(plain, q.query, {}, { ...d.PLAIN_SEARCH, limit: 5 });
      const bm25 = now() - start;
      start = now();
      d.keywordSearch(index, q.query, {}, { limit: 5 });
      const keyword = now() - start;
      if (run >= 0) {
        times.plain.push(bm25);
        times.keyword.push(keyword);
      }
    }
  }
  for (const t of Object.values(times)) t.sort((a, b) => a - b);
  const stats = (t) =>
    `${quantile(t, 0.5).toFixed(2)} / ${quantile(t, 0.99).toFixed(2)} (×${(quantile(t, 0.5) / quantile(times.plain, 0.5)).toFixed(1)})`;
  return { plain: stats(times.plain), keyword: stats(times.keyword) };
}

function buildTime(servers) {
  buildIndex(servers, {});
  const times = [];
  for (let i = 0; i < 5; i++) {
    const start = now();
    buildIndex(servers, {});
    times.push(now() - start);
  }
  return quantile(
    times.sort((a, b) => a - b),
    0.5,
  );
}

console.log(
  "\nLatency (p50 / p99 ms per query, dev queries; ×: p50 over plain BM25's) and build time",
);
const perf = [];
for (const size of [1000, 10000]) {
  const servers = scaleCorpus(corpus, size);
  const l = latency(servers);
  perf.push({
    tools: size,
    'plain BM25': l.plain,
    keyword: l.keyword,
    'index build ms': buildTime(servers).toFixed(0),
  });
}
console.table(perf);

// ── 5. Tool-context tokens at 500 tools (MGP §16.3) ─────────────────────────────────────────────
const index500 = buildIndex(scaleCorpus(corpus, 500), {});
const allTokens = index500
  .list()
  .filter((e) => !e.kernel)
  .reduce((n, e) => n + d.toolTokens(e), 0);
const meta = d.llmContextKernelTools(index500).reduce((n, e) => n + d.toolTokens(e), 0);
const answers = [];
for (const q of SETS.dev.slice(0, 100)) {
  const answer = await d.discover(
    { index: index500, cache: new d.SessionToolCache() },
    { query: q.query, max_results: 5 },
  );
  answers.push(meta + answer.tools.reduce((n, t) => n + d.toolTokens(index500.get(t.tool_id)), 0));
}
const answer = quantile(
  answers.sort((a, b) => a - b),
  0.5,
);
console.log(
  `\nTool-context tokens at 500 tools: all in context ${allTokens}; meta-tools + one discovery answer ${answer} (median), ${((1 - answer / allTokens) * 100).toFixed(1)}% fewer`,
);
process.exit(0);
