/**
 * How likely a ranked tool is the one a request asks for, on one scale for every query: a relevance
 * of 0.8 means the same for "read a file" as for "list my github issues", and a best answer below
 * NO_MATCH_BELOW means no tool fits.
 *
 * A keyword score over its query's ceiling does not say that alone: a query whose main word no tool
 * has ("what is the weather in Paris" with no weather server) still ranks something first. So the
 * probability is a logistic regression over the evidence a ranking has: the score over the ceiling,
 * the share of the query's weight (by idf) carried by words no indexed tool has, and how many words
 * the query has. It is fit by tools/discovery-lab/fit-match.mjs on the training requests, each asked
 * twice: of the whole corpus (its best tool right or wrong) and of the corpus without the servers of
 * its expected tools (nothing fits). That puts the prior at about one request in two having no fitting
 * tool, which errs towards saying "nothing fits" more than a fleet that covers its requests would.
 */
import type { Bm25Index, WeightedTerm } from '../search/bm25';

/** What a query itself tells of how well anything can match it. */
export interface QueryEvidence {
  /** Share (0..1) of the query's own words' idf that no indexed document has. */
  absentShare: number;
  /** How many words of its own the query has (a word with its synonyms and corrections counts once). */
  words: number;
}

/** The fitted coefficients (tools/discovery-lab/fit-match.mjs prints them). */
export const MATCH_MODEL = Object.freeze({
  bias: 0.9257,
  logRelevance: 1.7229,
  absentShare: 0.4191,
  logWords: 1.4669,
});

/**
 * Below this probability the best answer is not a match: the discovery panel says no tool matches
 * and shows the closest ones apart. Chosen on the dev split (tools/discovery-lab/README.md) to keep
 * nearly every right answer: a person shown "no match" over the right tool stops looking.
 */
export const NO_MATCH_BELOW = 0.15;

/** The query's own words, grouped as the scorer groups them, with their idf and presence. */
export function queryEvidence(scorer: Bm25Index, plan: readonly WeightedTerm[]): QueryEvidence {
  const groups = new Map<number | WeightedTerm, WeightedTerm[]>();
  for (const t of plan) {
    const key = t.group ?? t;
    const members = groups.get(key);
    if (members) members.push(t);
    else groups.set(key, [t]);
  }
  let total = 0;
  let absent = 0;
  let words = 0;
  for (const members of groups.values()) {
    const own = members.filter((t) => t.weight >= 1);
    if (!own.length) continue;
    words++;
    const mass = Math.max(...own.map((t) => scorer.idf(t.term)));
    total += mass;
    if (!members.some((t) => scorer.has(t.term))) absent += mass;
  }
  return { absentShare: total ? absent / total : 1, words };
}

/** The probability (0..1) that a tool whose score over its ceiling is `relevance` is the one asked for. */
export function matchProbability(relevance: number, query: QueryEvidence): number {
  const m = MATCH_MODEL;
  const z =
    m.bias +
    m.logRelevance * Math.log(Math.max(relevance, 1e-4)) +
    m.absentShare * query.absentShare +
    m.logWords * Math.log(query.words + 1);
  return 1 / (1 + Math.exp(-z));
}
