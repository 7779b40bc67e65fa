/**
 * The semantic strategy's fusion of the keyword ranking and the embedding similarities: a linear
 * blend in which the keyword ranking leads (a tool's exact words and name stay what counts most)
 * and the similarities reorder what the words leave close, and lift a tool no word matches. A blend
 * fit better than reciprocal rank fusion, which lets a weak similarity rank equal a strong keyword
 * match (the fit is in tools/discovery-lab/README.md).
 */
import type { FusionWeights } from '../search/fusion';

export const FUSION: Readonly<FusionWeights> = Object.freeze({
  method: 'blend',
  keyword: 1,
  semantic: 0.2,
});
