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
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, before[j - 2] + 1);
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
 * A vocabulary with counted words, so that words can come and go as servers do. Words come in lists
 * (the words of one text: a name, a description); a word counts the distinct lists that hold it.
 * Lists are told apart by identity: a caller that splits each distinct text once and passes the
 * same array for every tool with that text pays for the words of each text once.
 */
export class FuzzyVocabulary {
  /** Each word: the lists that hold it, and the last `countDistinct` pass that counted it. */
  private readonly counts = new Map<string, { count: number; mark: number }>();
  private marks = 0;
  private readonly lists = new Map<readonly string[], number>();
  /** Each word and each of its one-deletion forms → the word(s): mostly one, so a string until there are more. */
  private readonly byDeletion = new Map<string, string | string[]>();

  get size(): number {
    return this.counts.size;
  }

  has(word: string): boolean {
    return this.counts.has(word);
  }

  add(word: string): void {
    this.count(word, 1);
  }

  remove(word: string): void {
    this.count(word, -1);
  }

  /** Adds the words of these lists (the lists must not change while they are held). */
  addAll(lists: ReadonlyArray<readonly string[]>): void {
    for (const list of lists) {
      if (!list.length) continue;
      const held = this.lists.get(list) ?? 0;
      this.lists.set(list, held + 1);
      if (held === 0) this.countDistinct(list, 1);
    }
  }

  /** Removes what `addAll` added for the same lists. */
  removeAll(lists: ReadonlyArray<readonly string[]>): void {
    for (const list of lists) {
      const held = this.lists.get(list);
      if (held === undefined) continue;
      if (held > 1) {
        this.lists.set(list, held - 1);
        continue;
      }
      this.lists.delete(list);
      this.countDistinct(list, -1);
    }
  }

  private countDistinct(list: readonly string[], by: 1 | -1): void {
    const mark = ++this.marks;
    for (const word of list) {
      const held = this.counts.get(word);
      if (held?.mark === mark) continue;
      if (held) held.mark = mark;
      this.count(word, by, held, mark);
    }
  }

  private count(word: string, by: 1 | -1, held = this.counts.get(word), mark = 0): void {
    const count = (held?.count ?? 0) + by;
    if (count > 0) {
      if (held) held.count = count;
      else this.counts.set(word, { count, mark });
      if (count === 1 && by === 1 && word.length >= 4) {
        this.index(word);
        for (let i = 0; i < word.length; i++)
          this.index(word.slice(0, i) + word.slice(i + 1), word);
      }
      return;
    }
    if (!held) return;
    this.counts.delete(word);
    for (const form of [word, ...deletions(word)]) {
      const entry = this.byDeletion.get(form);
      if (entry === word) this.byDeletion.delete(form);
      else if (Array.isArray(entry)) {
        const rest = entry.filter((w) => w !== word);
        this.byDeletion.set(form, rest.length === 1 ? rest[0] : rest);
      }
    }
  }

  private index(form: string, word = form): void {
    const held = this.byDeletion.get(form);
    if (held === undefined) this.byDeletion.set(form, word);
    else if (typeof held === 'string') {
      if (held !== word) this.byDeletion.set(form, [held, word]);
    } else if (!held.includes(word)) held.push(word);
  }

  /** Vocabulary words within the allowed distance of `word`, nearest first (the word itself excluded). */
  near(
    word: string,
    maxEdits = maxEditsFor(word.length),
  ): Array<{ word: string; distance: number }> {
    if (maxEdits === 0) return [];
    const candidates = new Set<string>();
    for (const form of [word, ...deletions(word)]) {
      const held = this.byDeletion.get(form);
      if (typeof held === 'string') candidates.add(held);
      else for (const c of held ?? []) candidates.add(c);
    }
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
