// Whether the static model earns its place: the semantic strategy over it (the keyword ranking fused
// with the model's similarities, as the extension shipped it) against the keyword strategy alone, in
// one run: hit@1, hit@5 and MRR with 95% bootstrap intervals on the dev split; with --held-out also
// on the seen-servers test split and the unseen servers (measured, never studied: read the figures,
// tune nothing on them). With --fit, the fusion's fit on the training split (fusionWeights.ts). Then
// the query latency of both at 1,000 and 10,000 synthetic tools, the time to compute the model's tool
// vectors, and the recall@10 of the model's two-stage nearest-neighbour search against an exact one.
//
// Run: node tools/discovery-lab/compare-model.mjs [--held-out] [--fit] [--runs N]
import { quantile, ranksOf, withIntervals } from '../../bench/lib/discovery.mjs';
import { scaleCorpus } from '../../bench/lib/synthetic.mjs';
import { scratchFolder } from '../../bench/lib/bundle.mjs';
import { discoveryFixtures, loadDiscovery, rankMetrics } from './load.mjs';

const argAt = (name) => process.argv.indexOf(name);
const RUNS = argAt('--runs') > 0 ? Math.max(1, Number(process.argv[argAt('--runs') + 1]) || 3) : 3;
const HELD_OUT = argAt('--held-out') > 0;
const FIT = argAt('--fit') > 0;
const work = scratchFolder('mgp-lab-compare-model-');
const d = await loadDiscovery(work);
const model = d.loadStaticModel(work);
const { corpus, unseenCorpus, sets: SETS } = discoveryFixtures();
const now = () => Number(process.hrtime.bigint()) / 1e6;
const f3 = (x) => x.toFixed(3);

async function withModel(servers) {
  const index = d.createToolIndex({});
  for (const s of servers) index.upsertServer(s.id, s.tools);
  const ranker = new d.ModelRanker({ load: () => model });
  await ranker.warm(index);
  return { index, ranker };
}

const seen = await withModel(corpus);
const unseen = HELD_OUT ? await withModel(unseenCorpus) : undefined;
const sideOf = (set) => (set === 'unseen' ? unseen : seen);
const STRATEGIES = {
  keyword: (set) => (q) => d.keywordSearch(sideOf(set).index, q, {}, { limit: 10 }).results,
  semantic:
    (set, options = {}) =>
    async (q) => {
      const { index, ranker } = sideOf(set);
      const outcome = await d.semanticSearch(
        index,
        q,
        {},
        { semantic: ranker, limit: 10, ...options },
      );
      return outcome.results;
    },
};

console.log('\nQuality (hit@1, hit@5, MRR with 95% bootstrap intervals)');
const table = [];
for (const set of HELD_OUT ? ['dev', 'seen test', 'unseen'] : ['dev']) {
  for (const [name, strategy] of Object.entries(STRATEGIES)) {
    const m = withIntervals(await ranksOf(SETS[set], strategy(set)));
    table.push({ set, strategy: name, n: m.n, 'hit@1': m.hit1, 'hit@5': m.hit5, MRR: m.mrr });
  }
}
console.table(table);

if (FIT) {
  console.log('\nFusion fit on the training split (MRR)');
  const fits = [];
  for (const fusion of [
    ...[0, 0.1, 0.2, 0.35, 0.5].map((semantic) => ({ method: 'blend', keyword: 1, semantic })),
    { method: 'rrf', k: 5 },
    { method: 'rrf', k: 20 },
    { method: 'rrf', k: 60 },
  ]) {
    const m = rankMetrics(await ranksOf(SETS.train, STRATEGIES.semantic('train', { fusion })));
    fits.push({ fusion: JSON.stringify(fusion), 'hit@5': f3(m.hit5), MRR: f3(m.mrr) });
  }
  console.table(fits);
}

async function latency(servers) {
  const index = d.createToolIndex({});
  for (const s of servers) index.upsertServer(s.id, s.tools);
  const ranker = new d.ModelRanker({ load: () => model });
  const warmStart = now();
  await ranker.warm(index);
  const vectors = now() - warmStart;
  const times = { keyword: [], semantic: [] };
  for (let run = -1; run < RUNS; run++)
    for (const q of SETS.dev) {
      let start = now();
      d.keywordSearch(index, q.query, {}, { limit: 5 });
      const keyword = now() - start;
      start = now();
      await d.semanticSearch(index, q.query, {}, { semantic: ranker, limit: 5 });
      const semantic = now() - start;
      if (run >= 0) {
        times.keyword.push(keyword);
        times.semantic.push(semantic);
      }
    }
  for (const t of Object.values(times)) t.sort((a, b) => a - b);
  const stats = (t) => `${quantile(t, 0.5).toFixed(2)} / ${quantile(t, 0.99).toFixed(2)}`;
  return { keyword: stats(times.keyword), semantic: stats(times.semantic), vectors, index };
}

/** How often the two-stage search finds the exact nearest neighbours (those of a search on every coordinate). */
async function twoStageRecall(index) {
  const visible = (doc) => index.visibleAt(doc);
  const fast = new d.ModelRanker({ load: () => model });
  const exact = new d.ModelRanker({ load: () => model, coarseDims: model.dims });
  await fast.warm(index);
  await exact.warm(index);
  // A neighbour found counts when it is as similar as the exact tenth (tools of replicated servers tie).
  let recall = 0;
  for (const q of SETS.dev) {
    const found = (await fast.match(q.query, index, visible, 10)).nearest;
    const truth = (await exact.match(q.query, index, visible, 10)).nearest;
    const tenth = truth[truth.length - 1]?.similarity ?? -Infinity;
    recall += found.filter((n) => n.similarity >= tenth - 1e-6).length / Math.max(1, truth.length);
  }
  return recall / SETS.dev.length;
}

console.log(
  `\nLatency (p50 / p99 ms per query, dev queries); ${d.COARSE_DIMS} coordinates then ${d.COARSE_POOL} tools rescored`,
);
const perf = [];
for (const size of [1000, 10000]) {
  const l = await latency(scaleCorpus(corpus, size));
  perf.push({
    tools: size,
    keyword: l.keyword,
    semantic: l.semantic,
    'model vectors ms': l.vectors.toFixed(0),
    'two-stage recall@10': f3(await twoStageRecall(l.index)),
  });
}
console.table(perf);
process.exit(0);
