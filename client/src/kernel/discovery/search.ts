/**
 * Search over the tool index (MGP §16.4): the keyword, category and semantic strategies, the
 * discovery filters, and relevance scores between 0 and 1.
 *
 * The semantic strategy is hybrid: the keyword ranking and the embedding similarities fused
 * (fusion.ts), so that a tool no keyword matches can still rank, and an exact name still counts.
 * Its embeddings come from the user's own embedding endpoint (embeddingRanker.ts); without one it
 * answers by keywords.
 */
import { byScoreIn, type ScoredDoc } from '../search/ranking';
import { queryOf, type QueryPlanOptions } from '../search/queryPlan';
import { splitWords, stem } from '../search/text';
import { RISK_ORDER } from '../domain/security';
import { categoryStems } from './categories';
import { fuse, type FusionWeights, type SemanticMatches } from '../search/fusion';
import { FUSION } from './fusionWeights';
import { matchProbability, queryEvidence, type QueryEvidence } from './matchCalibration';
import type { ToolIndex } from './toolIndex';
import type { DiscoverFilter, RiskLevel, SearchStrategy, ToolIndexEntry } from './types';
import { discoverable } from './visibility';

export { discoverable, kernelToolVisibility, type KernelToolVisibility } from './visibility';
export {
  ACTION_MISMATCH,
  COVERAGE,
  NAME_BOOST,
  PHRASE_BOOST,
  SERVER_BOOST,
} from '../search/ranking';
export { planQuery, THESAURUS_WEIGHT, type QueryPlanOptions } from '../search/queryPlan';

/** A tool in a ranking. */
export interface ScoredEntry {
  entry: ToolIndexEntry;
  score: number;
  /** The probability (0..1) that it is the tool asked for, on one scale for every query (matchCalibration.ts). */
  relevance: number;
}

/** The ranker's side of a ranker for the semantic strategy. */
interface RankerState {
  readonly name: string;
  /** True once it can score (e.g. embeddings computed for the indexed tools). */
  available(): boolean;
}

/** A ranker that scores a list of tools (an embeddings endpoint, embeddingRanker.ts). */
export interface SimilarityRanker extends RankerState {
  /** Similarity (cosine, -1..1) of the query to each entry. */
  rank(
    query: string,
    entries: readonly ToolIndexEntry[],
  ): Promise<ArrayLike<number>> | ArrayLike<number>;
}

/** A ranker that finds the query's nearest tools in an index itself (a vector index of its own). */
export interface NeighbourRanker extends RankerState {
  /** The `k` tools nearest the query among the index's slots `keep` passes, and what fusion needs besides. */
  match(
    query: string,
    index: ToolIndex,
    keep: (doc: number) => boolean,
    k: number,
  ): Promise<SemanticMatches> | SemanticMatches;
}

/**
 * A ranker for the semantic strategy: similarities of the query to tools, higher is better.
 * `EmbeddingRanker` (embeddingRanker.ts) asks an OpenAI-compatible embeddings endpoint.
 */
export type SemanticRanker = SimilarityRanker | NeighbourRanker;

/** The semantic side of a search, from either kind of ranker. */
export async function matchesOf(
  ranker: SemanticRanker,
  query: string,
  index: ToolIndex,
  keep: (doc: number) => boolean,
  k: number,
): Promise<SemanticMatches> {
  if ('match' in ranker) return ranker.match(query, index, keep, k);
  const docs: number[] = [];
  for (let doc = 0; doc < index.slotCount; doc++)
    if (index.entryAt(doc) && keep(doc)) docs.push(doc);
  const similarities = await ranker.rank(
    query,
    docs.map((doc) => index.entryAt(doc) as ToolIndexEntry),
  );
  const byDoc = new Map(docs.map((doc, i) => [doc, similarities[i]]));
  let mean = 0;
  for (let i = 0; i < docs.length; i++) mean += similarities[i] / docs.length;
  const nearest = docs
    .map((doc, i) => ({ doc, similarity: similarities[i] }))
    .sort((a, b) => b.similarity - a.similarity || a.doc - b.doc);
  return { nearest, mean, similarityAt: (doc) => byDoc.get(doc) ?? 0 };
}

export interface SearchOptions extends QueryPlanOptions {
  semantic?: SemanticRanker;
  /** How the semantic strategy fuses the two rankings (default FUSION). */
  fusion?: FusionWeights;
  /** The semantic strategy's keyword candidates (default KEYWORD_POOL). */
  keywordPool?: number;
  /** Keep only this many best results (the rest are counted in `matched`). */
  limit?: number;
}

export interface SearchOutcome {
  results: ScoredEntry[];
  /** How many tools passed the filters and matched. */
  matched: number;
  strategy: SearchStrategy;
  fallback?: SearchStrategy;
}

/**
 * The risk a tool counts as for `risk_level_max`. A tool without MGP security metadata is not known
 * to be safe: it counts as `moderate`, or `dangerous` when its annotations say it is destructive.
 * Annotations never lower a risk (they are hints from the server).
 */
export function effectiveRisk(entry: ToolIndexEntry): RiskLevel {
  if (entry.security) return entry.security.risk_level;
  return entry.annotations?.destructiveHint === true ? 'dangerous' : 'moderate';
}

/** The filter as a predicate. Without `status: "all"` only tools of connected servers pass. */
export function filterPredicate(filter: DiscoverFilter = {}): (entry: ToolIndexEntry) => boolean {
  const categories = filter.categories?.length ? filter.categories : undefined;
  const maxRisk = filter.risk_level_max ? RISK_ORDER[filter.risk_level_max] : undefined;
  const all = filter.status === 'all';
  return (entry) =>
    (all || entry.status === 'connected') &&
    (maxRisk === undefined || RISK_ORDER[effectiveRisk(entry)] <= maxRisk) &&
    (!categories || categories.some((c) => entry.categories.includes(c)));
}

/** The textbook baseline the benchmark compares with: the query's words only, summed, no gains. */
export const PLAIN_SEARCH: Readonly<SearchOptions> = Object.freeze({
  fuzzy: false,
  expansion: false,
  thesaurus: false,
  literals: false,
  grouping: false,
  nameBoost: 0,
  serverBoost: 0,
  phraseBoost: 0,
  coverage: 0,
  actionMismatch: 1,
});

/** Ties in tool id order, whatever order the tools were indexed in. */
export const byScore = (a: ScoredEntry, b: ScoredEntry) =>
  b.score - a.score || (a.entry.tool_id < b.entry.tool_id ? -1 : 1);

function planOptions(options: SearchOptions): SearchOptions {
  return { categories: categoryStems(), ...options };
}

function entries(
  index: ToolIndex,
  ranked: readonly ScoredDoc[],
  evidence: QueryEvidence,
): ScoredEntry[] {
  return ranked.map((s) => ({
    entry: index.entryAt(s.doc) as ToolIndexEntry,
    score: s.score,
    relevance: matchProbability(s.relevance, evidence),
  }));
}

/** The slots a search keeps: undefined for the default filter (the index's own `visibleAt`). */
function keepOf(index: ToolIndex, filter: DiscoverFilter): ((doc: number) => boolean) | undefined {
  const byDefault = !filter.categories?.length && !filter.risk_level_max && filter.status !== 'all';
  if (byDefault) return undefined;
  const pass = filterPredicate(filter);
  return (doc: number) => {
    const entry = index.entryAt(doc);
    return !!entry && pass(entry) && discoverable(entry);
  };
}

/** The keyword ranking's scored slots (the filter applied). */
function rankKeywords(
  index: ToolIndex,
  query: string,
  filter: DiscoverFilter,
  options: SearchOptions,
  limit: number | undefined,
): { results: ScoredDoc[]; matched: number; evidence: QueryEvidence } {
  const keep = keepOf(index, filter);
  const planned = queryOf(index, query, planOptions(options));
  const ranked = index.ranker.rank(planned, keep, options, limit);
  return { ...ranked, evidence: queryEvidence(index.scorer, planned.plan) };
}

/**
 * What the calibration of relevance reads of a query (matchCalibration.ts): the keyword ranking's
 * best tools with their scores over the query's ceiling, and what the query itself tells.
 */
export function keywordEvidence(
  index: ToolIndex,
  query: string,
  limit = 1,
  options: SearchOptions = {},
): { best: Array<{ entry: ToolIndexEntry; relevance: number }>; query: QueryEvidence } {
  const ranked = rankKeywords(index, query, {}, options, limit);
  const best = ranked.results.map((s) => ({
    entry: index.entryAt(s.doc) as ToolIndexEntry,
    relevance: s.relevance,
  }));
  return { best, query: ranked.evidence };
}

/** Keyword strategy: BM25F over the planned query terms. A query that is exactly a tool's name or id asks for that tool. */
export function keywordSearch(
  index: ToolIndex,
  query: string,
  filter: DiscoverFilter = {},
  options: SearchOptions = {},
): SearchOutcome {
  const ranked = rankKeywords(index, query, filter, options, options.limit);
  const results = entries(index, ranked.results, ranked.evidence);
  const keep = (e: ToolIndexEntry) => filterPredicate(filter)(e) && discoverable(e);
  const exact = index.findByName(query.trim()).find(keep);
  if (exact) {
    const at = results.findIndex((r) => r.entry === exact);
    if (at >= 0) results.splice(at, 1);
    results.unshift({ entry: exact, score: results[0]?.score ?? 1, relevance: 1 });
    if (results.length > (options.limit ?? Infinity)) results.pop();
  }
  return { results, matched: ranked.matched, strategy: 'keyword' };
}

/** Categories the query names, by a category's name or one of its trigger words. */
export function categoriesInQuery(query: string): string[] {
  const words = new Set(splitWords(query).map(stem));
  const found: string[] = [];
  for (const [category, stems] of categoryStems())
    if ([...stems].some((s) => words.has(s))) found.push(category);
  return found;
}

/**
 * Category strategy: the tools in the categories the query names (or that the filter names), ranked
 * by keyword relevance within them. When the query names no category, the keyword ranking stands in
 * and `fallback` says so.
 */
export function categorySearch(
  index: ToolIndex,
  query: string,
  filter: DiscoverFilter = {},
  options: SearchOptions = {},
): SearchOutcome {
  const named = categoriesInQuery(query);
  if (!named.length && !filter.categories?.length)
    return {
      ...keywordSearch(index, query, filter, options),
      strategy: 'category',
      fallback: 'keyword',
    };
  const keep = filterPredicate(filter);
  const inNamed = (e: ToolIndexEntry) =>
    !named.length || named.every((c) => e.categories.includes(c));
  const members = index.list().filter((e) => keep(e) && discoverable(e) && inNamed(e));
  const planned = queryOf(index, query, planOptions(options));
  const ranked = index.ranker.rank(planned, () => true, options);
  const evidence = queryEvidence(index.scorer, planned.plan);
  const scored = new Map(entries(index, ranked.results, evidence).map((s) => [s.entry.tool_id, s]));
  const results = members
    .map((entry) => scored.get(entry.tool_id) ?? { entry, score: 0, relevance: 0 })
    .map((s) => ({ ...s, relevance: Math.max(s.relevance, 0.5) }))
    .sort(byScore);
  return { results, matched: results.length, strategy: 'category' };
}

/**
 * The keyword candidates the fusion reads: the fused order's best come from the keyword ranking's
 * first few, and fewer candidates cost less keyword ranking (the gains are worked out only for
 * tools that can still make the pool).
 */
export const KEYWORD_POOL = 20;

/** The nearest neighbours the fusion reads (more when more results are asked for). */
export const NEIGHBOUR_POOL = 50;

/**
 * Semantic strategy: the keyword ranking and the tools nearest the query by embedding similarity,
 * fused (fusion.ts). Without a ranker that is available, or when it fails, the keyword ranking
 * answers and `fallback` is `keyword` (MGP §16.4). `matched` counts the fused candidates and the
 * keyword matches beyond the keyword pool.
 */
export async function semanticSearch(
  index: ToolIndex,
  query: string,
  filter: DiscoverFilter = {},
  options: SearchOptions = {},
): Promise<SearchOutcome> {
  const ranker = options.semantic;
  const byKeywords = (): SearchOutcome => ({
    ...keywordSearch(index, query, filter, options),
    strategy: 'semantic',
    fallback: 'keyword',
  });
  if (!ranker?.available()) return byKeywords();
  const keep = keepOf(index, filter) ?? ((doc: number) => index.visibleAt(doc));
  let semantic: SemanticMatches;
  try {
    const k = Math.max(NEIGHBOUR_POOL, options.limit ?? 0);
    semantic = await matchesOf(ranker, query, index, keep, k);
  } catch {
    return byKeywords();
  }
  const keyword = rankKeywords(index, query, filter, options, options.keywordPool ?? KEYWORD_POOL);
  const hits = keyword.results.sort(byScoreIn(index));
  const byKey = (a: number, b: number) => (index.keyAt(a) < index.keyAt(b) ? -1 : 1);
  const fused = fuse(hits, semantic, options.fusion ?? FUSION, byKey);
  const kept = options.limit === undefined ? fused : fused.slice(0, options.limit);
  // On the keyword strategy's scale: how well anything matches the query is the best keyword
  // evidence; which tool matches best is the fused order's, each tool by its share of the best score.
  const evidence = Math.max(0, ...hits.map((h) => h.relevance));
  const best = fused[0]?.score || 1;
  return {
    results: kept.map((f) => ({
      entry: index.entryAt(f.doc) as ToolIndexEntry,
      score: f.score,
      relevance: matchProbability((evidence * Math.max(0, f.score)) / best, keyword.evidence),
    })),
    matched: fused.length + Math.max(0, keyword.matched - hits.length),
    strategy: 'semantic',
  };
}

/** Runs the named strategy. */
export async function search(
  index: ToolIndex,
  query: string,
  strategy: SearchStrategy,
  filter?: DiscoverFilter,
  options?: SearchOptions,
): Promise<SearchOutcome> {
  if (strategy === 'semantic') return semanticSearch(index, query, filter, options);
  if (strategy === 'category') return categorySearch(index, query, filter, options);
  return keywordSearch(index, query, filter, options);
}
