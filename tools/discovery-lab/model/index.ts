/**
 * What the lab's scripts load: the product's discovery module, and beside it the static model and
 * its ranker, which the product does not ship.
 */
export * from '../../../client/src/kernel/discovery';
export { normalizeQuery } from '../../../client/src/kernel/search/queryText';
export {
  COARSE_DIMS,
  COARSE_POOL,
  loadStaticModel,
  MODEL_FILE,
  ModelRanker,
  type ModelRankerOptions,
  toolText,
  toolVector,
  toolVectors,
  TOOL_TEXT_WEIGHTS,
  type ToolTextWeights,
  type ToolVectorSource,
} from './modelRanker';
export { normalize, StaticEmbeddings } from './staticModel';
export { TopK } from './topK';
export { VectorIndex, type Neighbour, type VectorIndexOptions } from './vectorIndex';
