/**
 * Ranking for the keyword strategy (MGP §16.4): BM25F scores times the query's coverage, then the
 * gains (server named, name covered, phrases found) and the action factor, keeping only the best
 * `limit` as they come.
 */
import { actionsDiffer, type Action } from './actions';
import type { WeightedTerm } from './bm25';
import type { SearchOptions } from './search';
import type { ToolIndex } from './toolIndex';
import type { ToolIndexEntry } from './types';

/** How much a tool whose name the query fully covers gains: its score times 1 + NAME_BOOST. */
export const NAME_BOOST = 2;

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

export interface ScoredEntry {
  entry: ToolIndexEntry;
  score: number;
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

export const byScore = (a: ScoredEntry, b: ScoredEntry) =>
  b.score - a.score || (a.entry.tool_id < b.entry.tool_id ? -1 : 1);

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

// Scratch of `rank` (one search at a time): per kept document, its slot and its score so far.
let keptDocs = new Int32Array(1024);
let keptScores = new Float64Array(1024);
/** The plan's weights by term id, zero elsewhere between searches. */
let weightById = new Float64Array(1024);

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
  weights: Float64Array;
  /** The term ids whose weight is set in `weights` (to clear them after). */
  ids: number[];
  /** The most the gains can multiply a score by, all of them and the phrase gain alone. */
  headroom: number;
  phraseRoom: number;
}

function gainsOf(
  index: ToolIndex,
  plan: readonly WeightedTerm[],
  asked: Action | undefined,
  options: SearchOptions,
): Gains {
  const name = options.nameBoost ?? NAME_BOOST;
  const serverBoost = options.serverBoost ?? SERVER_BOOST;
  const phrase = options.phraseBoost ?? PHRASE_BOOST;
  if (weightById.length < index.scorer.termCount)
    weightById = new Float64Array(index.scorer.termCount * 2);
  const ids: number[] = [];
  for (const t of plan) {
    const id = index.scorer.termId(t.term);
    if (id === undefined) continue;
    weightById[id] = t.weight;
    ids.push(id);
  }
  const server =
    serverBoost > 0 && plan.some((t) => t.weight >= 1 && index.isServerTerm(t.term))
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
    weights: weightById,
    ids,
    headroom: (1 + name) * (1 + server) * phraseRoom,
    phraseRoom,
  };
}

/**
 * Scores, filters and orders the matching tools. The BM25F score is multiplied by the query's
 * coverage, then by the gains: server named, name covered, phrases found. With a `limit`, only the
 * best `limit` are kept, and a gain is worked out only for documents that can still make it: gains
 * have ceilings, so a score times the ceilings still to come bounds what it can become.
 * `matched` counts every document that passed the filter either way.
 */
export function rank(
  index: ToolIndex,
  query: Query,
  keep: ((e: ToolIndexEntry) => boolean) | undefined,
  options: SearchOptions,
  limit = Infinity,
  wanted?: readonly number[],
): Ranking {
  const { plan, asked } = query;
  const gains = gainsOf(index, plan, asked, options);
  // The best a document could score: every query term saturated in it, and every gain.
  const ceiling =
    gains.headroom *
    (plan.reduce(
      (sum, t) => sum + (t.weight >= 1 ? index.scorer.maxContribution(t.term, 1) : 0),
      0,
    ) || 1);
  const wantedScores: number[] = [];
  const kept = filtered(
    index,
    plan,
    keep,
    options.coverage ?? COVERAGE,
    limit,
    wanted,
    wantedScores,
  );
  const candidates = withNameAndServer(index, gains, kept, limit);
  const results = withPhrases(index, gains, candidates, ceiling, limit);
  for (const id of gains.ids) gains.weights[id] = 0;
  return { results, matched: kept.count, wantedScores };
}

export interface Ranking {
  /** The best `limit` documents, best first. */
  results: ScoredEntry[];
  /** How many documents passed the filter and matched. */
  matched: number;
  /** The scores before the gains (BM25F times coverage) of the `wanted` documents, in their order; NaN for one not matched. */
  wantedScores: number[];
}

/** 1. The documents that pass the filter (into the scratch), with their scores times the coverage to the power. */
function filtered(
  index: ToolIndex,
  plan: readonly WeightedTerm[],
  keep: ((e: ToolIndexEntry) => boolean) | undefined,
  power: number,
  limit: number,
  wanted: readonly number[] | undefined,
  wantedScores: number[],
): { count: number; least: number } {
  const { docs, scores, coverage } = index.scorer.score(plan);
  if (keptDocs.length < docs.length) {
    keptDocs = new Int32Array(docs.length * 2);
    keptScores = new Float64Array(docs.length * 2);
  }
  // Read before the scores are cleared: only documents some query term reached have one.
  if (wanted) {
    for (const doc of wanted)
      wantedScores.push(
        doc >= 0 && scores[doc] > 0 && passes(index, keep, doc)
          ? withCoverage(scores[doc], coverage[doc], power)
          : NaN,
      );
  }
  const top = new Floor(limit);
  let count = 0;
  for (const doc of docs) {
    if (!passes(index, keep, doc)) continue;
    const score = withCoverage(scores[doc], coverage[doc], power);
    keptDocs[count] = doc;
    keptScores[count++] = score;
    if (limit !== Infinity) top.offer(score);
  }
  index.scorer.reset(docs);
  return { count, least: top.least };
}

/** Whether the document passes the filter: `keep`, or without one the default discovery filter. */
function passes(
  index: ToolIndex,
  keep: ((e: ToolIndexEntry) => boolean) | undefined,
  doc: number,
): boolean {
  if (!keep) return index.visibleAt(doc);
  const entry = index.entryAt(doc);
  return !!entry && keep(entry);
}

/** A score times the query's coverage to the power (the usual powers without `**`, which costs more). */
function withCoverage(score: number, coverage: number, power: number): number {
  return power === 0
    ? score
    : power === 0.5
      ? score * Math.sqrt(coverage)
      : score * coverage ** power;
}

/** 2. The server and name gains and the action factor, for the documents that could still make the top with every gain (compacted in the scratch). */
function withNameAndServer(
  index: ToolIndex,
  gains: Gains,
  kept: { count: number; least: number },
  limit: number,
): { count: number; least: number } {
  // No gain to work out: the phrase stage cuts by the same bound.
  if (!gains.server && !gains.name && !gains.asked) return kept;
  // The kept best can lose the action factor: a document that cannot reach what they keep then is out.
  const cut = (kept.least * (gains.asked ? Math.min(1, gains.mismatch) : 1)) / gains.headroom;
  const top = new Floor(limit);
  let count = 0;
  for (let i = 0; i < kept.count; i++) {
    let score = keptScores[i];
    if (score < cut) continue;
    const doc = keptDocs[i];
    if (gains.server) score *= 1 + gains.server * index.serverShareAt(doc, gains.weights);
    if (gains.name) score *= 1 + gains.name * index.nameCoverageAt(doc, gains.weights);
    if (gains.asked && actionsDiffer(gains.asked, index.actionAt(doc))) score *= gains.mismatch;
    keptDocs[count] = doc;
    keptScores[count++] = score;
    if (limit !== Infinity) top.offer(score);
  }
  return { count, least: top.least };
}

/** 3. The phrase gain, for those that could still make the top with it; the best `limit`, in order. */
function withPhrases(
  index: ToolIndex,
  gains: Gains,
  candidates: { count: number; least: number },
  ceiling: number,
  limit: number,
): ScoredEntry[] {
  const { pairs, phraseRoom } = gains;
  const cut = candidates.least / phraseRoom;
  const best: ScoredEntry[] = [];
  for (let i = 0; i < candidates.count; i++) {
    let score = keptScores[i];
    // Ties go on: the order among equal scores is the tool ids'.
    if (score < cut || (best.length >= limit && score * phraseRoom < best[best.length - 1].score))
      continue;
    const doc = keptDocs[i];
    if (pairs.length)
      score *= 1 + (gains.phrase * index.scorer.adjacentPairs(doc, pairs)) / pairs.length;
    if (best.length >= limit && score < best[best.length - 1].score) continue;
    const scored = {
      entry: index.entryAt(doc) as ToolIndexEntry,
      score,
      relevance: Math.min(1, score / ceiling),
    };
    if (limit === Infinity) {
      best.push(scored);
      continue;
    }
    let at = best.length;
    while (at > 0 && byScore(scored, best[at - 1]) < 0) at--;
    if (at >= limit) continue;
    best.splice(at, 0, scored);
    if (best.length > limit) best.pop();
  }
  return limit === Infinity ? best.sort(byScore) : best;
}
