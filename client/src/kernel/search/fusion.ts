/**
 * Hybrid ranking: the keyword ranking (BM25F with its gains) and the embedding similarities fused
 * into one order. Two standard methods:
 * - `blend`: a linear blend of the keyword score over the query's best keyword score (0..1) and
 *   the similarity above the candidates' mean over the best's (at most 1), with weights fit on the
 *   training split (bench/discovery.mjs --fit);
 * - `rrf`: reciprocal rank fusion, Σ 1 / (k + rank) over the two rankings (Cormack et al., 2009).
 */

export type FusionWeights =
  { method: 'blend'; keyword: number; semantic: number } | { method: 'rrf'; k: number };

export interface Fused<T> {
  entry: T;
  score: number;
  /**
   * 0..1: the fused score over the best a candidate could have (first in both rankings, or the best
   * keyword score and the top similarity), so it falls as the order does.
   */
  relevance: number;
}

/**
 * The candidates that keywords match or that are more similar to the query than the candidates'
 * mean, in fused order (best first; ties in the order given). `keywordScores` holds the keyword
 * ranking's best candidates with their scores; the others count as unmatched by keywords.
 */
export function fuse<T>(
  candidates: readonly T[],
  similarities: ArrayLike<number>,
  keywordScores: ReadonlyMap<T, number>,
  weights: FusionWeights,
): Array<Fused<T>> {
  const n = candidates.length;
  let best = 0;
  for (const s of keywordScores.values()) best = Math.max(best, s);
  const keywordOf = (i: number) => (best > 0 ? (keywordScores.get(candidates[i]) ?? 0) / best : 0);
  let mean = 0;
  for (let i = 0; i < n; i++) mean += similarities[i] / n;
  const scores = new Float64Array(n);
  if (weights.method === 'rrf') {
    const keywordRank = new Map([...keywordScores.keys()].map((e, r) => [e, r + 1]));
    const order = Array.from({ length: n }, (_, i) => i).sort(
      (a, b) => similarities[b] - similarities[a],
    );
    order.forEach((i, r) => {
      const k = keywordRank.get(candidates[i]);
      scores[i] = 1 / (weights.k + r + 1) + (k === undefined ? 0 : 1 / (weights.k + k));
    });
  } else {
    let top = -Infinity;
    for (let i = 0; i < n; i++) top = Math.max(top, similarities[i]);
    const spread = top - mean || 1;
    for (let i = 0; i < n; i++)
      scores[i] =
        weights.keyword * keywordOf(i) + weights.semantic * ((similarities[i] - mean) / spread);
  }
  const ceiling =
    weights.method === 'rrf' ? 2 / (weights.k + 1) : weights.keyword + weights.semantic || 1;
  const fused: Array<Fused<T>> = [];
  for (let i = 0; i < n; i++) {
    if (keywordOf(i) <= 0 && !(similarities[i] > mean)) continue;
    const relevance = Math.min(1, Math.max(0, scores[i] / ceiling));
    fused.push({ entry: candidates[i], score: scores[i], relevance });
  }
  return fused.sort((a, b) => b.score - a.score);
}
