/**
 * A query as the index should read it: literal values replaced by the words for their kind
 * (queryLiterals.ts), and phrases by the words they mean (queryIdioms.ts).
 */
import { IDIOMS, OPEN_TO_CREATE, PHRASAL_VERBS } from './queryIdioms';
import { BROWSER_IDIOMS } from './queryBrowserIdioms';
import { FILE_IDIOMS } from './queryFileIdioms';
import { MEMORY_REQUESTS } from './queryMemory';
import { REPO_IDIOMS } from './queryRepoIdioms';
import { WEB_IDIOMS } from './queryWebIdioms';
import { WORKSPACE_IDIOMS } from './queryWorkspaceIdioms';
import { CHAT_SHORTHAND } from './queryShorthand';
import { undictate } from './queryDictation';
import { fileWords, knownFileWords, LITERALS } from './queryLiterals';
import { applyRewrites } from './rewrite';

/** `#17` not after a noun that says what it numbers (`request #7`, `step #2`). */
const BARE_REFERENCE =
  /(?:^|\s)(?<!\b(?:request|call|item|step|row|line|tab|order|message|job|monitor|check|run|page|version|build|number)\s)#\d+\b/i;

/** A number that is not part of a word, an id or a version (`7`, `412`, `3.5`). */
const STANDALONE_NUMBER = /(?<![\w.#$-])\d+(?:[.,]\d+)*(?![\w.-]*\w)/g;

/** Words that say what a `#17` is. */
const ISSUE_WORDS = /\b(?:issues?|prs?|pull requests?|merge requests?|mrs?|tickets?|bugs?)\b/i;

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

/** Idioms, general and of each kind of tool; requests to the memory; then phrasal verbs, whose particles the others may read. */
const REWRITES = [
  IDIOMS,
  BROWSER_IDIOMS,
  FILE_IDIOMS,
  REPO_IDIOMS,
  WEB_IDIOMS,
  WORKSPACE_IDIOMS,
  MEMORY_REQUESTS,
  PHRASAL_VERBS,
];

/** The last query normalized: one search normalizes its query twice (its terms, its action). */
let last = { query: '', text: '' };

/** The query with its literal values replaced by the words for their kind, and phrasal verbs by one word. */
export function normalizeQuery(query: string): string {
  if (query === last.query) return last.text;
  let text = applyRewrites(undictate(boundedQuery(query)), CHAT_SHORTHAND);
  let files = 0;
  for (const [pattern, words] of LITERALS) {
    text = text.replace(pattern, (m) => {
      if (words === fileWords || words === knownFileWords) files++;
      return words(m.trim());
    });
  }
  // Two files named: the tool that takes several at once.
  if (files >= 2) text += ' multiple files';
  // `#17` with no word for what it is: an issue or a pull request.
  if (BARE_REFERENCE.test(text) && !ISSUE_WORDS.test(text)) text += ' pull request issue';
  // To open a PR is to create one; to raise a bug or a problem is to create an issue.
  text = text.replace(OPEN_TO_CREATE, (_, thing: string) =>
    /^(?:pr|pull request|merge request|mr|issue|ticket)$/i.test(thing)
      ? ` create ${thing} `
      : ` create issue ${thing} `,
  );
  for (const rewrites of REWRITES) text = applyRewrites(text, rewrites);
  // A number on its own is a value (`the last 7 days`, `PR 412`), not a word of the need: it would match `context7` or an error code.
  text = text.replace(STANDALONE_NUMBER, ' ');
  last = { query, text };
  return text;
}
