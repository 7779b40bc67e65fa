/**
 * What a query becomes before scoring: its analysed words (light verbs and filler dropped), typo
 * corrections, synonyms from the domain table, words of the general thesaurus for words no document
 * has, and the names of the categories its words name, each term weighted, in groups per query word.
 */
import type { Action } from './actions';
import { requestAction } from './actions';
import type { Bm25Index, WeightedTerm } from './bm25';
import { maxEditsFor, type FuzzyVocabulary } from './fuzzy';
import { boundedQuery, normalizeQuery } from './queryText';
import type { Query, RankingOptions } from './ranking';
import { expandTerms } from './synonyms';
import { splitWords, stem } from './text';
import { relatedStems } from './thesaurus';

/** What planning reads of an index: how it analyses text, which terms it has, its typo vocabulary. */
export interface PlannableIndex {
  readonly analysis: { readonly stem: boolean };
  readonly scorer: Bm25Index;
  readonly vocabulary: FuzzyVocabulary;
  terms(text: string): string[];
}

/** What a query becomes before scoring. */
export interface QueryPlanOptions extends RankingOptions {
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
  /** URLs, file names and other literal values stand for their kind (`url`, `file`), phrasal verbs for one word (default true). */
  literals?: boolean;
  /** A query word and the terms found for it count once, as their best match (default true). */
  grouping?: boolean;
  /** Category names by the stems that name them (each adds its category's name with `categoryWeight`). */
  categories?: ReadonlyMap<string, ReadonlySet<string>>;
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
  index: PlannableIndex,
  query: string,
  options: QueryPlanOptions = {},
  normalized?: string,
): WeightedTerm[] {
  query = options.literals !== false ? (normalized ?? normalizeQuery(query)) : boundedQuery(query);
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
    for (const [category, stems] of options.categories ?? []) {
      const from = asked.find((t) => stems.has(t.term));
      if (from) for (const t of index.terms(category)) offer(t, categoryWeight, from.group);
    }
  }
  const planned = [...plan.values()];
  if (options.grouping === false) for (const t of planned) delete t.group;
  return planned;
}

/** The query as `Ranker.rank` takes it: the plan, and the action the request asks for. */
export function queryOf(index: PlannableIndex, query: string, options: QueryPlanOptions): Query {
  const action = options.actionMismatch !== 1;
  // Both read the query with its literal values replaced: replaced once.
  const normalized = action || options.literals !== false ? normalizeQuery(query) : undefined;
  const asked: Action | undefined = action ? requestAction(query, normalized) : undefined;
  return { plan: planQuery(index, query, options, normalized), asked };
}
