// Measures a query adapter for the semantic strategy: a linear map W (dims x dims) applied to a request's
// vector before it is compared with tools' vectors, so that requests land nearer the tools that
// serve them (an asymmetric query tower, as in dual-encoder retrieval), fit on the training split of
// the studied requests and regularised towards the identity by lambda * ||W - I||^2. Nothing here is
// shipped: it measures whether such a map would carry to servers it was not fit on.
//
// Settings are compared by server-grouped cross-validation: the 17
// servers are cut into folds; a fit on the training requests of the other folds' servers is scored
// on the dev requests of the held-out servers, ranked among those servers' tools only. That asks
// what the issue asks, how well the map carries to servers it was not fit on, which a dev split of
// the same servers cannot tell. Test data (queries-test-*, queries-unseen) is never read here.
//
// Two fits: ridge regression onto the mean of the positives' vectors (closed form), and, with
// --contrastive, full-batch Adam on the softmax loss (slow: minutes per fold and setting).
//
// Run: node tools/discovery-lab/fit-adapter.mjs [--contrastive] [--folds 0,3]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, scratchFolder } from '../../bench/lib/bundle.mjs';
import { loadDiscovery, rankMetrics } from './load.mjs';

const at = process.argv.indexOf('--folds');
const work = scratchFolder('mgp-fit-adapter-');
const d = await loadDiscovery(work);

const fixtures = join(root, 'test/fixtures/discovery');
const corpus = JSON.parse(readFileSync(join(fixtures, 'corpus.json'), 'utf8')).servers;
const studied = readdirSync(fixtures)
  .filter((f) => f.startsWith('queries-studied-'))
  .sort()
  .flatMap((f) => JSON.parse(readFileSync(join(fixtures, f), 'utf8')).queries);

const model = d.loadStaticModel(work);
const dims = model.dims;
const tools = corpus.flatMap((s) =>
  s.tools.map((t) => ({
    id: `${s.id}.${t.name}`,
    server: s.id,
    vector: d.toolVector(model, d.toolText(d.toEntry(s.id, t))),
  })),
);
const toolRow = new Map(tools.map((t, i) => [t.id, i]));
const embedQuery = (text) => {
  const v = new Float32Array(dims);
  model.addText(d.normalizeQuery(text), v);
  return d.normalize(v);
};
const requests = studied
  .map((q) => ({
    split: q.split,
    vector: embedQuery(q.query),
    positives: q.expected.map((id) => toolRow.get(id)).filter((i) => i !== undefined),
  }))
  .filter((q) => q.positives.length);

/**
 * Ridge regression of the mean of a request's positives' vectors on the request's vector, shrunk
 * towards the identity: W = (T'Q + lambda I)(Q'Q + lambda I)^-1. Closed form.
 */
function fitRidge(train, _candidates, { lambda }) {
  const QQ = new Float64Array(dims * dims);
  const TQ = new Float64Array(dims * dims);
  const target = new Float64Array(dims);
  for (const q of train) {
    target.fill(0);
    for (const p of q.positives) {
      const t = tools[p].vector;
      for (let k = 0; k < dims; k++) target[k] += t[k] / q.positives.length;
    }
    for (let a = 0; a < dims; a++)
      for (let b = 0; b < dims; b++) {
        QQ[a * dims + b] += q.vector[a] * q.vector[b];
        TQ[a * dims + b] += target[a] * q.vector[b];
      }
  }
  for (let a = 0; a < dims; a++) {
    QQ[a * dims + a] += lambda;
    TQ[a * dims + a] += lambda;
  }
  // W = TQ * QQ^-1, i.e. W' solves QQ W' = TQ' (QQ is symmetric).
  return transpose(solve(QQ, transpose(TQ)));
}

function transpose(M) {
  const out = new Float64Array(dims * dims);
  for (let a = 0; a < dims; a++) for (let b = 0; b < dims; b++) out[b * dims + a] = M[a * dims + b];
  return out;
}

/** Solves A X = B for X (dims x dims) by Gaussian elimination with partial pivoting. */
function solve(A0, B0) {
  const A = Float64Array.from(A0);
  const B = Float64Array.from(B0);
  const n = dims;
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++)
      if (Math.abs(A[r * n + c]) > Math.abs(A[pivot * n + c])) pivot = r;
    if (pivot !== c)
      for (let k = 0; k < n; k++) {
        [A[c * n + k], A[pivot * n + k]] = [A[pivot * n + k], A[c * n + k]];
        [B[c * n + k], B[pivot * n + k]] = [B[pivot * n + k], B[c * n + k]];
      }
    const diag = A[c * n + c];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = A[r * n + c] / diag;
      if (f === 0) continue;
      for (let k = 0; k < n; k++) {
        A[r * n + k] -= f * A[c * n + k];
        B[r * n + k] -= f * B[c * n + k];
      }
    }
  }
  for (let r = 0; r < n; r++) for (let k = 0; k < n; k++) B[r * n + k] /= A[r * n + r];
  return B;
}

/** Full-batch Adam on the contrastive loss; returns W (row-major, dims x dims). */
function fit(train, candidates, { lambda, epochs, temperature = 0.05, rate = 0.002 }) {
  const W = identity();
  const m = new Float64Array(dims * dims);
  const v = new Float64Array(dims * dims);
  const z = new Float64Array(dims);
  const gz = new Float64Array(dims);
  const scores = new Float64Array(candidates.length);
  for (let epoch = 1; epoch <= epochs; epoch++) {
    const grad = new Float64Array(dims * dims);
    for (const q of train) {
      const length = mapInto(W, q.vector, z);
      let top = -Infinity;
      candidates.forEach((c, j) => {
        scores[j] = dot(z, tools[c].vector) / temperature;
        top = Math.max(top, scores[j]);
      });
      let total = 0;
      let positive = 0;
      for (let j = 0; j < scores.length; j++) {
        scores[j] = Math.exp(scores[j] - top);
        total += scores[j];
        if (q.local.has(j)) positive += scores[j];
      }
      gz.fill(0);
      candidates.forEach((c, j) => {
        const p = scores[j] / total;
        const r = q.local.has(j) ? scores[j] / positive : 0;
        const g = (p - r) / temperature;
        if (g === 0) return;
        const t = tools[c].vector;
        for (let k = 0; k < dims; k++) gz[k] += g * t[k];
      });
      // Through the normalisation: d/du of u/|u| projects out the component along z.
      let along = 0;
      for (let k = 0; k < dims; k++) along += gz[k] * z[k];
      for (let a = 0; a < dims; a++) {
        const ga = (gz[a] - along * z[a]) / length / train.length;
        if (ga === 0) continue;
        const row = a * dims;
        for (let b = 0; b < dims; b++) grad[row + b] += ga * q.vector[b];
      }
    }
    for (let a = 0; a < dims; a++)
      for (let b = 0; b < dims; b++) {
        const i = a * dims + b;
        grad[i] += 2 * lambda * (W[i] - (a === b ? 1 : 0));
        m[i] = 0.9 * m[i] + 0.1 * grad[i];
        v[i] = 0.999 * v[i] + 0.001 * grad[i] * grad[i];
        const mh = m[i] / (1 - 0.9 ** epoch);
        const vh = v[i] / (1 - 0.999 ** epoch);
        W[i] -= (rate * mh) / (Math.sqrt(vh) + 1e-8);
      }
  }
  return W;
}

/** hit@1, hit@5, MRR of requests ranked among `candidates` by cosine to the mapped request. */
function score(W, set, candidates) {
  const z = new Float64Array(dims);
  const ranks = [];
  for (const q of set) {
    if (W) mapInto(W, q.vector, z);
    else z.set(q.vector);
    const ranked = candidates
      .map((c, j) => ({ j, s: dot(z, tools[c].vector) }))
      .sort((a, b) => b.s - a.s);
    ranks.push(ranked.findIndex((r) => q.local.has(r.j)));
  }
  return rankMetrics(ranks);
}

/** Requests whose expected tools are all among `candidates`, with their positives as candidate positions. */
function restrict(set, candidates) {
  const position = new Map(candidates.map((c, j) => [c, j]));
  return set
    .filter((q) => q.positives.every((p) => position.has(p)))
    .map((q) => ({ ...q, local: new Set(q.positives.map((p) => position.get(p))) }));
}

const serverIds = corpus.map((s) => s.id);
const FOLDS = 4;
const foldOf = (server) => serverIds.indexOf(server) % FOLDS;
const METHOD = process.argv.includes('--contrastive') ? 'contrastive' : 'ridge';
const fitWith = METHOD === 'ridge' ? fitRidge : fit;
const GRID =
  METHOD === 'ridge'
    ? [1, 3, 10, 30, 100, 300].map((lambda) => ({ lambda }))
    : [0.01].map((lambda) => ({ lambda, epochs: 15 }));

console.log(`${requests.length} studied requests, ${tools.length} tools, ${dims} dims`);
const results = GRID.map((h) => ({ ...h, identity: [], fitted: [] }));
const FOLDS_RUN = at > 0 ? process.argv[at + 1].split(',').map(Number) : [0, 1, 2, 3];
for (const fold of FOLDS_RUN) {
  const inFold = (c) => foldOf(tools[c].server) === fold;
  const all = tools.map((_, i) => i);
  const trainCandidates = all.filter((c) => !inFold(c));
  const heldCandidates = all.filter(inFold);
  const train = restrict(
    requests.filter((q) => q.split === 'train'),
    trainCandidates,
  );
  const held = restrict(
    requests.filter((q) => q.split === 'dev'),
    heldCandidates,
  );
  for (const r of results) {
    const W = fitWith(train, trainCandidates, r);
    r.identity.push({ n: held.length, ...score(null, held, heldCandidates) });
    r.fitted.push({ n: held.length, ...score(W, held, heldCandidates) });
  }
  console.log(`fold ${fold}: fit on ${train.length}, scored on ${held.length}`);
  for (const r of results) console.log(r.lambda, r.identity.at(-1), r.fitted.at(-1));
}
const pooled = (rows) => {
  const n = rows.reduce((s, r) => s + r.n, 0);
  const mean = (k) => rows.reduce((s, r) => s + r[k] * r.n, 0) / n;
  return {
    hit1: mean('hit1').toFixed(3),
    hit5: mean('hit5').toFixed(3),
    mrr: mean('mrr').toFixed(3),
  };
};
console.table(
  results.flatMap((r) => [
    { lambda: r.lambda, epochs: r.epochs, map: 'identity', ...pooled(r.identity) },
    { lambda: r.lambda, epochs: r.epochs, map: 'fitted', ...pooled(r.fitted) },
  ]),
);

function identity() {
  const W = new Float64Array(dims * dims);
  for (let a = 0; a < dims; a++) W[a * dims + a] = 1;
  return W;
}

function mapInto(W, x, out) {
  for (let a = 0; a < dims; a++) {
    let s = 0;
    const row = a * dims;
    for (let b = 0; b < dims; b++) s += W[row + b] * x[b];
    out[a] = s;
  }
  let norm = 0;
  for (let a = 0; a < dims; a++) norm += out[a] * out[a];
  norm = Math.sqrt(norm) || 1;
  for (let a = 0; a < dims; a++) out[a] /= norm;
  return norm;
}

function dot(a, b) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
