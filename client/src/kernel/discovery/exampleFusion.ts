/**
 * The keyword ranking of the tools, with the ranking of their example requests (toolExamples.ts)
 * added: each scaled so that its best match has 1, summed with EXAMPLE_WEIGHT.
 *
 * A tool without examples counts its own keyword score in place of an examples score, so that tools
 * of servers no examples were written for are not pushed down by the ones that have them (the benchmark
 * leaves each server's examples out in turn: its tools then rank about as well as with no examples at all).
 */
import { byScore, type ScoredEntry } from './ranking';
import type { ToolIndexEntry } from './types';

/** Weight of the examples' ranking against the tools' own. */
export const EXAMPLE_WEIGHT = 1;

/** The indexed entries that take a record's examples, and their BM25 slots (in the same order). */
export interface ExampleTakers {
  entries: ToolIndexEntry[];
  docs: number[];
}

export interface ExampleMatches {
  /** The entries that take each record's examples, by the record's tool id (`github.create_issue`). */
  byExample: ReadonlyMap<string, ExampleTakers>;
  /** The record's tool id of each entry that has examples. */
  exampleOf: ReadonlyMap<ToolIndexEntry, string>;
}

/** The slots of the tools that take the examples of these example documents, in their order (whose scores `fuseExamples` reads). */
export function exampleTakerDocs(
  examples: readonly ScoredEntry[],
  matches: ExampleMatches,
): number[] {
  const docs: number[] = [];
  for (const e of examples)
    for (const doc of matches.byExample.get(e.entry.tool_id)?.docs ?? []) docs.push(doc);
  return docs;
}

/**
 * `tools`: the best of the keyword ranking of the tools (best first); `examples`: the ranking of the
 * example documents, whose tool ids are the records'. The examples bring other tools that the keyword
 * ranking matched too, the best `limit` of them: `before` holds the keyword scores before the gains of
 * the tools `exampleTakerDocs` lists, in its order (NaN for a tool not matched). Best first.
 */
export function fuseExamples(
  tools: readonly ScoredEntry[],
  examples: readonly ScoredEntry[],
  matches: ExampleMatches,
  before: readonly number[],
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
    results.push({
      entry: t.entry,
      score: toolTop * (own + weight * exampleShare),
      relevance: Math.max(t.relevance, example?.relevance ?? 0),
    });
    ranked.add(t.entry);
  }
  const brought: ScoredEntry[] = [];
  let at = 0;
  for (const e of examples) {
    const share = toolTop * weight * (e.score / exampleTop);
    for (const entry of matches.byExample.get(e.entry.tool_id)?.entries ?? []) {
      const score = before[at++] + share;
      // Many tools can take one record's examples (a server deployed several times): most score too little.
      if (
        Number.isNaN(score) ||
        (brought.length >= limit && score < brought[brought.length - 1].score)
      )
        continue;
      if (!ranked.has(entry)) keepBest(brought, { entry, score, relevance: e.relevance }, limit);
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
