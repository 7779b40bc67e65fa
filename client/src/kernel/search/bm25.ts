/**
 * An incremental inverted index scored with BM25F: each document has several fields (name,
 * description, …), each with a weight and its own length normalisation, and the weighted term
 * frequencies are summed before BM25's saturation (Robertson & Zaragoza, "The Probabilistic Relevance
 * Framework: BM25 and Beyond", §3.6). Documents can be added and removed one at a time; the
 * per-document length norms are recomputed lazily, in one pass, the first query after a change.
 *
 * Terms are interned to small integers once; a document is added as the term ids of each field (the
 * index keeps those arrays, which callers share between documents with the same text, to remove the
 * document later). A posting is two typed arrays grown by doubling: the documents, and per document
 * the frequencies of the term in every field packed into one integer (a few bits per field,
 * saturating: BM25 makes a 16th occurrence worth next to nothing).
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
  /**
   * Terms of one group (a query word with its synonyms and spelling corrections) count once per
   * document: the best of them. Terms without a group count each on their own.
   */
  group?: number;
}

interface Posting {
  /** Number of documents (the arrays are longer). */
  length: number;
  docs: Int32Array;
  /** Per entry of `docs`: the term's frequency in each field, `bits` bits per field, field 0 lowest. */
  tf: Int32Array;
  /** Σ over fields of tf × weight / length norm, per doc; valid while `epoch` is the index's. */
  weighted: Float64Array;
  epoch: number;
}

export class Bm25Index {
  private readonly fieldCount: number;
  /** Bits per field in a packed frequency, and the largest count they hold. */
  private readonly bits: number;
  private readonly maxCount: number;
  private readonly ids = new Map<string, number>();
  private readonly postings: Posting[] = [];
  /** Per term id, while a document is added or removed: 1 + the term's row in it, else 0. */
  private rowOf = new Int32Array(1024);
  /** Scratch rows of the document being added: term ids and packed frequencies. */
  private rowTerms = new Int32Array(256);
  private rowCounts = new Int32Array(256);
  /** Per document slot: its fields' term ids (to remove it), or null when the slot is free. */
  private readonly docFields: Array<ReadonlyArray<ArrayLike<number>> | null> = [];
  private readonly lengths: number[] = [];
  private norms = new Float64Array(0);
  private readonly totalLength: number[];
  private readonly freeSlots: number[] = [];
  private live = 0;
  private normsDirty = true;
  /** Bumped when the norms change: every posting's weighted frequencies are then stale. */
  private epoch = 0;
  private scores = new Float64Array(0);
  private best = new Float64Array(0);
  private covered = new Float64Array(0);
  /** The slots a search scored, and those a group of terms reached (scratch of `score`). */
  private touchedDocs = new Int32Array(0);
  private reachedDocs = new Int32Array(0);

  constructor(private readonly options: Bm25Options) {
    this.fieldCount = options.weights.length;
    this.bits = Math.min(16, Math.floor(30 / Math.max(1, this.fieldCount)));
    this.maxCount = 2 ** this.bits - 1;
    this.totalLength = new Array<number>(this.fieldCount).fill(0);
  }

  get documentCount(): number {
    return this.live;
  }

  /** The id of a term the index has seen, or undefined. */
  termId(term: string): number | undefined {
    return this.ids.get(term);
  }

  /** How many term ids there are (ids run from 0 to this, exclusive). */
  get termCount(): number {
    return this.postings.length;
  }

  /** The id of a term, given on first sight and kept for the life of the index. */
  intern(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.postings.length;
      this.ids.set(term, id);
      this.postings.push({
        length: 0,
        docs: EMPTY,
        tf: EMPTY,
        weighted: new Float64Array(0),
        epoch: -1,
      });
      if (id >= this.rowOf.length) {
        const grown = new Int32Array(this.rowOf.length * 2);
        grown.set(this.rowOf);
        this.rowOf = grown;
      }
    }
    return id;
  }

  /**
   * The distinct term ids of a document's fields into `rowTerms`, with their packed frequencies in
   * `rowCounts`; returns how many.
   */
  private rows(fields: ReadonlyArray<ArrayLike<number>>): number {
    const { rowOf, bits, maxCount } = this;
    let count = 0;
    for (let f = 0; f < this.fieldCount; f++) {
      const terms = fields[f] ?? [];
      const shift = f * bits;
      for (let i = 0; i < terms.length; i++) {
        const id = terms[i];
        let row = rowOf[id] - 1;
        if (row < 0) {
          row = count++;
          rowOf[id] = count;
          if (row >= this.rowTerms.length) this.growRows();
          this.rowTerms[row] = id;
          this.rowCounts[row] = 0;
        }
        if (((this.rowCounts[row] >>> shift) & maxCount) < maxCount)
          this.rowCounts[row] += 1 << shift;
      }
    }
    for (let row = 0; row < count; row++) rowOf[this.rowTerms[row]] = 0;
    return count;
  }

  private growRows(): void {
    const terms = new Int32Array(this.rowTerms.length * 2);
    const counts = new Int32Array(this.rowCounts.length * 2);
    terms.set(this.rowTerms);
    counts.set(this.rowCounts);
    this.rowTerms = terms;
    this.rowCounts = counts;
  }

  /**
   * Adds a document given the term ids of each field (see `intern`); returns its slot number. The
   * arrays are kept as they are (not copied) until the document is removed: do not change them.
   */
  add(fields: ReadonlyArray<ArrayLike<number>>): number {
    const doc = this.freeSlots.pop() ?? this.docFields.length;
    for (let f = 0; f < this.fieldCount; f++) {
      const length = fields[f]?.length ?? 0;
      this.lengths[doc * this.fieldCount + f] = length;
      this.totalLength[f] += length;
    }
    const count = this.rows(fields);
    for (let row = 0; row < count; row++) {
      const posting = this.postings[this.rowTerms[row]];
      if (posting.length === posting.docs.length) {
        const size = Math.max(4, posting.length * 2);
        posting.docs = grow(posting.docs, size);
        posting.tf = grow(posting.tf, size);
      }
      posting.docs[posting.length] = doc;
      posting.tf[posting.length++] = this.rowCounts[row];
      posting.epoch = -1;
    }
    this.docFields[doc] = fields;
    this.live++;
    this.normsDirty = true;
    return doc;
  }

  remove(doc: number): void {
    const fields = this.docFields[doc];
    if (!fields) return;
    const count = this.rows(fields);
    for (let row = 0; row < count; row++) {
      const posting = this.postings[this.rowTerms[row]];
      const at = posting.length ? posting.docs.lastIndexOf(doc, posting.length - 1) : -1;
      if (at < 0) continue;
      posting.docs.copyWithin(at, at + 1, posting.length);
      posting.tf.copyWithin(at, at + 1, posting.length);
      posting.length--;
      posting.epoch = -1;
    }
    for (let f = 0; f < this.fieldCount; f++) {
      this.totalLength[f] -= this.lengths[doc * this.fieldCount + f] ?? 0;
      this.lengths[doc * this.fieldCount + f] = 0;
    }
    this.docFields[doc] = null;
    this.freeSlots.push(doc);
    this.live--;
    this.normsDirty = true;
  }

  private posting(term: string): Posting | undefined {
    const id = this.ids.get(term);
    return id === undefined ? undefined : this.postings[id];
  }

  has(term: string): boolean {
    return (this.posting(term)?.length ?? 0) > 0;
  }

  /** Number of documents holding the term. */
  documentFrequency(term: string): number {
    return this.posting(term)?.length ?? 0;
  }

  /** The term ids of each field of the document at a slot (empty for a free slot). */
  fieldsAt(doc: number): ReadonlyArray<ArrayLike<number>> {
    return this.docFields[doc] ?? [];
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
    const n = this.docFields.length * this.fieldCount;
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
    const { docs, tf, length } = posting;
    const { fieldCount, bits, maxCount, norms } = this;
    if (posting.weighted.length < length) posting.weighted = new Float64Array(docs.length);
    for (let i = 0; i < length; i++) {
      let sum = 0;
      for (let p = tf[i], at = docs[i] * fieldCount; p !== 0; p >>>= bits, at++) {
        const count = p & maxCount;
        if (count) sum += count * norms[at];
      }
      posting.weighted[i] = sum;
    }
    posting.epoch = this.epoch;
    return posting.weighted;
  }

  /**
   * Scores every document holding at least one query term. Returns the scored slots, a score array
   * indexed by slot and, per slot, the share (0..1) of the query's groups the document matches, each
   * group counted by its rarest term's idf (all valid for the returned slots until the next call).
   */
  score(query: readonly WeightedTerm[]): {
    docs: Int32Array;
    scores: Float64Array;
    coverage: Float64Array;
  } {
    this.refreshNorms();
    this.ensureScratch(this.docFields.length);
    const { scores, best, covered } = this;
    // Terms of a group keep each document's best in `best`; a term without a group is a group of its own.
    const groups = new Map<number | WeightedTerm, WeightedTerm[]>();
    for (const t of query) {
      const key = t.group ?? t;
      const members = groups.get(key);
      if (members) members.push(t);
      else groups.set(key, [t]);
    }
    let total = 0;
    const masses: number[] = [];
    for (const members of groups.values()) {
      let mass = 0;
      for (const t of members)
        if (this.has(t.term)) mass = Math.max(mass, this.idf(t.term) * Math.min(1, t.weight));
      masses.push(mass);
      total += mass;
    }
    let touched = 0;
    let g = 0;
    for (const members of groups.values()) {
      const mass = masses[g++] / (total || 1);
      // A group of one term adds its contributions as they come: the best of one is itself.
      if (members.length === 1) {
        touched = this.accumulate(members[0], scores, mass, touched);
        continue;
      }
      let reached = 0;
      for (const t of members) reached = this.bestOf(t, reached);
      const { reachedDocs, touchedDocs } = this;
      for (let i = 0; i < reached; i++) {
        const doc = reachedDocs[i];
        if (scores[doc] === 0) touchedDocs[touched++] = doc;
        scores[doc] += best[doc];
        covered[doc] += mass;
        best[doc] = 0;
      }
    }
    return { docs: this.touchedDocs.subarray(0, touched), scores, coverage: covered };
  }

  /** The scratch of `score`, for this many slots. */
  private ensureScratch(slots: number): void {
    if (this.scores.length >= slots) return;
    const size = Math.max(slots, 64) * 2;
    this.scores = new Float64Array(size);
    this.best = new Float64Array(size);
    this.covered = new Float64Array(size);
    this.touchedDocs = new Int32Array(size);
    this.reachedDocs = new Int32Array(size);
  }

  /** What a term adds per document: idf × weight × (k1 + 1), times the saturation of its weighted frequency. */
  private termFactor({ term, weight }: WeightedTerm): number {
    return this.idf(term) * weight * (this.options.k1 + 1);
  }

  /**
   * Adds a term's contribution and the coverage `mass` to each document of the term (a group of
   * one); the documents first scored are appended to the touched list. Returns its new length.
   */
  private accumulate(t: WeightedTerm, into: Float64Array, mass: number, touched: number): number {
    const posting = this.posting(t.term);
    if (!posting?.length) return touched;
    const { k1 } = this.options;
    const idf = this.termFactor(t);
    const weighted = this.weightedOf(posting);
    const { docs, length } = posting;
    const { covered, touchedDocs } = this;
    for (let i = 0; i < length; i++) {
      const w = weighted[i];
      if (w === 0) continue;
      const doc = docs[i];
      if (into[doc] === 0) touchedDocs[touched++] = doc;
      into[doc] += (idf * w) / (w + k1);
      covered[doc] += mass;
    }
    return touched;
  }

  /**
   * Keeps in `best` the best of its value and this term's contribution, per document of the term;
   * the documents first reached are appended to the reached list. Returns its new length.
   */
  private bestOf(t: WeightedTerm, reached: number): number {
    const posting = this.posting(t.term);
    if (!posting?.length) return reached;
    const { k1 } = this.options;
    const idf = this.termFactor(t);
    const weighted = this.weightedOf(posting);
    const { docs, length } = posting;
    const { best, reachedDocs } = this;
    for (let i = 0; i < length; i++) {
      const w = weighted[i];
      if (w === 0) continue;
      const doc = docs[i];
      const value = (idf * w) / (w + k1);
      if (best[doc] === 0) reachedDocs[reached++] = doc;
      if (value > best[doc]) best[doc] = value;
    }
    return reached;
  }

  /** Clears the scores left by `score` for these slots. */
  reset(docs: ArrayLike<number>): void {
    const { scores, covered } = this;
    for (let i = 0; i < docs.length; i++) {
      scores[docs[i]] = 0;
      covered[docs[i]] = 0;
    }
  }
}

const EMPTY = new Int32Array(0);

function grow(array: Int32Array, size: number): Int32Array {
  const grown = new Int32Array(size);
  grown.set(array);
  return grown;
}
