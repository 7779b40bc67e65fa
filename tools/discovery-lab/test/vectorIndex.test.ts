import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../../test/repoRoot';
import { DotKernel } from '../model/dotKernel';
import { TopK } from '../model/topK';
import { VectorIndex } from '../model/vectorIndex';

/** A seeded generator (mulberry32), so that a failure repeats. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function unitVector(dims: number, next: () => number): Float32Array {
  const v = Float32Array.from({ length: dims }, () => next() - 0.5);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** The loop the SIMD one replaces: four sums, by coordinate mod 4, the tail into the first. */
function plainDot(q: Float32Array, row: Float32Array, n: number): number {
  const sums = [0, 0, 0, 0];
  const whole = n - (n % 4);
  for (let i = 0; i < whole; i++) sums[i % 4] += q[i] * row[i];
  for (let i = whole; i < n; i++) sums[0] += q[i] * row[i];
  return sums[0] + sums[1] + sums[2] + sums[3];
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

describe('lab: nearest neighbours (VectorIndex, TopK)', () => {
  it('TopK keeps the highest scores offered, up to the limit of each search', () => {
    const next = random(3);
    const top = new TopK(20);
    const scores = Array.from({ length: 500 }, () => next());
    for (const limit of [20, 7, 1]) {
      top.clear(limit);
      scores.forEach((s, i) => top.offer(i, s));
      const kept = [...top.kept()].map((i) => scores[i]).sort((a, b) => b - a);
      const expected = [...scores].sort((a, b) => b - a).slice(0, limit);
      assert.deepEqual(
        kept.map((s) => Math.fround(s)),
        expected.map((s) => Math.fround(s)),
      );
    }
    assert.throws(() => top.clear(21), /past the capacity/);
  });

  it('TopK keeps exactly the best by score, then by lowest item, whatever the order offered', () => {
    const next = random(23);
    const top = new TopK(64);
    for (let trial = 0; trial < 200; trial++) {
      const limit = trial % 65;
      const count = Math.floor(next() * 600);
      // Few distinct scores: many ties, which the lower item wins.
      const offered = Array.from({ length: count }, (_, item) => ({
        item,
        score: Math.floor(next() * 8) / 8,
      }));
      for (let i = offered.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [offered[i], offered[j]] = [offered[j], offered[i]];
      }
      top.clear(limit);
      let floor = top.floor;
      for (const { item, score } of offered) {
        top.offer(item, score);
        assert.ok(top.floor >= floor, 'the floor only rises');
        floor = top.floor;
      }
      const kept = [...top.kept()].map((item, at) => ({ item, score: top.scoreAt(at) }));
      const expected = [...offered]
        .sort((a, b) => b.score - a.score || a.item - b.item)
        .slice(0, limit);
      const byItem = (a: { item: number }, b: { item: number }) => a.item - b.item;
      assert.deepEqual(kept.sort(byItem), expected.sort(byItem));
    }
  });

  it('with a pool as large as the index, the nearest are exactly the brute-force nearest', () => {
    const next = random(7);
    const index = new VectorIndex({ dims: 32, coarseDims: 8 });
    const vectors = Array.from({ length: 300 }, () => unitVector(32, next));
    vectors.forEach((v, doc) => index.set(doc, v));
    for (let trial = 0; trial < 20; trial++) {
      const q = unitVector(32, next);
      const found = index.nearest(q, 10, () => true, 300);
      const exact = vectors
        .map((v, doc) => ({ doc, similarity: dot(q, v) }))
        .sort((a, b) => b.similarity - a.similarity)
        .slice(0, 10);
      assert.deepEqual(
        found.map((n) => n.doc),
        exact.map((n) => n.doc),
      );
      found.forEach((n, i) => assert.ok(Math.abs(n.similarity - exact[i].similarity) < 1e-5));
    }
  });

  it('a small pool still answers k neighbours, most similar first, with their exact similarities', () => {
    const next = random(11);
    const index = new VectorIndex({ dims: 64, coarseDims: 16 });
    const vectors = Array.from({ length: 2000 }, () => unitVector(64, next));
    vectors.forEach((v, doc) => index.set(doc, v));
    const q = unitVector(64, next);
    const found = index.nearest(q, 5, () => true, 40);
    assert.equal(found.length, 5);
    for (let i = 1; i < found.length; i++)
      assert.ok(found[i - 1].similarity >= found[i].similarity);
    for (const n of found)
      assert.ok(Math.abs(n.similarity - dot(q, vectors[n.doc])) < 1e-5, 'rescored in full');
  });

  it('follows deletions, replacements and the filter; the mean and each similarity are exact', () => {
    const next = random(5);
    const index = new VectorIndex({ dims: 16, coarseDims: 4 });
    const vectors = Array.from({ length: 100 }, () => unitVector(16, next));
    vectors.forEach((v, doc) => index.set(doc, v));
    const q = vectors[42];
    assert.equal(index.nearest(q, 1, () => true)[0].doc, 42);
    assert.notEqual(index.nearest(q, 1, (doc) => doc !== 42)[0].doc, 42);
    index.delete(42);
    assert.equal(index.has(42), false);
    assert.equal(index.similarityAt(q, 42), 0);
    assert.ok(index.nearest(q, 100, () => true, 100).every((n) => n.doc !== 42));
    assert.equal(index.nearest(q, 200, () => true, 200).length, 99);
    index.set(7, q);
    assert.equal(index.nearest(q, 1, () => true)[0].doc, 7, 'a replaced vector is searched anew');
    const mean = index.meanOf((doc) => doc < 10);
    const expected = new Float32Array(16);
    for (let doc = 0; doc < 10; doc++)
      (doc === 7 ? q : vectors[doc]).forEach((x, i) => (expected[i] += x / 10));
    mean.forEach((x, i) => assert.ok(Math.abs(x - expected[i]) < 1e-6));
    assert.ok(Math.abs(index.similarityAt(q, 3) - dot(q, vectors[3])) < 1e-6);
    assert.throws(() => index.set(0, new Float32Array(8)), /8 dimensions in an index of 16/);
    assert.throws(() => new VectorIndex({ dims: 16, coarseDims: 17 }), /coarseDims/);
  });

  it('the full SIMD dot products are the plain loop sums to the bit, tails past the last four too', () => {
    const next = random(17);
    for (const [dims, coarseDims] of [
      [30, 6],
      [33, 5],
      [256, 48],
      [3, 3],
    ]) {
      const count = 300;
      const kernel = DotKernel.create(dims, coarseDims, 100).grown(count);
      const rows = Array.from({ length: count }, () => unitVector(dims, next));
      rows.forEach((v, doc) => {
        kernel.full.set(v, doc * dims);
        kernel.coarse.set(v.subarray(0, coarseDims), doc * coarseDims);
      });
      const q = unitVector(dims, next);
      const coarse = kernel.coarseScores(q, count).slice(0, count);
      // The coarse pass only chooses whom to score in full: float32 sums, within rounding.
      rows.forEach((v, doc) => {
        const exact = plainDot(q, v, coarseDims);
        assert.ok(Math.abs(coarse[doc] - exact) < 1e-6, `${coarse[doc]} against ${exact}`);
        assert.equal(coarse[doc], Math.fround(coarse[doc]));
      });
      const listed = Int32Array.from([299, 0, 17, 17, 150]);
      const full = kernel.fullScores(q, listed);
      listed.forEach((doc, j) => assert.equal(full[j], plainDot(q, rows[doc], dims)));
    }
  });

  it('the built WebAssembly module is what dot.wat compiles to', () => {
    execFileSync(
      process.execPath,
      [join(repoRoot(), 'tools/discovery-lab/model/build-wasm.mjs'), '--check'],
      {
        stdio: 'pipe',
      },
    );
  });

  it('the coarse stage scores every slot, the last of an odd count and none of the empty ones', () => {
    const next = random(13);
    const index = new VectorIndex({ dims: 24, coarseDims: 6 });
    // 101 slots, some never set and some deleted.
    const vectors = new Map<number, Float32Array>();
    for (let doc = 0; doc < 101; doc++) {
      if (doc % 17 === 5) continue;
      vectors.set(doc, unitVector(24, next));
      index.set(doc, vectors.get(doc) as Float32Array);
    }
    for (const doc of [0, 33, 99]) {
      index.delete(doc);
      vectors.delete(doc);
    }
    for (let trial = 0; trial < 20; trial++) {
      // The last slot is often the nearest: a query close to it.
      const q = trial % 2 ? unitVector(24, next) : (vectors.get(100) as Float32Array);
      const k = 5 + trial;
      const found = index.nearest(q, k, (doc) => doc !== 50, 101);
      const exact = [...vectors]
        .filter(([doc]) => doc !== 50)
        .map(([doc, v]) => ({ doc, similarity: dot(q, v) }))
        .sort((a, b) => b.similarity - a.similarity)
        .slice(0, k);
      assert.deepEqual(
        found.map((n) => n.doc),
        exact.map((n) => n.doc),
      );
    }
  });
});
