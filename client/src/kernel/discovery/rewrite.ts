/** A pattern and what its matches become: words, or a function of the match. */
export type Rewrite = [RegExp, string | ((match: string) => string)];

/** The text with each rewrite applied in turn. */
export function applyRewrites(text: string, rewrites: readonly Rewrite[]): string {
  for (const [pattern, words] of rewrites) text = typeof words === 'string' ? text.replace(pattern, words) : text.replace(pattern, words);
  return text;
}
