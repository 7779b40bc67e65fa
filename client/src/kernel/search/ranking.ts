/**
 * Keyword ranking: BM25F scores times the query's coverage, then the gains (server named, name
 * covered, phrases found) and the action factor, keeping only the best `limit` as they come.
 *
 * It ranks the documents of any `RankableIndex` by their slots; what a slot holds (a tool) is the
 * caller's business. The scratch arrays belong to a `Ranker`, one per index.
 */
import { actionsDiffer, type Action } from './actions';
import type { Bm25Index, WeightedTerm } from './bm25';
import { adjacentPairs, termPairs, type TermPairs } from './phrases';

/**
 * How much a tool whose name the query fully covers gains: its score times 1 + NAME_BOOST. Fit with
 * the ranking's other numbers on the training split (tools/discovery-lab/fit-ranking.mjs).
 */
export const NAME_BOOST = 1;

/** How much the tools of a server the query names gain: their score times 1 + SERVER_BOOST (all of the server id's words named). */
export const SERVER_BOOST = 1.5;

/** How much a tool whose text holds every two-word phrase of the query gains. */
export const PHRASE_BOOST = 0.5;

/** Power of the share of the query a tool matches, which multiplies its score. */
export const COVERAGE = 0.5;

/**
 * What the score of a tool whose action the request does not ask for is multiplied by: `when was
 * package.json modified` reads, and `edit_file` matches its words as well as `get_file_info` does.
 */
export const ACTION_MISMATCH = 0.6;

/** What the ranking reads of an index, per document slot. */
export interface RankableIndex {
  readonly scorer: Bm25Index;
  /** Whether some document's server (or other owner) has this term in its name. */
  isServerTerm(term: string): boolean;
  /** Whether the document passes the default filter. */
  visibleAt(doc: number): boolean;
  /** Share of the document's server name terms the query names itself (weight ≥ 1). */
  serverShareAt(doc: number, weights: Float64Array): number;
  /** Share of the document's name terms the query covers. */
  nameCoverageAt(doc: number, weights: Float64Array): number;
  /** The action of the document's name, if it says. */
  actionAt(doc: number): Action | undefined;
  /** The document's key, which orders equal scores (so that a ranking does not depend on the order documents were added in). */
  keyAt(doc: number): string;
}

/** The gains and factors of the ranking; each has a default below, and 0 (1 for the factor) turns it off. */
export interface RankingOptions {
  nameBoost?: number;
  phraseBoost?: number;
  serverBoost?: number;
  coverage?: number;
  actionMismatch?: number;
}

/** A ranked document slot. */
export interface ScoredDoc {
  doc: number;
  score: number;
  /** The score over the most the query could score, 0..1. */
  relevance: number;
}

/** A query as `rank` takes it: its weighted terms, and the action it asks for. */
export interface Query {
  plan: readonly WeightedTerm[];
  asked: Action | undefined;
}

/** Pairs of the query's own terms in their order (two-word phrases to find in a tool's text). */
function queryPairs(plan: readonly WeightedTerm[]): Array<[string, string]> {
  const asked = plan.filter((t) => t.weight >= 1).map((t) => t.term);
  return asked.slice(1).map((t, i) => [asked[i], t]);
}

/** Best first; equal scores in the order of the documents' keys. */
export function byScoreIn(index: RankableIndex): (a: ScoredDoc, b: ScoredDoc) => number {
  return (a, b) => b.score - a.score || (index.keyAt(a.doc) < index.keyAt(b.doc) ? -1 : 1);
}

/** The `limit` largest numbers offered, largest first (a few at most: the discovery answer's size). */
class Floor {
  readonly values: number[] = [];
  constructor(private readonly limit: number) {}

  /** The smallest number kept once `limit` are kept, else 0. */
  get least(): number {
    return this.values.length >= this.limit ? this.values[this.values.length - 1] : 0;
  }

  offer(value: number): void {
    const values = this.values;
    if (values.length >= this.limit && value <= values[values.length - 1]) return;
    let at = values.length;
    while (at > 0 && values[at - 1] < value) at--;
    values.splice(at, 0, value);
    if (values.length > this.limit) values.pop();
  }
}

/** What the gains of one search need: their sizes, the plan's weights by term id, the query's phrases. */
interface Gains {
  name: number;
  /** The action the request asks for, when it says, and the factor of tools that do another. */
  asked: Action | undefined;
  mismatch: number;
  /** Zero when the query names no server. */
  server: number;
  phrase: number;
  pairs: Array<[string, string]>;
  /** The pairs resolved to term ids. */
  termPairs: TermPairs;
  weights: Float64Array;
  /** The term ids whose weight is set in `weights` (to clear them after). */
  ids: number[];
  /** The most the gains can multiply a score by, all of them and the phrase gain alone. */
  headroom: number;
  phraseRoom: number;
}

export interface Ranking {
  /** The best `limit` documents, best first. */
  results: ScoredDoc[];
  /** How many documents passed the filter and matched. */
  matched: number;
}

/** Documents kept by a stage (in the scratch), and the least score of the best `limit` among them. */
interface Kept {
  count: number;
  least: number;
}

/**
 * Ranks the documents of one index. It holds the scratch of a search (one at a time: searches are
 * synchronous), grown to the index's size as needed.
 */
export class Ranker {
  private keptDocs = new Int32Array(1024);
  private keptScores = new Float64Array(1024);
  /** The plan's weights by term id, zero elsewhere between searches. */
  private weightById = new Float64Array(1024);

  private readonly byScore: (a: ScoredDoc, b: ScoredDoc) => number;

  constructor(private readonly index: RankableIndex) {
    this.byScore = byScoreIn(index);
  }

  /**
   * Scores, filters and orders the matching documents. The BM25F score is multiplied by the query's
   * coverage, then by the gains: server named, name covered, phrases found. With a `limit`, only the
   * best `limit` are kept, and a gain is worked out only for documents that can still make it: gains
   * have ceilings, so a score times the ceilings still to come bounds what it can become.
   * `matched` counts every document that passed the filter either way. Without `keep`, the index's
   * default filter (`visibleAt`) applies.
   */
  rank(
    query: Query,
    keep: ((doc: number) => boolean) | undefined,
    options: RankingOptions,
    limit = Infinity,
  ): Ranking {
    const { plan, asked } = query;
    const scorer = this.index.scorer;
    const gains = this.gainsOf(plan, asked, options);
    // The best a document could score: every query term saturated in it, and every gain.
    const ceiling =
      gains.headroom *
      (plan.reduce((sum, t) => sum + (t.weight >= 1 ? scorer.maxContribution(t.term, 1) : 0), 0) ||
        1);
    const kept = this.filtered(plan, keep ?? ((doc) => this.index.visibleAt(doc)), options, limit);
    const candidates = this.withNameAndServer(gains, kept, limit);
    const results = this.withPhrases(gains, candidates, ceiling, limit);
    for (const id of gains.ids) gains.weights[id] = 0;
    return { results, matched: kept.count };
  }

  private gainsOf(
    plan: readonly WeightedTerm[],
    asked: Action | undefined,
    options: RankingOptions,
  ): Gains {
    const { scorer } = this.index;
    const name = options.nameBoost ?? NAME_BOOST;
    const serverBoost = options.serverBoost ?? SERVER_BOOST;
    const phrase = options.phraseBoost ?? PHRASE_BOOST;
    if (this.weightById.length < scorer.termCount)
      this.weightById = new Float64Array(scorer.termCount * 2);
    const ids: number[] = [];
    for (const t of plan) {
      const id = scorer.termId(t.term);
      if (id === undefined) continue;
      this.weightById[id] = t.weight;
      ids.push(id);
    }
    const server =
      serverBoost > 0 && plan.some((t) => t.weight >= 1 && this.index.isServerTerm(t.term))
        ? serverBoost
        : 0;
    const pairs = phrase ? queryPairs(plan) : [];
    const phraseRoom = pairs.length ? 1 + phrase : 1;
    const mismatch = options.actionMismatch ?? ACTION_MISMATCH;
    return {
      name,
      asked: mismatch === 1 ? undefined : asked,
      mismatch,
      server,
      phrase,
      pairs,
      termPairs: termPairs(scorer, pairs),
      weights: this.weightById,
      ids,
      headroom: (1 + name) * (1 + server) * phraseRoom,
      phraseRoom,
    };
  }

  /** 1. The documents that pass the filter (into the scratch), with their scores times the coverage to the power. */
  private filtered(
    plan: readonly WeightedTerm[],
    keep: (doc: number) => boolean,
    options: RankingOptions,
    limit: number,
  ): Kept {
    const power = options.coverage ?? COVERAGE;
    const { docs, scores, coverage } = this.index.scorer.score(plan);
    if (this.keptDocs.length < docs.length) {
      this.keptDocs = new Int32Array(docs.length * 2);
      this.keptScores = new Float64Array(docs.length * 2);
    }
    const top = new Floor(limit);
    let count = 0;
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i];
      if (!keep(doc)) continue;
      const score = withCoverage(scores[doc], coverage[doc], power);
      this.keptDocs[count] = doc;
      this.keptScores[count++] = score;
      if (limit !== Infinity) top.offer(score);
    }
    this.index.scorer.reset(docs);
    return { count, least: top.least };
  }

  /** 2. The server and name gains and the action factor, for the documents that could still make the top with every gain (compacted in the scratch). */
  private withNameAndServer(gains: Gains, kept: Kept, limit: number): Kept {
    // No gain to work out: the phrase stage cuts by the same bound.
    if (!gains.server && !gains.name && !gains.asked) return kept;
    const { keptDocs, keptScores } = this;
    // The kept best can lose the action factor: a document that cannot reach what they keep then is out.
    const cut = (kept.least * (gains.asked ? Math.min(1, gains.mismatch) : 1)) / gains.headroom;
    // Nor can one whose every gain to come leaves it below the best `limit` scored so far here
    // (the phrase stage cuts by them; a hair over the headroom, against rounding).
    const reach = gains.headroom * (1 + 1e-12);
    const top = new Floor(limit);
    let count = 0;
    for (let i = 0; i < kept.count; i++) {
      const score = keptScores[i];
      if (score < cut || score * reach < top.least) continue;
      const doc = keptDocs[i];
      const gained = this.gained(gains, doc, score);
      keptDocs[count] = doc;
      keptScores[count++] = gained;
      if (limit !== Infinity) top.offer(gained);
    }
    return { count, least: top.least };
  }

  /** A score times the server and name gains and the action factor. */
  private gained(gains: Gains, doc: number, score: number): number {
    const { index } = this;
    if (gains.server) score *= 1 + gains.server * index.serverShareAt(doc, gains.weights);
    if (gains.name) score *= 1 + gains.name * index.nameCoverageAt(doc, gains.weights);
    if (gains.asked && actionsDiffer(gains.asked, index.actionAt(doc))) score *= gains.mismatch;
    return score;
  }

  /** 3. The phrase gain, for those that could still make the top with it; the best `limit`, in order. */
  private withPhrases(gains: Gains, candidates: Kept, ceiling: number, limit: number): ScoredDoc[] {
    const { pairs, phraseRoom } = gains;
    const { keptDocs, keptScores } = this;
    const cut = candidates.least / phraseRoom;
    const best: ScoredDoc[] = [];
    for (let i = 0; i < candidates.count; i++) {
      let score = keptScores[i];
      // Ties go on: the order among equal scores is the keys'.
      if (score < cut || (best.length >= limit && score * phraseRoom < best[best.length - 1].score))
        continue;
      const doc = keptDocs[i];
      if (pairs.length)
        score *=
          1 +
          (gains.phrase * adjacentPairs(this.index.scorer.fieldsAt(doc), gains.termPairs)) /
            pairs.length;
      if (best.length >= limit && score < best[best.length - 1].score) continue;
      const scored = { doc, score, relevance: Math.min(1, score / ceiling) };
      if (limit === Infinity) {
        best.push(scored);
        continue;
      }
      let at = best.length;
      while (at > 0 && this.byScore(scored, best[at - 1]) < 0) at--;
      if (at >= limit) continue;
      best.splice(at, 0, scored);
      if (best.length > limit) best.pop();
    }
    return limit === Infinity ? best.sort(this.byScore) : best;
  }
}

/** A score times the query's coverage to the power (the usual powers without `**`, which costs more). */
function withCoverage(score: number, coverage: number, power: number): number {
  return power === 0
    ? score
    : power === 0.5
      ? score * Math.sqrt(coverage)
      : score * coverage ** power;
}
