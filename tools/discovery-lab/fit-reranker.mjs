// A learned reranker of the semantic strategy's best candidates, fit and measured apart from the
// product: is the order of the candidates the ranking already finds something a model over the
// features it computes per candidate can improve? Pairwise logistic regression (RankNet with a
// linear scorer; Burges et al., 2005) on the training split, measured on dev against the fused
// order it reranks. Test sets are never read here.
//
// Features of a candidate, each from the ranking's own parts, switched on and off:
// - the fused score and rank, the keyword score over the query's best and its rank;
// - each gain as the factor it applied (the score with it over the score without it);
// - each field's BM25 score alone, over the query's best in that field;
// - the model's similarity above the query's mean, over the best's, and its neighbour rank;
// - the model's similarity of the request to the tool's name alone, and to its description alone.
// With --quadratic, the products of every two features are features too. With --maxsim, two features
// that read the request and the tool word by word (late interaction, as ColBERT's MaxSim, here over
// the model's word vectors): the mean over the request's words of each one's best cosine to a word of
// the tool's name and lead, and the share of the request's words whose best is above 0.5.
//
// Run: node tools/discovery-lab/fit-reranker.mjs [--depth N] [--quadratic] [--maxsim]
import { bundleExports, scratchFolder } from '../../bench/lib/bundle.mjs';
import { discoveryFixtures, loadDiscovery, rankMetrics } from './load.mjs';

const at = process.argv.indexOf('--depth');
const DEPTH = at > 0 ? Number(process.argv[at + 1]) : 20;
const FIELDS = ['name', 'server', 'description', 'details', 'categories', 'keywords', 'params'];
const GAINS = {
  name: { nameBoost: 0 },
  server: { serverBoost: 0 },
  phrase: { phraseBoost: 0 },
  action: { actionMismatch: 1 },
  coverage: { coverage: 0 },
};

const work = scratchFolder('mgp-fit-reranker-');
const d = await loadDiscovery(work);
const { corpus, sets } = discoveryFixtures();
const build = (analysis) => {
  const index = d.createToolIndex(analysis ? { analysis } : {});
  for (const server of corpus) index.upsertServer(server.id, server.tools);
  return index;
};
const full = build();
const byField = Object.fromEntries(
  FIELDS.map((field) => {
    const weights = Object.fromEntries(FIELDS.map((f) => [f, f === field ? 1 : 1e-9]));
    return [field, build({ ...d.DEFAULT_ANALYSIS, weights })];
  }),
);
const ranker = new d.ModelRanker({ load: () => d.loadStaticModel(work) });
await ranker.warm(full);
const visible = (doc) => full.visibleAt(doc);
const staticModel = d.loadStaticModel(work);
/** The cosine of two unit vectors (the model's `embed` gives unit vectors, or zeros). */
function cosine(a, b) {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}
const fieldVectors = new Map();
/** The model's vectors of a tool's name (words split) and of its description, apart. */
function vectorsOf(entry) {
  if (!fieldVectors.has(entry.tool_id)) {
    const name = entry.name.replace(/[_\-.]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2');
    fieldVectors.set(entry.tool_id, [
      staticModel.embed(name.toLowerCase()),
      staticModel.embed(String(entry.description ?? '').toLowerCase()),
    ]);
  }
  return fieldVectors.get(entry.tool_id);
}
const tools = full.list().length;

const MAXSIM = process.argv.includes('--maxsim');
const text = await bundleExports(scratchFolder('mgp-fit-reranker-text-'), 'text', [
  "export { isStopWord, splitWords } from './client/src/kernel/search/text';",
  "export { normalizeQuery } from './client/src/kernel/search/queryText';",
]);
const wordVectors = new Map();
/** The model's unit vectors of a text's distinct content words (the words it knows). */
function wordVectorsOf(words) {
  const distinct = new Set(text.splitWords(words).map((w) => w.toLowerCase()));
  const vectors = [];
  for (const w of distinct) {
    if (w.length < 2 || text.isStopWord(w)) continue;
    if (!wordVectors.has(w)) wordVectors.set(w, staticModel.embed(w));
    const v = wordVectors.get(w);
    if (v.some((x) => x !== 0)) vectors.push(v);
  }
  return vectors;
}
const toolWords = new Map();
/** Per request word, its best cosine to a word of the tool's name and lead: their mean, and the share above 0.5. */
function maxSim(requestWords, entry) {
  if (!toolWords.has(entry.tool_id)) {
    const { name, lead } = d.toolText(entry);
    toolWords.set(entry.tool_id, wordVectorsOf(`${name} ${lead}`));
  }
  const words = toolWords.get(entry.tool_id);
  if (!requestWords.length || !words.length) return [0, 0];
  let sum = 0;
  let close = 0;
  for (const a of requestWords) {
    let best = -1;
    for (const b of words) best = Math.max(best, cosine(a, b));
    sum += best;
    if (best > 0.5) close++;
  }
  return [sum / requestWords.length, close / requestWords.length];
}

/** Tool id → score, and the best score, of a keyword search with these options. */
function scores(index, query, options) {
  const { results } = d.keywordSearch(index, query, {}, options);
  return { of: new Map(results.map((r) => [r.entry.tool_id, r.score])), best: results[0]?.score };
}

const ratio = (a, b) => (a > 0 && b > 0 ? Math.log(a / b) : 0);

/** The candidates of one request, in fused order, each with its feature vector. */
async function candidates(query) {
  const fused = await d.semanticSearch(full, query, {}, { semantic: ranker });
  const top = fused.results.slice(0, DEPTH);
  const keyword = d.keywordSearch(full, query, {}, {});
  const keywordRank = new Map(keyword.results.map((r, i) => [r.entry.tool_id, i]));
  const kw = scores(full, query, {});
  const without = Object.fromEntries(
    Object.entries(GAINS).map(([name, options]) => [name, scores(full, query, options)]),
  );
  const plain = { nameBoost: 0, serverBoost: 0, phraseBoost: 0, actionMismatch: 1, coverage: 0 };
  const fields = Object.fromEntries(
    FIELDS.map((field) => [field, scores(byField[field], query, plain)]),
  );
  const model = await ranker.match(query, full, visible, tools);
  const nearRank = new Map(model.nearest.map((n, i) => [full.entryAt(n.doc).tool_id, i]));
  const similarities = new Map(
    model.nearest.map((n) => [full.entryAt(n.doc).tool_id, n.similarity]),
  );
  const topSimilarity = model.nearest[0]?.similarity ?? 1;
  const spread = topSimilarity - model.mean || 1;
  const q = staticModel.embed(query.toLowerCase());
  const requestWords = MAXSIM ? wordVectorsOf(text.normalizeQuery(query)) : [];
  return top.map((r, rank) => {
    const id = r.entry.tool_id;
    const [nameVector, descriptionVector] = vectorsOf(r.entry);
    const doc = full.docOf(r.entry);
    const similarity =
      similarities.get(id) ?? (doc !== undefined ? model.similarityAt(doc) : model.mean);
    const score = kw.of.get(id) ?? 0;
    const x = [
      r.relevance,
      1 / (rank + 1),
      kw.best ? score / kw.best : 0,
      keywordRank.has(id) ? 1 / (keywordRank.get(id) + 1) : 0,
      ...Object.values(without).map((w) => ratio(score, w.of.get(id))),
      ...FIELDS.map((f) => (fields[f].best ? (fields[f].of.get(id) ?? 0) / fields[f].best : 0)),
      (similarity - model.mean) / spread,
      nearRank.has(id) ? 1 / (nearRank.get(id) + 1) : 0,
      cosine(q, nameVector),
      cosine(q, descriptionVector),
      ...(MAXSIM ? maxSim(requestWords, r.entry) : []),
    ];
    return { id, x };
  });
}

async function featurize(set) {
  const out = [];
  for (const request of set) {
    const list = await candidates(request.query);
    out.push({ list, positive: list.findIndex((c) => request.expected.includes(c.id)) });
  }
  return out;
}

const started = Date.now();
const train = await featurize(sets.train);
const dev = await featurize(sets.dev);
console.log(
  `features of ${train.length} train and ${dev.length} dev requests, the best ${DEPTH} fused ` +
    `candidates each, in ${((Date.now() - started) / 1000).toFixed(0)} s`,
);

// Standardized on the training candidates.
const width = train[0].list[0].x.length;
const mean = new Float64Array(width);
const sd = new Float64Array(width);
const all = train.flatMap((r) => r.list.map((c) => c.x));
for (const x of all) for (let j = 0; j < width; j++) mean[j] += x[j] / all.length;
for (const x of all) for (let j = 0; j < width; j++) sd[j] += (x[j] - mean[j]) ** 2 / all.length;
for (let j = 0; j < width; j++) sd[j] = Math.sqrt(sd[j]) || 1;
const z = (x) => x.map((v, j) => (v - mean[j]) / sd[j]);
const QUADRATIC = process.argv.includes('--quadratic');
/** With --quadratic, every product of two standardized features too (their interactions). */
const expand = (v) =>
  QUADRATIC ? [...v, ...v.flatMap((a, i) => v.slice(i).map((b) => a * b))] : v;
for (const r of [...train, ...dev]) for (const c of r.list) c.z = expand(z(c.x));
const size = train[0].list[0].z.length;

const dot = (w, x) => x.reduce((s, v, j) => s + v * w[j], 0);

/** Pairwise logistic loss: the expected tool over each other candidate, by full-batch gradient descent with L2. */
function fit(requests, { epochs = 300, rate = 0.5, l2 = 1e-3 } = {}) {
  const w = new Float64Array(size);
  const usable = requests.filter((r) => r.positive >= 0);
  for (let epoch = 0; epoch < epochs; epoch++) {
    const grad = new Float64Array(size);
    let pairs = 0;
    for (const r of usable) {
      const pos = r.list[r.positive].z;
      const sPos = dot(w, pos);
      for (let i = 0; i < r.list.length; i++) {
        if (i === r.positive) continue;
        const neg = r.list[i].z;
        const p = 1 / (1 + Math.exp(sPos - dot(w, neg)));
        for (let j = 0; j < size; j++) grad[j] += p * (neg[j] - pos[j]);
        pairs++;
      }
    }
    for (let j = 0; j < size; j++) w[j] -= rate * (grad[j] / pairs + l2 * w[j]);
  }
  return w;
}

/** Ranks of the expected tool after reranking by `w` (the fused order breaks ties). */
function reranked(requests, w) {
  return requests.map((r) => {
    if (r.positive < 0) return -1;
    const order = r.list
      .map((c, i) => ({ i, s: w ? dot(w, c.z) : -i }))
      .sort((a, b) => b.s - a.s || a.i - b.i);
    return order.findIndex((o) => o.i === r.positive);
  });
}

const f3 = (x) => x.toFixed(3);
const show = (label, m) =>
  console.log(`${label.padEnd(34)} hit@1 ${f3(m.hit1)}  hit@5 ${f3(m.hit5)}  MRR ${f3(m.mrr)}`);
show('fused order, train', rankMetrics(reranked(train, undefined)));
show('fused order, dev', rankMetrics(reranked(dev, undefined)));
for (const l2 of [1e-4, 1e-3, 1e-2]) {
  const w = fit(train, { l2 });
  show(`reranked (l2 ${l2}), train`, rankMetrics(reranked(train, w)));
  show(`reranked (l2 ${l2}), dev`, rankMetrics(reranked(dev, w)));
}
process.exit(0);
