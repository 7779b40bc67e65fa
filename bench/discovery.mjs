// Benchmark: tool discovery (MGP §16) — query latency, index build time, tool-context tokens, ranking quality.
//
// Measures client/src/kernel/discovery, built here with esbuild (no `npm run build` needed), on the
// real corpus (test/fixtures/discovery/corpus.json: 17 MCP servers from npm, 178 tools) scaled up
// deterministically to 1,000 and 10,000 tools (bench/discovery/synthetic.mjs), and the query sets
// (test/fixtures/discovery/queries.json, dev and test halves; and the held-out sets
// queries-holdout.json, queries-holdout2.json, …: each written before the ranking changes that followed
// it, measured once, and only then studied for what the ranker lacked; from the fourth on, every query
// shares under half its words with any earlier one; from the fifteenth on, by a second author who read
// only the corpus. Each file says whether its misses were studied; the hit@5 goal is judged on the
// sets never studied, pooled).
// With the devDependencies installed it also measures the semantic strategy: EmbeddingRanker over the
// OpenAI embeddings API, served on loopback by a real sentence encoder (test/fixtures/models/
// embeddingModel.js: the Universal Sentence Encoder from npm), against the keyword strategy in the same run.
// Goals (from the issue): p50 ≤ 0.5 ms and p99 ≤ 3 ms per query at 1k and 10k tools; index build
// ≤ 300 ms at 10k; ≥ 98% fewer tool-context tokens than all tools in context at 500 tools; hit@5 ≥ 0.95.
// Baseline, in the same run and on the same texts: plain BM25 (one field, lower-cased words, no
// stemming, no camelCase splitting, no field weights, no synonyms, no category inference, no typo
// tolerance, no thesaurus, no query literals or filler words, no word groups or coverage, no name,
// server or phrase gains, no action factor, no example requests), built by the same code
// (PLAIN_ANALYSIS, PLAIN_SEARCH). The example requests of the corpus's tools (toolExamplesData.ts) come
// from the studied sets only; the bench also measures without them (what a tool no examples were
// written for gets), and leaves each server's examples out in turn (whether they push down a server
// that has none).
//
// Run: node bench/discovery.mjs [--runs N]     (N = passes over the query set for latency, default 10)
import * as esbuild from 'esbuild';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scaleCorpus, seededRandom } from './discovery/synthetic.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Math.max(1, Number(process.argv[runsArg + 1]) || 10) : 10;
const work = mkdtempSync(join(tmpdir(), 'mgp-bench-discovery-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

// ── 1. Build the discovery module from source ───────────────────────────────────────────────────
// As in the extension and CLI bundles: the cl100k tokenizer is a bundle of its own next to the
// module, loaded at first use (client/src/kernel/discovery/tokens.ts).
async function loadDiscovery() {
  await esbuild.build({
    entryPoints: {
      discovery: join(root, 'client/src/kernel/discovery/index.ts'),
      embeddings: join(root, 'client/src/kernel/models/openAiEmbeddings.ts'),
      tokenizer: join(root, 'client/src/kernel/discovery/cl100k.ts'),
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outdir: work,
    outExtension: { '.js': '.cjs' },
    logLevel: 'silent',
  });
  renameSync(join(work, 'tokenizer.cjs'), join(work, 'tokenizer.js'));
  return createRequire(import.meta.url)(join(work, 'discovery.cjs'));
}
const d = await loadDiscovery();
const { openAiEmbeddings } = createRequire(import.meta.url)(join(work, 'embeddings.cjs'));
if (d.tokenizerSource() !== 'bundle')
  throw new Error(`tokenizer loaded from ${d.tokenizerSource()}, not its bundle`);
const fixture = (name) =>
  JSON.parse(readFileSync(join(root, 'test/fixtures/discovery', name), 'utf8'));
const corpus = fixture('corpus.json').servers;
const { queries } = fixture('queries.json');
/** The held-out sets by name (`holdout`, `holdout2`, …), in the order they were written. */
const heldOut = new Map(
  readdirSync(join(root, 'test/fixtures/discovery'))
    .map((file) => /^queries-(holdout(\d*))\.json$/.exec(file))
    .filter(Boolean)
    .sort((a, b) => Number(a[2] || 1) - Number(b[2] || 1))
    .map((m) => [m[1], fixture(m[0])]),
);
const heldNames = [...heldOut.keys()];
const unstudied = heldNames.filter((name) => heldOut.get(name).studied === false);
const heldLabel = (name) => `holdout ${name.slice(7) || 1}`;

// ── 2. Helpers ──────────────────────────────────────────────────────────────────────────────────
const now = () => Number(process.hrtime.bigint()) / 1e6;
const quantile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const median = (values) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
const f2 = (x) => x.toFixed(2);
const f3 = (x) => x.toFixed(3);
const PLAIN_SEARCH = d.PLAIN_SEARCH;
const variants = {
  ours: { analysis: {}, search: {} },
  plain: { analysis: d.PLAIN_ANALYSIS, search: PLAIN_SEARCH },
};

function buildIndex(servers, analysis) {
  const index = d.createToolIndex({ analysis });
  for (const s of servers) index.upsertServer(s.id, s.tools);
  return index;
}

async function latency(servers, variant) {
  const index = buildIndex(servers, variant.analysis);
  const ctx = { index, cache: new d.SessionToolCache(), search: variant.search };
  const times = [];
  // Warm-up on the measured path (discover: search, schemas, token counts), not the search alone.
  for (let i = 0; i < 2; i++)
    for (const q of queries) await d.discover(ctx, { query: q.query, max_results: 5 });
  for (let run = 0; run < RUNS; run++) {
    for (const q of queries) {
      const start = now();
      await d.discover(ctx, { query: q.query, max_results: 5 });
      times.push(now() - start);
    }
  }
  const sorted = times.sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), n: sorted.length };
}

function buildTime(servers, variant, runs = 7) {
  buildIndex(servers, variant.analysis);
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = now();
    buildIndex(servers, variant.analysis);
    times.push(now() - start);
  }
  return median(times);
}

function quality(variant, split) {
  const index = buildIndex(corpus, variant.analysis);
  return measure(querySet(split), (q) => d.keywordSearch(index, q, {}, variant.search).results);
}

function querySet(split) {
  return heldOut.get(split)?.queries ?? queries.filter((q) => split === 'all' || q.split === split);
}

/** hit@1, hit@5 and MRR of rankings (one result list per query of the set). */
function tally(set, rankings) {
  let hit1 = 0,
    hit5 = 0,
    mrr = 0;
  set.forEach((q, i) => {
    const at = rankings[i].findIndex((r) => q.expected.includes(r.entry.tool_id));
    if (at === 0) hit1++;
    if (at >= 0 && at < 5) hit5++;
    if (at >= 0) mrr += 1 / (at + 1);
  });
  return { hit1: hit1 / set.length, hit5: hit5 / set.length, mrr: mrr / set.length, n: set.length };
}

const measure = (set, rank) =>
  tally(
    set,
    set.map((q) => rank(q.query)),
  );

async function measureAsync(set, rank) {
  const rankings = [];
  for (const q of set) rankings.push(await rank(q.query));
  return tally(set, rankings);
}

/** Figures of several sets as one (weighted by their sizes). */
function pooled(figures) {
  const n = figures.reduce((sum, f) => sum + f.n, 0);
  const mean = (key) => figures.reduce((sum, f) => sum + f[key] * f.n, 0) / n;
  return { hit1: mean('hit1'), hit5: mean('hit5'), mrr: mean('mrr'), n };
}

/**
 * The semantic strategy against the keyword one on the real corpus, with the embedding model on
 * loopback: quality on every set, and query latency (the query's embedding call included; the
 * tools' vectors are computed before, as the kernel does when servers connect).
 */
async function semantic() {
  let fixtureModule;
  try {
    fixtureModule = createRequire(import.meta.url)(
      join(root, 'test/fixtures/models/embeddingModel.js'),
    );
    if (!fixtureModule.embeddingModelInstalled()) return undefined;
  } catch {
    return undefined;
  }
  const model = await fixtureModule.startEmbeddingModel({});
  try {
    const index = buildIndex(corpus, {});
    const ranker = new d.EmbeddingRanker(
      openAiEmbeddings({ baseUrl: model.url, model: 'universal-sentence-encoder' }),
    );
    await ranker.warm(index.list());
    const rank = async (q) => (await d.semanticSearch(index, q, {}, { semantic: ranker })).results;
    const sets = {};
    for (const split of ['dev', 'test', ...heldNames])
      sets[split] = await measureAsync(querySet(split), rank);
    const times = { semantic: [], keyword: [] };
    for (let pass = 0; pass < 3; pass++) {
      for (const q of queries) {
        let start = now();
        await d.semanticSearch(index, q.query, {}, { semantic: ranker, limit: 5 });
        times.semantic.push(now() - start);
        start = now();
        d.keywordSearch(index, q.query, {}, { limit: 5 });
        times.keyword.push(now() - start);
      }
    }
    const stats = (t) => {
      const sorted = [...t].sort((a, b) => a - b);
      return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
    };
    return {
      sets,
      latency: { semantic: stats(times.semantic), keyword: stats(times.keyword) },
      tools: index.list().length,
    };
  } finally {
    await model.close();
  }
}

/**
 * The first index build of the process (JIT cold), and its first query: the first search of a process
 * indexes the example requests, the first after tools are listed matches them to those with examples.
 * The index is not kept (a 10k-tool index alive for the whole run would slow every later figure).
 */
function firstOfProcess() {
  const start = now();
  const index = buildIndex(at10k, {});
  const firstBuild = now() - start;
  const queryStart = now();
  d.keywordSearch(index, 'read a file', {}, { limit: 5 });
  return { firstBuild, firstQuery: now() - queryStart };
}

/**
 * Whether the example requests push down the tools that have none: each server in turn keeps its tools
 * but not their examples (its tools' names in capitals: the ranking reads them the same, and a record
 * goes only to a tool of its exact name), and its queries are measured with the examples and without.
 */
function leaveEachServerOut(set) {
  const id = (toolId) => toolId.toLowerCase();
  let withExamples = 0,
    without = 0,
    n = 0;
  for (const server of corpus) {
    const asked = set.filter((q) => q.expected.some((e) => e.startsWith(`${server.id}.`)));
    if (!asked.length) continue;
    const index = buildIndex(
      corpus.map((s) =>
        s === server
          ? { ...s, tools: s.tools.map((t) => ({ ...t, name: t.name.toUpperCase() })) }
          : s,
      ),
      {},
    );
    const hit = (q, examples) =>
      d
        .keywordSearch(index, q.query, {}, { limit: 5, examples })
        .results.some((r) => q.expected.map(id).includes(id(r.entry.tool_id)));
    for (const q of asked) {
      if (hit(q, true)) withExamples++;
      if (hit(q, false)) without++;
      n++;
    }
  }
  return { withExamples: withExamples / n, without: without / n, n };
}

/**
 * Tool-context tokens at 500 tools. All in context: every tool's JSON definition. Discovery: the two
 * meta-tools, plus a session of 10 intents (seeded) where each intent's discovery answer (top 5,
 * trimmed to the discovery reserve) is in context and its first tool is used, so it joins the cache
 * (LRU under the default budget): context = meta-tools + cached tools + the current answer.
 */
async function tokens(servers) {
  const index = buildIndex(servers, {});
  const all = index
    .list()
    .filter((e) => !e.kernel)
    .reduce((n, e) => n + d.toolTokens(e), 0);
  const meta = d.llmContextKernelTools(index).reduce((n, e) => n + d.toolTokens(e), 0);
  const random = seededRandom(7);
  const sessions = [];
  const answers = [];
  for (let s = 0; s < 50; s++) {
    const cache = new d.SessionToolCache();
    const ctx = { index, cache };
    let peak = 0;
    for (let i = 0; i < 10; i++) {
      const q = queries[Math.floor(random() * queries.length)];
      const answer = await d.discover(ctx, { query: q.query, max_results: 5 });
      const answerTokens = answer.tools.reduce((n, t) => n + d.toolTokens(index.get(t.tool_id)), 0);
      answers.push(meta + answerTokens);
      peak = Math.max(peak, meta + cache.pinnedTokens + cache.cachedTokens + answerTokens);
      if (answer.tools[0]) cache.use(index.get(answer.tools[0].tool_id));
    }
    sessions.push(peak);
  }
  return {
    tools: index.list().filter((e) => !e.kernel).length,
    all,
    meta,
    answer: median(answers),
    session: median(sessions),
  };
}

// ── 3. Run ──────────────────────────────────────────────────────────────────────────────────────
const at1k = scaleCorpus(corpus, 1000);
const at10k = scaleCorpus(corpus, 10000);
const { firstBuild, firstQuery } = firstOfProcess();
const at500 = scaleCorpus(corpus, 500);
const count = (servers) => servers.reduce((n, s) => n + s.tools.length, 0);
const results = {};
for (const [name, variant] of Object.entries(variants)) {
  results[name] = {
    lat1k: await latency(at1k, variant),
    lat10k: await latency(at10k, variant),
    build10k: buildTime(at10k, variant),
    dev: quality(variant, 'dev'),
    test: quality(variant, 'test'),
    ...Object.fromEntries(heldNames.map((name) => [name, quality(variant, name)])),
    all: quality(variant, 'all'),
  };
}
const withoutExamples = { analysis: {}, search: { examples: false } };
const bare = Object.fromEntries(
  ['dev', 'test', ...heldNames].map((name) => [name, quality(withoutExamples, name)]),
);
const fairness = leaveEachServerOut(unstudied.flatMap((name) => querySet(name)));
const tok = await tokens(at500);
const sem = await semantic();
// Each row adds one stage to the one above; the last is the ranker as shipped.
const stages = [
  ['+ stemming, camelCase, fields', {}],
  ['+ typo tolerance', { fuzzy: true }],
  ['+ synonyms, categories', { expansion: true }],
  ['+ thesaurus for unknown words', { thesaurus: true }],
  ['+ literals, filler words', { literals: true }],
  ['+ word groups, coverage', { grouping: true, coverage: d.COVERAGE }],
  [
    '+ name, server, phrase gains',
    { nameBoost: d.NAME_BOOST, serverBoost: d.SERVER_BOOST, phraseBoost: d.PHRASE_BOOST },
  ],
  ['+ action factor', { actionMismatch: d.ACTION_MISMATCH }],
  ['+ example requests', { examples: true }],
];
let cumulative = { ...PLAIN_SEARCH };
const ablations = stages.map(([label, step]) => {
  cumulative = { ...cumulative, ...step };
  const variant = { analysis: {}, search: cumulative };
  return [
    label,
    quality(variant, 'dev'),
    quality(variant, 'test'),
    ...heldNames.map((name) => quality(variant, name)),
  ];
});

// ── 4. Figures ──────────────────────────────────────────────────────────────────────────────────
const o = results.ours,
  p = results.plain;
const q = (r) => `hit@1 ${f3(r.hit1)}  hit@5 ${f3(r.hit5)}  MRR ${f3(r.mrr)}`;
const short = (r) => `${f3(r.hit1)} ${f3(r.hit5)} ${f3(r.mrr)}`;
const reduction = (x) => (1 - x / tok.all) * 100;
console.log(
  `corpus: ${corpus.length} servers, ${count(corpus)} real tools; scaled to ${count(at1k)} and ${count(at10k)}; ${queries.length} queries (${o.dev.n} dev, ${o.test.n} test), ${heldNames.map((name) => heldOut.get(name).queries.length).join(' + ')} held out`,
);
console.log(
  `latency: ${o.lat1k.n} discover calls per size (${RUNS} passes over the query set), max_results 5`,
);
console.log(`ablations, hit@1 hit@5 MRR (dev | test | holdout 1 to ${heldNames.length}):`);
for (const [label, ...sets] of ablations)
  console.log(`  ${label.padEnd(32)} ${sets.map(short).join('  |  ')}`);
console.log(
  `first index build in this process (10k tools, JIT cold): ${f2(firstBuild)} ms; its first query, which indexes the example requests and matches the 10k tools to them: ${f2(firstQuery)} ms; cl100k tokenizer from its ${d.tokenizerSource()}`,
);
console.log(
  `machine: node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0].toFixed(2)} at the end`,
);
console.log('');
console.log(
  'discovery                         ours                 plain BM25           ratio plain/ours',
);
const row2 = (label, a, b) =>
  console.log(`  ${label.padEnd(32)}${`${f2(a)} ms`.padEnd(21)}${f2(b)} ms`);
const row = (label, a, b, unit = 'ms') =>
  console.log(
    `  ${label.padEnd(32)}${`${f2(a)} ${unit}`.padEnd(21)}${`${f2(b)} ${unit}`.padEnd(21)}${f2(b / a)}×`,
  );
row('p50 query at 1k tools', o.lat1k.p50, p.lat1k.p50);
row('p99 query at 1k tools', o.lat1k.p99, p.lat1k.p99);
row('p50 query at 10k tools', o.lat10k.p50, p.lat10k.p50);
row('p99 query at 10k tools', o.lat10k.p99, p.lat10k.p99);
row('index build at 10k tools', o.build10k, p.build10k);
console.log(`  quality dev     (${o.dev.n})   ours ${q(o.dev)}   plain ${q(p.dev)}`);
console.log(`  quality test    (${o.test.n})   ours ${q(o.test)}   plain ${q(p.test)}`);
for (const name of heldNames)
  console.log(
    `  quality ${heldLabel(name).padEnd(10)} (${o[name].n}) ours ${q(o[name])}   plain ${q(p[name])}   (${heldOut.get(name).studied ? 'its misses studied' : 'never studied'})`,
  );
const fresh = pooled(unstudied.map((name) => o[name]));
console.log(
  `  quality never studied, pooled (${fresh.n}) ours ${q(fresh)}   plain ${q(pooled(unstudied.map((name) => p[name])))}   (${unstudied.map(heldLabel).join(', ')})`,
);
console.log(`  quality all     (${o.all.n})  ours ${q(o.all)}   plain ${q(p.all)}   (dev + test)`);
console.log(
  `  without the example requests (tools no examples were written for), never studied, pooled: ours ${q(pooled(unstudied.map((name) => bare[name])))}`,
);
console.log(
  `  a server whose tools have no examples, among servers whose tools have them (each in turn; ${fairness.n} never-studied queries): hit@5 ${f3(fairness.withExamples)} with the others' examples, ${f3(fairness.without)} with no examples at all`,
);
console.log(
  `  tokens at ${tok.tools} tools (cl100k): all in context ${tok.all}; meta-tools ${tok.meta}; meta + one answer (median) ${tok.answer} (${reduction(tok.answer).toFixed(1)}% fewer); 10-intent session peak, meta + cache + answer (median) ${tok.session} (${reduction(tok.session).toFixed(1)}% fewer)`,
);
if (sem) {
  console.log('');
  console.log(
    `semantic strategy (keyword ranking + embedding similarity; Universal Sentence Encoder on loopback), ${sem.tools} tools   semantic            keyword`,
  );
  row2('p50 query', sem.latency.semantic.p50, sem.latency.keyword.p50);
  row2('p99 query', sem.latency.semantic.p99, sem.latency.keyword.p99);
  for (const name of ['dev', 'test', ...heldNames])
    console.log(
      `  quality ${(heldOut.has(name) ? heldLabel(name) : name).padEnd(10)} semantic ${q(sem.sets[name])}   keyword ${q(o[name])}`,
    );
  console.log(
    `  quality never studied, pooled (${fresh.n}) semantic ${q(pooled(unstudied.map((name) => sem.sets[name])))}   keyword ${q(fresh)}`,
  );
} else
  console.log(
    'semantic strategy: not measured (the embedding model is a devDependency: npm install)',
  );
const goal = (ok) => (ok ? 'met' : 'not met');
console.log(
  `  goals: p50 ≤ 0.5 ms ${goal(o.lat1k.p50 <= 0.5 && o.lat10k.p50 <= 0.5)}; p99 ≤ 3 ms ${goal(o.lat1k.p99 <= 3 && o.lat10k.p99 <= 3)}; build ≤ 300 ms ${goal(o.build10k <= 300)}; ≥ 98% fewer tokens ${goal(reduction(tok.session) >= 98)} (session), ${goal(reduction(tok.answer) >= 98)} (one answer); hit@5 ≥ 0.95 ${goal(fresh.hit5 >= 0.95)} (on the sets never studied, pooled: keyword ${f3(fresh.hit5)}${sem ? `, semantic ${f3(pooled(unstudied.map((name) => sem.sets[name])).hit5)}` : ''})`,
);
