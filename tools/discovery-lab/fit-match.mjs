// Fits the calibration of discovery's relevance (client/src/kernel/discovery/matchCalibration.ts):
// a logistic regression for "the best tool the keyword ranking gives is the one asked for", over the
// evidence the product computes (keywordEvidence). Each training request is asked twice: of the whole
// corpus (label: is its best tool an expected one) and of the corpus without the servers of its
// expected tools (label 0: nothing fits). Prints the coefficients, then, on train and dev, the AUC,
// the share of right answers kept and of nothing-fits turned away at a few thresholds, and the
// observed rate per predicted band (calibration). Test data is never read.
//
// Usage: node tools/discovery-lab/fit-match.mjs [--l2 X]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoveryFixtures, loadDiscovery } from '../../bench/lib/discovery.mjs';

const args = process.argv.slice(2);
const l2 = args.includes('--l2') ? Number(args[args.indexOf('--l2') + 1]) : 1e-3;

const d = await loadDiscovery(mkdtempSync(join(tmpdir(), 'fit-match-')));
const { corpus, sets } = discoveryFixtures();
const serverOf = (toolId) => toolId.split('.')[0];

const indexes = new Map();
function indexWithout(removed) {
  const key = [...removed].sort().join(',');
  if (!indexes.has(key)) {
    const index = d.createToolIndex({});
    for (const server of corpus)
      if (!removed.has(server.id)) index.upsertServer(server.id, server.tools);
    indexes.set(key, index);
  }
  return indexes.get(key);
}

const full = indexWithout(new Set());
function example(index, request, fits) {
  const { best, query } = d.keywordEvidence(index, request.query);
  const top = best[0];
  const right = fits && top !== undefined && request.expected.includes(top.entry.tool_id);
  return { y: right ? 1 : 0, relevance: top?.relevance ?? 0, query, nothingFits: !fits };
}
function examples(requests) {
  return requests.flatMap((request) => [
    example(full, request, true),
    example(indexWithout(new Set(request.expected.map(serverOf))), request, false),
  ]);
}

const features = (e) => [
  Math.log(Math.max(e.relevance, 1e-4)),
  e.query.absentShare,
  Math.log(e.query.words + 1),
];

/** Logistic regression by full-batch gradient descent, L2 on the weights (not the bias). */
function fit(rows) {
  const k = features(rows[0]).length;
  let w = new Array(k).fill(0);
  let b = 0;
  for (let step = 0; step < 5000; step++) {
    const gw = new Array(k).fill(0);
    let gb = 0;
    for (const row of rows) {
      const x = features(row);
      const p = 1 / (1 + Math.exp(-(b + x.reduce((s, v, i) => s + v * w[i], 0))));
      gb += p - row.y;
      x.forEach((v, i) => (gw[i] += (p - row.y) * v));
    }
    w = w.map((wi, i) => wi - 0.5 * (gw[i] / rows.length + l2 * wi));
    b -= (0.5 * gb) / rows.length;
  }
  return { bias: b, logRelevance: w[0], absentShare: w[1], logWords: w[2] };
}

const train = examples(sets.train);
const model = fit(train);
console.log(
  'MATCH_MODEL',
  JSON.stringify(Object.fromEntries(Object.entries(model).map(([k, v]) => [k, +v.toFixed(4)]))),
);
const predict = (e) => {
  const x = features(e);
  const z =
    model.bias + model.logRelevance * x[0] + model.absentShare * x[1] + model.logWords * x[2];
  return 1 / (1 + Math.exp(-z));
};

for (const [name, rows] of [
  ['train', train],
  ['dev', examples(sets.dev)],
]) {
  const right = rows.filter((r) => r.y === 1).map(predict);
  const none = rows.filter((r) => r.nothingFits).map(predict);
  let auc = 0;
  for (const a of right) for (const b of none) auc += a > b ? 1 : a === b ? 0.5 : 0;
  console.log(
    `${name}: ${right.length} right answers, ${none.length} nothing-fits; AUC ${(auc / right.length / none.length).toFixed(3)}`,
  );
  for (const t of [0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5]) {
    const kept = right.filter((p) => p >= t).length / right.length;
    const turned = none.filter((p) => p < t).length / none.length;
    console.log(
      `  below ${t.toFixed(2)}: right kept ${kept.toFixed(3)}, nothing-fits turned away ${turned.toFixed(3)}`,
    );
  }
  for (let low = 0; low < 1; low += 0.2) {
    const band = rows.filter((r) => predict(r) >= low && predict(r) < low + 0.2);
    const rate = band.reduce((s, r) => s + r.y, 0) / (band.length || 1);
    console.log(
      `  predicted ${low.toFixed(1)}–${(low + 0.2).toFixed(1)}: ${band.length} examples, ${rate.toFixed(2)} right`,
    );
  }
}
