/**
 * The keyword ranking of the tools, with the ranking of their example requests (toolExamples.ts)
 * added: each scaled so that its best match has 1, summed with EXAMPLE_WEIGHT.
 *
 * A tool without examples counts its own keyword score in place of an examples score, so that tools
 * of servers no examples were written for are not pushed down by the ones that have them (the benchmark
 * leaves each server's examples out in turn: its tools then rank about as well as with no examples at all).
 */
import { byScore, type ScoredEntry, type ScoresBeforeGains } from './ranking';
import type { ToolIndexEntry } from './types';

/** Weight of the examples' ranking against the tools' own. */
export const EXAMPLE_WEIGHT = 1;

export interface ExampleMatches {
  /** The indexed entries that take each record's examples, and their BM25 slots, by the record's tool id (`github.create_issue`). */
  byExample: ReadonlyMap<string, { entries: readonly ToolIndexEntry[]; docs: readonly number[] }>;
  /** The record's tool id of each entry that has examples. */
  exampleOf: ReadonlyMap<ToolIndexEntry, string>;
}

/**
 * `tools`: the best of the keyword ranking of the tools (best first); `examples`: the ranking of the
 * example documents, whose tool ids are the records'. The examples bring other tools that the keyword
 * ranking matched too, by their scores before the gains (`before`), the best `limit` of them. Best first.
 */
export function fuseExamples(
  tools: readonly ScoredEntry[],
  examples: readonly ScoredEntry[],
  matches: ExampleMatches,
  before: ScoresBeforeGains,
  limit = Infinity,
  weight = EXAMPLE_WEIGHT,
): ScoredEntry[] {
  const toolTop = tools[0]?.score || 1;
  const exampleTop = examples[0]?.score || 1;
  const byRecord = new Map(examples.map((e) => [e.entry.tool_id, e]));
  const results: ScoredEntry[] = [];
  const ranked = new Set<ToolIndexEntry>();
  for (const t of tools) {
    const own = t.score / toolTop;
    const record = matches.exampleOf.get(t.entry);
    const example = record === undefined ? undefined : byRecord.get(record);
    const exampleShare = record === undefined ? own : example ? example.score / exampleTop : 0;
    results.push({ entry: t.entry, score: toolTop * (own + weight * exampleShare), relevance: Math.max(t.relevance, example?.relevance ?? 0) });
    ranked.add(t.entry);
  }
  const brought: ScoredEntry[] = [];
  for (const e of examples) {
    const share = toolTop * weight * (e.score / exampleTop);
    const takers = matches.byExample.get(e.entry.tool_id);
    if (!takers) continue;
    const { docs, entries } = takers;
    const { marks, scores, epoch } = before;
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i];
      if (marks[doc] !== epoch) continue;
      // Many tools can take one record's examples (a server deployed several times): most score too little.
      const score = scores[doc] + share;
      if (brought.length >= limit && score < brought[brought.length - 1].score) continue;
      if (!ranked.has(entries[i])) keepBest(brought, { entry: entries[i], score, relevance: e.relevance }, limit);
    }
  }
  return results.concat(brought).sort(byScore);
}

/** Adds `scored` to `best` (sorted, best first) if it is among the best `limit`. */
function keepBest(best: ScoredEntry[], scored: ScoredEntry, limit: number): void {
  if (best.length >= limit && byScore(scored, best[best.length - 1]) >= 0) return;
  let at = best.length;
  while (at > 0 && byScore(scored, best[at - 1]) < 0) at--;
  best.splice(at, 0, scored);
  if (best.length > limit) best.pop();
}
