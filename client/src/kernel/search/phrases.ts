/**
 * Two-word phrases of a query found in a document: the pairs of the query's terms that follow each
 * other, in order, in one of the document's fields (stop words are not indexed, so they make no gap).
 */
import type { Bm25Index } from './bm25';

/** Term pairs of a query, resolved to term ids once per search (`termPairs`). */
export interface TermPairs {
  /** The pairs' term ids, flat: `[a, b, a, b, …]`. */
  ids: Int32Array;
  /** By term id: 1 when the term starts a pair. */
  startsPair: Uint8Array;
  /** Scratch: per pair, whether the document at hand has it. */
  found: Uint8Array;
}

/** The pairs as term ids of the index; a pair with a term the index has never seen is left out (no document has it). */
export function termPairs(
  index: Bm25Index,
  pairs: ReadonlyArray<readonly [string, string]>,
): TermPairs {
  const ids: number[] = [];
  for (const [first, second] of pairs) {
    const a = index.termId(first);
    const b = index.termId(second);
    if (a !== undefined && b !== undefined) ids.push(a, b);
  }
  const startsPair = new Uint8Array(ids.length ? index.termCount : 0);
  for (let p = 0; p < ids.length; p += 2) startsPair[ids[p]] = 1;
  return { ids: Int32Array.from(ids), startsPair, found: new Uint8Array(ids.length / 2) };
}

/**
 * How many of the pairs a document's fields hold, each pair counted once. One pass over the
 * document's terms: only a term that starts some pair is compared with the pairs.
 */
export function adjacentPairs(fields: ReadonlyArray<ArrayLike<number>>, pairs: TermPairs): number {
  const { ids, startsPair, found } = pairs;
  if (!ids.length) return 0;
  found.fill(0);
  let count = 0;
  for (const terms of fields) {
    for (let i = 0; i + 1 < terms.length; i++) {
      if (startsPair[terms[i]] !== 1) continue;
      for (let p = 0; p < ids.length; p += 2) {
        if (found[p >> 1] || ids[p] !== terms[i] || ids[p + 1] !== terms[i + 1]) continue;
        found[p >> 1] = 1;
        if (++count === found.length) return count;
      }
    }
  }
  return count;
}
