/** How the tool index analyses and weighs a tool's text (BM25F fields, stemming, k1 and b). */

/** The fields a tool is indexed by, in the order of the weights. */
export const INDEX_FIELDS = [
  'name',
  'server',
  'description',
  'details',
  'categories',
  'keywords',
  'params',
] as const;
export type IndexField = (typeof INDEX_FIELDS)[number];

/** How tools are analysed and scored. `plain` is the textbook baseline the benchmark compares with. */
export interface AnalysisOptions {
  /** Porter stemming of every term. */
  stem: boolean;
  /** Separate fields with weights (else one field holding name, description and parameters). */
  fields: boolean;
  /** Split camelCase identifiers (snake_case and kebab-case always split at the punctuation). */
  splitIdentifiers: boolean;
  weights: Record<IndexField, number>;
  k1: number;
  b: number;
}

export const DEFAULT_ANALYSIS: Readonly<AnalysisOptions> = Object.freeze({
  stem: true,
  fields: true,
  splitIdentifiers: true,
  weights: {
    name: 2,
    server: 2,
    description: 0.75,
    details: 0.3,
    categories: 0.25,
    keywords: 1.5,
    params: 0.4,
  },
  k1: 1.2,
  b: 0.9,
});

export const PLAIN_ANALYSIS: Readonly<AnalysisOptions> = Object.freeze({
  stem: false,
  fields: false,
  splitIdentifiers: false,
  weights: {
    name: 1,
    server: 0,
    description: 0,
    details: 0,
    categories: 0,
    keywords: 0,
    params: 0,
  },
  k1: 1.2,
  b: 0.75,
});
