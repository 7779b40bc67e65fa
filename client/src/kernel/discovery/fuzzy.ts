/**
 * Typo tolerance: words of the index vocabulary within a small edit distance of a query word.
 *
 * A deletion index (SymSpell): every vocabulary word is stored under itself and each form with one
 * character deleted. A query word's own one-deletion forms are looked up in it, which finds every
 * word within one insertion, deletion, substitution or transposition (and some at two), without
 * scanning the vocabulary. Candidates are then checked with the optimal-string-alignment distance.
 */

/** Edit distance allowed for a word of this length: none under 4 letters, 1 up to 6, else 2. */
export function maxEditsFor(length: number): number {
  if (length < 4) return 0;
  return length <= 6 ? 1 : 2;
}

/** Optimal string alignment distance (a transposition counts one), or `limit + 1` once it is exceeded. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows = a.length + 1;
  const cols = b.length + 1;
  let before = new Array<number>(cols).fill(0);
  let previous = Array.from({ length: cols }, (_, j) => j);
  for (let i = 1; i < rows; i++) {
    const current = new Array<number>(cols).fill(0);
    current[0] = i;
    let best = i;
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      current[j] = d;
      if (d < best) best = d;
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[cols - 1];
}

function deletions(word: string): string[] {
  const forms: string[] = [];
  for (let i = 0; i < word.length; i++) forms.push(word.slice(0, i) + word.slice(i + 1));
  return forms;
}

/**
 * A vocabulary with counted words, so that words can come and go as servers do. A word counts the
 * documents that hold it (`addAll` and `removeAll` count each distinct word of a document once).
 */
export class FuzzyVocabulary {
  private readonly counts = new Map<string, { count: number; mark: number }>();
  private readonly byDeletion = new Map<string, Set<string>>();
  private marks = 0;

  get size(): number {
    return this.counts.size;
  }

  has(word: string): boolean {
    return this.counts.has(word);
  }

  add(word: string): void {
    this.addAll([[word]]);
  }

  remove(word: string): void {
    this.removeAll([[word]]);
  }

  /** Counts once each distinct word of these lists (one document's words). */
  addAll(lists: ReadonlyArray<readonly string[]>): void {
    const mark = ++this.marks;
    for (const list of lists) {
      for (const word of list) {
        const held = this.counts.get(word);
        if (held) {
          if (held.mark !== mark) {
            held.mark = mark;
            held.count++;
          }
          continue;
        }
        this.counts.set(word, { count: 1, mark });
        if (word.length < 4) continue;
        this.index(word);
        for (let i = 0; i < word.length; i++) this.index(word.slice(0, i) + word.slice(i + 1), word);
      }
    }
  }

  /** Uncounts what `addAll` counted for the same lists. */
  removeAll(lists: ReadonlyArray<readonly string[]>): void {
    const mark = ++this.marks;
    for (const list of lists) {
      for (const word of list) {
        const held = this.counts.get(word);
        if (!held || held.mark === mark) continue;
        held.mark = mark;
        if (--held.count > 0) continue;
        this.counts.delete(word);
        for (const form of [word, ...deletions(word)]) {
          const set = this.byDeletion.get(form);
          set?.delete(word);
          if (set && !set.size) this.byDeletion.delete(form);
        }
      }
    }
  }

  private index(form: string, word = form): void {
    let set = this.byDeletion.get(form);
    if (!set) this.byDeletion.set(form, (set = new Set()));
    set.add(word);
  }

  /** Vocabulary words within the allowed distance of `word`, nearest first (the word itself excluded). */
  near(word: string, maxEdits = maxEditsFor(word.length)): Array<{ word: string; distance: number }> {
    if (maxEdits === 0) return [];
    const candidates = new Set<string>();
    for (const form of [word, ...deletions(word)]) for (const c of this.byDeletion.get(form) ?? []) candidates.add(c);
    const found: Array<{ word: string; distance: number }> = [];
    for (const candidate of candidates) {
      if (candidate === word) continue;
      const distance = editDistance(word, candidate, maxEdits);
      if (distance <= maxEdits) found.push({ word: candidate, distance });
    }
    const count = (w: string) => this.counts.get(w)?.count ?? 0;
    return found.sort((a, b) => a.distance - b.distance || count(b.word) - count(a.word));
  }
}
