/**
 * The semantic strategy's fusion of the keyword ranking and the built-in model's similarities, fit
 * on the training split of the query sets (`node bench/discovery.mjs --fit` prints the fit): MRR on
 * train (3,921 requests) with the keyword weight 1 and the semantic weight 0 → 0.714, 0.1 → 0.718,
 * 0.2 → 0.718, 0.35 → 0.714, 0.5 → 0.708; reciprocal rank fusion, k = 5 → 0.626, 20 → 0.596,
 * 60 → 0.580. The blend at 0.2 was kept (the later of two equal, to give the model more say).
 */
import type { FusionWeights } from '../search/fusion';

export const FUSION: Readonly<FusionWeights> = Object.freeze({
  method: 'blend',
  keyword: 1,
  semantic: 0.2,
});
