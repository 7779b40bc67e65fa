/**
 * Dynamic tool discovery (MGP §16): the tool index, its search strategies, the session tool cache
 * with its context budget, and the discovery kernel tools.
 */
import { KERNEL_SERVER_ID } from '../domain/kernelTool';
import { discoveryKernelTools } from './schemas';
import { kernelToolVisibility } from './visibility';
import { ToolIndex, type ToolIndexOptions } from './toolIndex';
import type { ServerTool, ToolIndexEntry } from './types';

export * from './types';
export { CATEGORY_TREE, deriveCategories, deriveKeywords, withAncestors } from './categories';
export { FUSION } from './fusionWeights';
export {
  MATCH_MODEL,
  matchProbability,
  NO_MATCH_BELOW,
  queryEvidence,
  type QueryEvidence,
} from './matchCalibration';
export {
  EmbeddingRanker,
  embeddingText,
  type EmbeddingRankerOptions,
  type EmbedTexts,
} from './embeddingRanker';
export { DEFAULT_ANALYSIS, PLAIN_ANALYSIS, type AnalysisOptions } from './analysis';
export { ToolIndex, type ToolIndexOptions } from './toolIndex';
export { toEntry } from './toolText';
export {
  ACTION_MISMATCH,
  byScore,
  categoriesInQuery,
  categorySearch,
  COVERAGE,
  discoverable,
  effectiveRisk,
  filterPredicate,
  kernelToolVisibility,
  keywordEvidence,
  keywordSearch,
  KEYWORD_POOL,
  matchesOf,
  NAME_BOOST,
  NEIGHBOUR_POOL,
  PHRASE_BOOST,
  planQuery,
  PLAIN_SEARCH,
  search,
  semanticSearch,
  SERVER_BOOST,
  THESAURUS_WEIGHT,
  type KernelToolVisibility,
  type ScoredEntry,
  type SearchOptions,
  type SearchOutcome,
  type SemanticRanker,
  type NeighbourRanker,
  type SimilarityRanker,
} from './search';
export {
  cl100kTokens,
  TOKENIZER_BUNDLE,
  tokenizerSource,
  toolDefinitionJson,
  toolTokens,
  type TokenCounter,
  type TokenizerSource,
} from './tokens';
export { SessionToolCache, type SessionCacheOptions, type SessionSnapshot } from './sessionCache';
export { KERNEL_DISCOVERY_TOOL_SCHEMAS, discoveryKernelTools } from './schemas';
export {
  createDiscoveryTools,
  discover,
  evict,
  request,
  session,
  type DiscoveryContext,
  type DiscoveryTools,
  type EvictParams,
  type EvictResult,
  type LoadedTool,
  type RequestParams,
  type RequestResult,
} from './metaTools';
export {
  ToolCreator,
  creationBlocker,
  type CreationOutcome,
  type EphemeralTool,
  type GeneratedTool,
  type ToolCreationOptions,
} from './toolCreation';

/**
 * A tool index holding the four discovery kernel tools (server `mgp`) plus any other kernel tools
 * given; servers are added with `upsertServer`.
 */
export function createToolIndex(
  options: ToolIndexOptions & { kernelTools?: ServerTool[] } = {},
): ToolIndex {
  const index = new ToolIndex(options);
  index.upsertServer(
    KERNEL_SERVER_ID,
    [...discoveryKernelTools(), ...(options.kernelTools ?? [])],
    'connected',
    true,
  );
  return index;
}

/**
 * The tools a model gets in its context under discovery (MGP §16.8): the meta-tools
 * `mgp.tools.discover` and `mgp.tools.request`, plus `mgp.tools.session*` when `withSessionTools`.
 * Administrative kernel tools are listed by `tools/list` but never put in the model's context.
 */
export function llmContextKernelTools(
  index: ToolIndex,
  withSessionTools = false,
): ToolIndexEntry[] {
  return index
    .list()
    .filter(
      (e) =>
        e.kernel &&
        (kernelToolVisibility(e.name) === 'meta' ||
          (withSessionTools && kernelToolVisibility(e.name) === 'optional')),
    );
}
