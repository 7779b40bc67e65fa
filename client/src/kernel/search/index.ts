/**
 * The search engine: text analysis, BM25F, typo tolerance, synonyms and a general thesaurus, query
 * analysis (literal values, dictation), keyword ranking with its gains, and the fusion of a keyword
 * ranking with embedding similarities. It knows documents and queries, nothing of the protocol
 * (discovery/ builds on it).
 */
export { actionsDiffer, requestAction, toolAction, type Action } from './actions';
export { Bm25Index, type WeightedTerm } from './bm25';
export { adjacentPairs, termPairs, type TermPairs } from './phrases';
export { editDistance, FuzzyVocabulary, maxEditsFor } from './fuzzy';
export {
  fuse,
  type FusedDoc,
  type FusionWeights,
  type KeywordHit,
  type Neighbour,
  type SemanticMatches,
} from './fusion';
export { spokenNumber, undictate } from './queryDictation';
export { boundedQuery, MAX_QUERY_CHARS, normalizeQuery } from './queryText';
export {
  planQuery,
  queryOf,
  THESAURUS_WEIGHT,
  type PlannableIndex,
  type QueryPlanOptions,
} from './queryPlan';
export {
  ACTION_MISMATCH,
  byScoreIn,
  COVERAGE,
  NAME_BOOST,
  PHRASE_BOOST,
  Ranker,
  SERVER_BOOST,
  type Query,
  type RankableIndex,
  type Ranking,
  type RankingOptions,
  type ScoredDoc,
} from './ranking';
export { expandTerms } from './synonyms';
export { analyze, isStopWord, splitWords, stem, termsOfWords } from './text';
export { relatedStems, type Related } from './thesaurus';
