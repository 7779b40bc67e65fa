/**
 * The `limit` highest-scoring items offered (at most `capacity`; of equal scores, the lowest
 * items), kept in a binary min-heap over preallocated arrays (no allocation per item): the worst
 * kept is at the root, so an item that cannot enter is turned away with one comparison.
 */
export class TopK {
  private readonly scores: Float32Array;
  private readonly items: Int32Array;
  private count = 0;
  private limit: number;

  constructor(readonly capacity: number) {
    this.scores = new Float32Array(capacity);
    this.items = new Int32Array(capacity);
    this.limit = capacity;
  }

  get size(): number {
    return this.count;
  }

  /** Empties it for the next search, which keeps the best `limit`. */
  clear(limit = this.capacity): void {
    if (limit > this.capacity)
      throw new Error(`a limit of ${limit} past the capacity ${this.capacity}`);
    this.count = 0;
    this.limit = limit;
  }

  /** The lowest score an item must beat to enter once it is full (-Infinity until then). */
  get floor(): number {
    return this.count < this.limit ? -Infinity : this.scores[0];
  }

  /** The score of a kept item, by its position in `kept()`. */
  scoreAt(position: number): number {
    return this.scores[position];
  }

  offer(item: number, score: number): void {
    if (this.count < this.limit) {
      this.siftUp(this.count++, item, score);
      return;
    }
    if (!this.beats(item, score, 0)) return;
    this.siftDown(0, item, score);
  }

  /** The kept items, in no particular order (a view valid until the next offer or clear). */
  kept(): Int32Array {
    return this.items.subarray(0, this.count);
  }

  /** Whether an item ranks above the one kept at `at`: a higher score, or an equal score and a lower item. */
  private beats(item: number, score: number, at: number): boolean {
    const kept = this.scores[at];
    return score > kept || (score === kept && item < this.items[at]);
  }

  private siftUp(at: number, item: number, score: number): void {
    const { scores, items } = this;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (this.beats(item, score, parent)) break;
      scores[at] = scores[parent];
      items[at] = items[parent];
      at = parent;
    }
    scores[at] = score;
    items[at] = item;
  }

  private siftDown(at: number, item: number, score: number): void {
    const { scores, items, count } = this;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= count) break;
      if (child + 1 < count && this.beats(items[child], scores[child], child + 1)) child++;
      if (!this.beats(item, score, child)) break;
      scores[at] = scores[child];
      items[at] = items[child];
      at = child;
    }
    scores[at] = score;
    items[at] = item;
  }
}
