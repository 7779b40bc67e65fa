/**
 * The `limit` highest-scoring items offered (at most `capacity`; of equal scores, the lowest
 * items), over preallocated arrays (no allocation per item).
 *
 * An offer that beats the floor is appended to a buffer of twice the limit; when the buffer is
 * full, a selection (Hoare's quickselect) keeps the best `limit` and raises the floor to the least
 * of them. An offer then costs a comparison and a store, where a heap pays an unpredictable branch
 * per level: at a pool of 512 among 10,000 scores, about a fifth of the time.
 */
export class TopK {
  private readonly scores: Float64Array;
  private readonly items: Int32Array;
  private count = 0;
  private limit: number;
  /** The least kept at the last selection: an offer must rank above it. */
  private floorScore = -Infinity;
  private floorItem = -1;

  constructor(readonly capacity: number) {
    this.scores = new Float64Array(2 * capacity);
    this.items = new Int32Array(2 * capacity);
    this.limit = capacity;
  }

  /** Empties it for the next search, which keeps the best `limit`. */
  clear(limit = this.capacity): void {
    if (limit > this.capacity)
      throw new Error(`a limit of ${limit} past the capacity ${this.capacity}`);
    this.count = 0;
    this.limit = limit;
    this.floorScore = limit === 0 ? Infinity : -Infinity;
    this.floorItem = -1;
  }

  /**
   * A score an item must beat to enter (-Infinity until the first selection). It only rises, and
   * stays at or below the least of the best `limit` offered so far.
   */
  get floor(): number {
    return this.floorScore;
  }

  /** The score of a kept item, by its position in `kept()`. */
  scoreAt(position: number): number {
    return this.scores[position];
  }

  offer(item: number, score: number): void {
    if (!ranksBefore(score, item, this.floorScore, this.floorItem)) return;
    this.scores[this.count] = score;
    this.items[this.count++] = item;
    if (this.count === 2 * this.limit) this.select();
  }

  /** The kept items, in no particular order (a view valid until the next offer or clear). */
  kept(): Int32Array {
    if (this.count > this.limit) this.select();
    return this.items.subarray(0, this.count);
  }

  /** Moves the best `limit` to the front, keeps only them, and raises the floor to the least. */
  private select(): void {
    const { scores, items } = this;
    const k = this.limit - 1;
    let lo = 0;
    let hi = this.count - 1;
    while (lo < hi) {
      const middle = (lo + hi) >> 1;
      const pivotScore = scores[middle];
      const pivotItem = items[middle];
      let i = lo;
      let j = hi;
      while (i <= j) {
        while (ranksBefore(scores[i], items[i], pivotScore, pivotItem)) i++;
        while (ranksBefore(pivotScore, pivotItem, scores[j], items[j])) j--;
        if (i <= j) {
          const score = scores[i];
          scores[i] = scores[j];
          scores[j] = score;
          const item = items[i];
          items[i] = items[j];
          items[j] = item;
          i++;
          j--;
        }
      }
      if (k <= j) hi = j;
      else if (k >= i) lo = i;
      else break;
    }
    this.count = this.limit;
    this.floorScore = scores[k];
    this.floorItem = items[k];
  }
}

/** Whether item a ranks before item b: a higher score, or an equal score and a lower item. */
function ranksBefore(scoreA: number, itemA: number, scoreB: number, itemB: number): boolean {
  return scoreA > scoreB || (scoreA === scoreB && itemA < itemB);
}
