/** A pattern and what its matches become: words, or a function of the match. */
export type Rewrite = [RegExp, string | ((match: string) => string)];

/** The text with each rewrite applied in turn. */
export function applyRewrites(text: string, rewrites: readonly Rewrite[]): string {
  for (const [pattern, words] of rewrites)
    text = typeof words === 'string' ? text.replace(pattern, words) : text.replace(pattern, words);
  return text;
}

/**
 * `phrase` rewritten to `words` in the clauses (between `.` and `;`) where `context` is found too,
 * before or after it: one pass over the clauses, where a lookbehind over the clause would be tried at
 * every position of the query.
 */
export function inClauseWith(context: RegExp, phrase: RegExp, words: string): Rewrite {
  return [/[^.;]+/g, (clause) => (context.test(clause) ? clause.replace(phrase, words) : clause)];
}
