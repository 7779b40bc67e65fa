/**
 * Hybrid ranking: the keyword ranking (BM25F with its gains) and embedding similarities fused into
 * one order. Two standard methods:
 * - `blend`: a linear blend of the keyword score over the query's best keyword score (0..1) and
 *   the similarity above the mean over the best's (at most 1);
 * - `rrf`: reciprocal rank fusion, Σ 1 / (k + rank) over the two rankings (Cormack et al., 2009).
 *
 * Each side brings its best candidates: the keyword ranking's pool, and the embeddings' nearest
 * neighbours. A candidate of one side is scored by the other too (`similarityAt`), so the fused
 * order of the best is the order a fusion over every document would give.
 */

/** A document and its similarity to the query. */
export interface Neighbour {
  doc: number;
  similarity: number;
}

export type FusionWeights =
  { method: 'blend'; keyword: number; semantic: number } | { method: 'rrf'; k: number };

/** What the semantic side brings to the fusion. */
export interface SemanticMatches {
  /** The documents most similar to the query, most similar first. */
  nearest: readonly Neighbour[];
  /** The query's mean similarity to the documents searched (what "more similar than usual" means). */
  mean: number;
  /** The similarity of the query to any document. */
  similarityAt(doc: number): number;
}

/** A document the keyword ranking scored. */
export interface KeywordHit {
  doc: number;
  score: number;
}

export interface FusedDoc {
  doc: number;
  score: number;
  /**
   * 0..1: the fused score over the best a candidate could have (first in both rankings, or the best
   * keyword score and the top similarity), so it falls as the order does.
   */
  relevance: number;
}

/**
 * The candidates that keywords match or that are more similar to the query than the mean, in fused
 * order (best first; equal scores by `byKey`). `keyword` holds the keyword ranking's best, best first.
 */
export function fuse(
  keyword: readonly KeywordHit[],
  semantic: SemanticMatches,
  weights: FusionWeights,
  byKey: (a: number, b: number) => number,
): FusedDoc[] {
  const best = keyword.length ? keyword[0].score : 0;
  const keywordOf = new Map<number, number>();
  const keywordRank = new Map<number, number>();
  keyword.forEach((hit, r) => {
    keywordOf.set(hit.doc, best > 0 ? hit.score / best : 0);
    keywordRank.set(hit.doc, r + 1);
  });
  const similarityOf = new Map<number, number>();
  semantic.nearest.forEach((n) => similarityOf.set(n.doc, n.similarity));
  for (const hit of keyword)
    if (!similarityOf.has(hit.doc)) similarityOf.set(hit.doc, semantic.similarityAt(hit.doc));
  const { mean } = semantic;
  let top = -Infinity;
  for (const s of similarityOf.values()) top = Math.max(top, s);
  const spread = top - mean || 1;
  const semanticRank = new Map(semantic.nearest.map((n, r) => [n.doc, r + 1]));
  const ceiling =
    weights.method === 'rrf' ? 2 / (weights.k + 1) : weights.keyword + weights.semantic || 1;
  const fused: FusedDoc[] = [];
  for (const [doc, similarity] of similarityOf) {
    const k = keywordOf.get(doc) ?? 0;
    if (k <= 0 && !(similarity > mean)) continue;
    const score =
      weights.method === 'rrf'
        ? rrfTerm(weights.k, keywordRank.get(doc)) + rrfTerm(weights.k, semanticRank.get(doc))
        : weights.keyword * k + weights.semantic * ((similarity - mean) / spread);
    const relevance = Math.min(1, Math.max(0, score / ceiling));
    fused.push({ doc, score, relevance });
  }
  return fused.sort((a, b) => b.score - a.score || byKey(a.doc, b.doc));
}

function rrfTerm(k: number, rank: number | undefined): number {
  return rank === undefined ? 0 : 1 / (k + rank);
}
