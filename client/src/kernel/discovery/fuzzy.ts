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

/** A vocabulary with counted words, so that words can come and go as servers do. */
export class FuzzyVocabulary {
  private readonly counts = new Map<string, number>();
  private readonly byDeletion = new Map<string, Set<string>>();

  get size(): number {
    return this.counts.size;
  }

  has(word: string): boolean {
    return this.counts.has(word);
  }

  add(word: string): void {
    const count = this.counts.get(word) ?? 0;
    this.counts.set(word, count + 1);
    if (count > 0 || word.length < 4) return;
    for (const form of [word, ...deletions(word)]) {
      let set = this.byDeletion.get(form);
      if (!set) this.byDeletion.set(form, (set = new Set()));
      set.add(word);
    }
  }

  remove(word: string): void {
    const count = this.counts.get(word);
    if (count === undefined) return;
    if (count > 1) {
      this.counts.set(word, count - 1);
      return;
    }
    this.counts.delete(word);
    for (const form of [word, ...deletions(word)]) {
      const set = this.byDeletion.get(form);
      set?.delete(word);
      if (set && !set.size) this.byDeletion.delete(form);
    }
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
    return found.sort((a, b) => a.distance - b.distance || (this.counts.get(b.word) ?? 0) - (this.counts.get(a.word) ?? 0));
  }
}
