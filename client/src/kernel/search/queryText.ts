/**
 * A query as the index should read it: literal values replaced by the words for their kind
 * (queryLiterals.ts), and numbers that are values rather than words of the need dropped.
 */
import { undictate } from './queryDictation';
import { LITERALS } from './queryLiterals';

/** A number that is not part of a word, an id or a version (`7`, `412`, `3.5`). */
const STANDALONE_NUMBER = /(?<![\w.#$-])\d+(?:[.,]\d+)*(?![\w.-]*\w)/g;

/**
 * The characters of a query that are read. A discovery query states a need in a sentence or two; a
 * longer text is cut here, so that no pattern works over a document (some take time in the square of
 * a long token's length).
 */
export const MAX_QUERY_CHARS = 1000;

/** The query cut to MAX_QUERY_CHARS. */
export function boundedQuery(query: string): string {
  return query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query;
}

/** The query with its literal values replaced by the words for their kind. */
export function normalizeQuery(query: string): string {
  let text = undictate(boundedQuery(query));
  for (const [pattern, words] of LITERALS) text = text.replace(pattern, (m) => words(m.trim()));
  // A number on its own is a value (`the last 7 days`, `PR 412`), not a word of the need.
  return text.replace(STANDALONE_NUMBER, ' ');
}
