/**
 * An incremental inverted index scored with BM25F: each document has several fields (name,
 * description, …), each with a weight and its own length normalisation, and the weighted term
 * frequencies are summed before BM25's saturation (Robertson & Zaragoza, "The Probabilistic Relevance
 * Framework: BM25 and Beyond", §3.6). Documents can be added and removed one at a time; the
 * per-document length norms are recomputed lazily, in one pass, the first query after a change.
 */

export interface Bm25Options {
  /** Term-frequency saturation. */
  k1: number;
  /** Length normalisation per field (0 = none, 1 = full). */
  b: number;
  /** Weight of each field, in field order. */
  weights: readonly number[];
}

export interface WeightedTerm {
  term: string;
  weight: number;
}

interface Posting {
  docs: number[];
  /** `tf[i * fieldCount + f]`: frequency of the term in field f of docs[i]. */
  tf: number[];
  /** Σ over fields of tf × weight / length norm, per doc; valid while `epoch` is the index's. */
  weighted: Float64Array;
  epoch: number;
}

export class Bm25Index {
  private readonly fieldCount: number;
  private readonly postings = new Map<string, Posting>();
  /** Per document slot: the terms it holds (to remove it), or null when the slot is free. */
  private readonly docTerms: Array<string[] | null> = [];
  private lengths: number[] = [];
  private norms = new Float64Array(0);
  private readonly totalLength: number[];
  private readonly freeSlots: number[] = [];
  private live = 0;
  private normsDirty = true;
  /** Bumped when the norms change: every posting's weighted frequencies are then stale. */
  private epoch = 0;
  private scores = new Float64Array(0);

  constructor(private readonly options: Bm25Options) {
    this.fieldCount = options.weights.length;
    this.totalLength = new Array<number>(this.fieldCount).fill(0);
  }

  get documentCount(): number {
    return this.live;
  }

  /** Adds a document given its terms per field; returns its slot number. */
  add(fields: ReadonlyArray<readonly string[]>): number {
    const doc = this.freeSlots.pop() ?? this.docTerms.length;
    // Each distinct term gets a row of `fieldCount` counts in one flat array.
    const rows = new Map<string, number>();
    const counts: number[] = [];
    for (let f = 0; f < this.fieldCount; f++) {
      const terms = fields[f] ?? [];
      this.lengths[doc * this.fieldCount + f] = terms.length;
      this.totalLength[f] += terms.length;
      for (const term of terms) {
        let row = rows.get(term);
        if (row === undefined) {
          rows.set(term, (row = counts.length));
          for (let i = 0; i < this.fieldCount; i++) counts.push(0);
        }
        counts[row + f]++;
      }
    }
    for (const [term, row] of rows) {
      let posting = this.postings.get(term);
      if (!posting) this.postings.set(term, (posting = { docs: [], tf: [], weighted: new Float64Array(0), epoch: -1 }));
      posting.docs.push(doc);
      for (let i = 0; i < this.fieldCount; i++) posting.tf.push(counts[row + i]);
      posting.epoch = -1;
    }
    this.docTerms[doc] = [...rows.keys()];
    this.live++;
    this.normsDirty = true;
    return doc;
  }

  remove(doc: number): void {
    const terms = this.docTerms[doc];
    if (!terms) return;
    for (const term of terms) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const at = posting.docs.indexOf(doc);
      if (at < 0) continue;
      posting.docs.splice(at, 1);
      posting.tf.splice(at * this.fieldCount, this.fieldCount);
      posting.epoch = -1;
      if (!posting.docs.length) this.postings.delete(term);
    }
    for (let f = 0; f < this.fieldCount; f++) {
      this.totalLength[f] -= this.lengths[doc * this.fieldCount + f] ?? 0;
      this.lengths[doc * this.fieldCount + f] = 0;
    }
    this.docTerms[doc] = null;
    this.freeSlots.push(doc);
    this.live--;
    this.normsDirty = true;
  }

  has(term: string): boolean {
    return this.postings.has(term);
  }

  /** Number of documents holding the term. */
  documentFrequency(term: string): number {
    return this.postings.get(term)?.docs.length ?? 0;
  }

  /** Inverse document frequency (the BM25 form that stays positive). */
  idf(term: string): number {
    const df = this.documentFrequency(term);
    return Math.log(1 + (this.live - df + 0.5) / (df + 0.5));
  }

  /** The most a term of this weight can add to a document's score. */
  maxContribution(term: string, weight: number): number {
    return weight * this.idf(term) * (this.options.k1 + 1);
  }

  private refreshNorms(): void {
    if (!this.normsDirty) return;
    const { b } = this.options;
    const n = this.docTerms.length * this.fieldCount;
    if (this.norms.length < n) this.norms = new Float64Array(Math.max(n, this.norms.length * 2));
    const averages = this.totalLength.map((total) => (this.live ? total / this.live : 0));
    for (let i = 0; i < n; i++) {
      const average = averages[i % this.fieldCount];
      const norm = average > 0 ? 1 - b + (b * (this.lengths[i] ?? 0)) / average : 1;
      // Field weight folded into the norm: weight / norm multiplies the raw frequency.
      this.norms[i] = this.options.weights[i % this.fieldCount] / norm;
    }
    this.normsDirty = false;
    this.epoch++;
  }

  /** The posting's weighted frequencies, computed once per epoch (the first query that needs them). */
  private weightedOf(posting: Posting): Float64Array {
    if (posting.epoch === this.epoch) return posting.weighted;
    const { docs, tf } = posting;
    const fields = this.fieldCount;
    if (posting.weighted.length !== docs.length) posting.weighted = new Float64Array(docs.length);
    for (let i = 0; i < docs.length; i++) {
      let sum = 0;
      for (let f = 0, at = i * fields, nat = docs[i] * fields; f < fields; f++, at++, nat++) if (tf[at]) sum += tf[at] * this.norms[nat];
      posting.weighted[i] = sum;
    }
    posting.epoch = this.epoch;
    return posting.weighted;
  }

  /**
   * Scores every document holding at least one query term. Returns the scored slots and a score
   * array indexed by slot (valid for the returned slots until the next call).
   */
  score(query: readonly WeightedTerm[]): { docs: number[]; scores: Float64Array } {
    this.refreshNorms();
    if (this.scores.length < this.docTerms.length) this.scores = new Float64Array(Math.max(this.docTerms.length, 64) * 2);
    const scores = this.scores;
    const touched: number[] = [];
    const { k1 } = this.options;
    for (const { term, weight } of query) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const idf = this.idf(term) * weight * (k1 + 1);
      const weighted = this.weightedOf(posting);
      const docs = posting.docs;
      for (let i = 0; i < docs.length; i++) {
        const w = weighted[i];
        if (w === 0) continue;
        const doc = docs[i];
        if (scores[doc] === 0) touched.push(doc);
        scores[doc] += (idf * w) / (w + k1);
      }
    }
    return { docs: touched, scores };
  }

  /** Clears the scores left by `score` for these slots. */
  reset(docs: readonly number[]): void {
    for (const doc of docs) this.scores[doc] = 0;
  }
}
