/**
 * A query as the index should read it: literal values replaced by the words for their kind
 * (queryLiterals.ts), and phrases by the words they mean (queryIdioms.ts).
 */
import { IDIOMS, MEMORY_REQUESTS, OPEN_TO_CREATE, PHRASAL_VERBS } from './queryIdioms';
import { fileWords, knownFileWords, LITERALS } from './queryLiterals';

/** The last query normalized: one search normalizes its query twice (its terms, its action). */
let last = { query: '', text: '' };

/** The query with its literal values replaced by the words for their kind, and phrasal verbs by one word. */
export function normalizeQuery(query: string): string {
  if (query === last.query) return last.text;
  let text = query;
  let files = 0;
  for (const [pattern, words] of LITERALS) {
    text = text.replace(pattern, (m) => {
      if (words === fileWords || words === knownFileWords) files++;
      return words(m.trim());
    });
  }
  // Two files named: the tool that takes several at once.
  if (files >= 2) text += ' multiple files';
  text = text.replace(OPEN_TO_CREATE, ' create $1 ');
  for (const [pattern, words] of IDIOMS) text = text.replace(pattern, words);
  for (const [pattern, words] of MEMORY_REQUESTS) text = text.replace(pattern, words);
  for (const [pattern, word] of PHRASAL_VERBS) text = text.replace(pattern, word);
  last = { query, text };
  return text;
}
