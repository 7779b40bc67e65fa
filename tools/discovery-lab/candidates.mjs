// Where the expected tool of each dev request sits in each ranking the semantic strategy has: the
// fused order it answers with, the keyword ranking and the model's nearest neighbours, as recall at
// 1, 5, 10, 20, 50 and 100. The gap between the fused order's hit@5 and the candidates' recall is
// what a better ordering of the same candidates (a reranker) could gain; the candidates' recall is
// what it could not. Reads the dev split of the studied requests only, never test data.
//   node tools/discovery-lab/candidates.mjs
import { scratchFolder } from '../../bench/lib/bundle.mjs';
import { corpusWithModel, discoveryFixtures, loadDiscovery } from './load.mjs';

const DEPTHS = [1, 5, 10, 20, 50, 100];

const work = scratchFolder('mgp-bench-candidates-');
const d = await loadDiscovery(work);
const { corpus, sets } = discoveryFixtures();
const { index, ranker } = await corpusWithModel(d, work, corpus);
const visible = (doc) => index.visibleAt(doc);
const tools = index.list().length;

const ranks = { fused: [], keyword: [], model: [] };
for (const request of sets.dev) {
  const expected = (toolId) => request.expected.includes(toolId);
  const fused = await d.semanticSearch(index, request.query, {}, { semantic: ranker });
  ranks.fused.push(fused.results.findIndex((r) => expected(r.entry.tool_id)));
  const keyword = d.keywordSearch(index, request.query, {}, {});
  ranks.keyword.push(keyword.results.findIndex((r) => expected(r.entry.tool_id)));
  const model = await ranker.match(request.query, index, visible, tools);
  ranks.model.push(model.nearest.findIndex((n) => expected(index.entryAt(n.doc).tool_id)));
}

const recall = (found, depth) => found.filter((r) => r >= 0 && r < depth).length / found.length;
console.log(`dev: ${sets.dev.length} requests over the ${tools} tools of corpus.json`);
console.log(['ranking'.padEnd(8), ...DEPTHS.map((n) => `@${n}`.padStart(6))].join(' '));
for (const [name, found] of Object.entries(ranks))
  console.log(
    [name.padEnd(8), ...DEPTHS.map((n) => recall(found, n).toFixed(3).padStart(6))].join(' '),
  );
// The fusion's candidates: the keyword ranking's pool and the model's nearest neighbours.
const pooled = (r, depth) => r >= 0 && r < depth;
const inPool = ranks.keyword.filter(
  (r, i) => pooled(r, d.KEYWORD_POOL) || pooled(ranks.model[i], d.NEIGHBOUR_POOL),
).length;
console.log(
  `the fusion's candidates (keyword best ${d.KEYWORD_POOL}, model nearest ${d.NEIGHBOUR_POOL})` +
    ` hold it: ${(inPool / sets.dev.length).toFixed(3)}`,
);
process.exit(0);
