/**
 * Unit vectors by document slot, searched for a query's nearest neighbours by cosine similarity.
 *
 * Two stages, so that a search over ten thousand vectors stays well under a millisecond: every slot
 * is scored on the first `coarseDims` coordinates alone (the model's leading principal components,
 * kept in a matrix of their own so that the pass reads memory in order), and the best `pool` of them
 * are scored again on every coordinate. The result is exact whenever the true neighbours are among
 * the coarse pass's `pool` best; compare-model.mjs measures how often that holds.
 */
import { DotKernel } from './dotKernel';
import { TopK } from './topK';

/** A slot and its similarity to the query. */
export interface Neighbour {
  doc: number;
  similarity: number;
}

export interface VectorIndexOptions {
  dims: number;
  /** The leading coordinates the first stage scores on. */
  coarseDims: number;
}

export class VectorIndex {
  readonly dims: number;
  readonly coarseDims: number;
  /** The matrices, in memory the SIMD dot products read. */
  private kernel: DotKernel;
  private present = new Uint8Array(0);
  /** One past the highest slot ever set. */
  private end = 0;
  /** The stages' scratch, grown to the largest pool and neighbour count asked for. */
  private pool = new TopK(0);
  private best = new TopK(0);

  constructor(options: VectorIndexOptions) {
    if (options.coarseDims < 1 || options.coarseDims > options.dims)
      throw new Error(`coarseDims must be 1 to ${options.dims}`);
    this.dims = options.dims;
    this.coarseDims = options.coarseDims;
    this.kernel = DotKernel.create(this.dims, this.coarseDims, 0);
  }

  has(doc: number): boolean {
    return doc < this.end && this.present[doc] === 1;
  }

  /** Stores a slot's unit vector (copied). */
  set(doc: number, vector: Float32Array): void {
    if (vector.length !== this.dims)
      throw new Error(`a vector of ${vector.length} dimensions in an index of ${this.dims}`);
    this.grow(doc + 1);
    this.kernel.full.set(vector, doc * this.dims);
    this.kernel.coarse.set(vector.subarray(0, this.coarseDims), doc * this.coarseDims);
    this.present[doc] = 1;
    this.end = Math.max(this.end, doc + 1);
  }

  delete(doc: number): void {
    if (doc < this.end) this.present[doc] = 0;
  }

  /** The cosine of a unit query to a slot's vector (0 for an empty slot). */
  similarityAt(query: Float32Array, doc: number): number {
    return this.has(doc) ? dot(query, this.kernel.full, doc * this.dims, this.dims) : 0;
  }

  /** The mean of the vectors of the slots `keep` passes (zeros when none). */
  meanOf(keep: (doc: number) => boolean): Float32Array {
    const sum = new Float64Array(this.dims);
    const { full } = this.kernel;
    let count = 0;
    for (let doc = 0; doc < this.end; doc++) {
      if (!this.present[doc] || !keep(doc)) continue;
      count++;
      for (let i = 0, at = doc * this.dims; i < this.dims; i++) sum[i] += full[at + i];
    }
    const mean = new Float32Array(this.dims);
    if (count) for (let i = 0; i < this.dims; i++) mean[i] = sum[i] / count;
    return mean;
  }

  /**
   * The `k` slots most similar to a unit query among those `keep` passes, most similar first
   * (equal similarities by slot). `pool` slots go from the coarse stage to the full one.
   */
  nearest(
    query: Float32Array,
    k: number,
    keep: (doc: number) => boolean,
    pool = Math.max(64, 4 * k),
  ): Neighbour[] {
    if (this.pool.capacity < pool) this.pool = new TopK(pool);
    if (this.best.capacity < k) this.best = new TopK(k);
    const { best } = this;
    const top = this.pool;
    top.clear(pool);
    this.coarseStage(query, keep);
    best.clear(k);
    const kept = top.kept();
    const scores = this.kernel.fullScores(query, kept);
    for (let i = 0; i < kept.length; i++) best.offer(kept[i], scores[i]);
    const found: Neighbour[] = [];
    const nearest = best.kept();
    for (let i = 0; i < nearest.length; i++)
      found.push({ doc: nearest[i], similarity: best.scoreAt(i) });
    return found.sort((a, b) => b.similarity - a.similarity || a.doc - b.doc);
  }

  /**
   * 1. Every slot `keep` passes, scored on the coarse coordinates, into the pool; the pool's floor
   * is read once per entry into it, so most slots cost a comparison once the scores are in.
   */
  private coarseStage(query: Float32Array, keep: (doc: number) => boolean): void {
    const { present, end } = this;
    const scores = this.kernel.coarseScores(query, end);
    const top = this.pool;
    let floor = -Infinity;
    for (let doc = 0; doc < end; doc++) {
      if (!present[doc]) continue;
      const score = scores[doc];
      if (score > floor && keep(doc)) {
        top.offer(doc, score);
        floor = top.floor;
      }
    }
  }

  private grow(size: number): void {
    if (size <= this.present.length) return;
    const capacity = Math.max(64, size * 2);
    this.kernel = this.kernel.grown(capacity);
    const present = new Uint8Array(capacity);
    present.set(this.present);
    this.present = present;
  }
}

/** The dot product of the query's first `n` coordinates with `n` numbers of `rows` from `at`. */
function dot(query: Float32Array, rows: Float32Array, at: number, n: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const whole = n - (n % 4);
  let i = 0;
  for (; i < whole; i += 4) {
    s0 += query[i] * rows[at + i];
    s1 += query[i + 1] * rows[at + i + 1];
    s2 += query[i + 2] * rows[at + i + 2];
    s3 += query[i + 3] * rows[at + i + 3];
  }
  for (; i < n; i++) s0 += query[i] * rows[at + i];
  return s0 + s1 + s2 + s3;
}
