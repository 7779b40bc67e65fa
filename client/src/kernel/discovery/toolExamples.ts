/**
 * Example requests of well-known tools: for each tool of the seventeen widely used MCP servers of the
 * discovery corpus (test/fixtures/discovery/corpus.json), the requests written for it in the labelled
 * query sets whose misses were studied (bench/discovery/build-examples.mjs gathers them, already put
 * through the query rewriting).
 *
 * A tool's examples are searched as one document, with the same keyword ranking as the tools
 * themselves: a request worded like earlier requests for a tool finds it even when the tool's own
 * description uses other words ("pull the card across into Confirmed" is a drag).
 *
 * An indexed tool takes a record's examples when its name is the record's and the lead of its
 * description shares most words with the record's: the same tool of the same server, under whatever
 * id the user gave the server, and not a tool of another server that happens to share the name.
 */
import type { ExampleMatches, ExampleTakers } from './exampleFusion';
import { splitWords } from './text';
import { ToolIndex, type AnalysisOptions } from './toolIndex';
import { splitLead } from './toolText';
import { TOOL_EXAMPLES } from './toolExamplesData';
import type { ToolIndexEntry } from './types';

export interface ToolExampleRecord {
  /** The id the server has in the query sets (`github`). */
  server: string;
  name: string;
  /** The lead of the tool's description when the examples were written. */
  lead: string;
  /** The examples, one per line, as the query rewriting left them. */
  examples: string;
}

/** Share of the lead's distinct words an indexed tool's lead must share with a record's (Jaccard). */
export const SAME_LEAD = 0.6;

const exampleIndexes = new Map<string, ToolIndex>();
/** The analysis asked for last, and its index (one search asks for it once per query). */
let last: { analysis: AnalysisOptions; index: ToolIndex } | undefined;

/** The examples as a tool index (one tool per record), built once per analysis. */
export function exampleIndex(analysis: AnalysisOptions): ToolIndex {
  if (analysis === last?.analysis) return last.index;
  const key = JSON.stringify(analysis);
  let index = exampleIndexes.get(key);
  if (!index) {
    // Every example weighs the same: the first, which the index reads as the description's lead, as much as the rest.
    index = new ToolIndex({
      analysis: {
        ...analysis,
        weights: { ...analysis.weights, description: analysis.weights.details },
      },
    });
    const byServer = new Map<string, Array<{ name: string; description: string }>>();
    for (const r of TOOL_EXAMPLES) {
      const tools = byServer.get(r.server) ?? [];
      tools.push({ name: r.name, description: r.examples.split('\n').join('. ') });
      byServer.set(r.server, tools);
    }
    for (const [server, tools] of byServer) index.upsertServer(server, tools);
    exampleIndexes.set(key, index);
  }
  last = { analysis, index };
  return index;
}

/** Which indexed entries take which record's examples, as of one revision of the index. */
export interface ExampleMatching extends ExampleMatches {
  revision: number;
  byExample: Map<string, ExampleTakers>;
  exampleOf: Map<ToolIndexEntry, string>;
  /** The entries that have none. */
  without: Set<ToolIndexEntry>;
}

const matchings = new WeakMap<ToolIndex, ExampleMatching>();
let recordsByName: Map<string, Array<{ id: string; lead: Set<string> }>> | undefined;

/**
 * The entries of `index` that have examples, by example tool id; brought up to date when the index
 * changes (an entry is replaced, never changed, when its tool changes: only new entries are matched).
 */
export function matchExamples(index: ToolIndex): ExampleMatching {
  const known = matchings.get(index);
  if (known && known.revision === index.revision) return known;
  const matching: ExampleMatching = {
    revision: index.revision,
    byExample: new Map(),
    exampleOf: new Map(),
    without: new Set(),
  };
  for (const entry of index.list()) {
    const id =
      known?.exampleOf.get(entry) ?? (known?.without.has(entry) ? null : examplesOf(entry));
    if (id === null) {
      matching.without.add(entry);
      continue;
    }
    let takers = matching.byExample.get(id);
    if (!takers) matching.byExample.set(id, (takers = { entries: [], docs: [] }));
    takers.entries.push(entry);
    takers.docs.push(index.docOf(entry) ?? -1);
    matching.exampleOf.set(entry, id);
  }
  matchings.set(index, matching);
  return matching;
}

/** The record whose examples a tool takes: same name, and the lead sharing the most words (at least SAME_LEAD). */
function examplesOf(entry: ToolIndexEntry): string | null {
  if (!recordsByName) {
    recordsByName = new Map();
    for (const r of TOOL_EXAMPLES) {
      const list = recordsByName.get(r.name) ?? [];
      list.push({ id: `${r.server}.${r.name}`, lead: leadWords(r.lead) });
      recordsByName.set(r.name, list);
    }
  }
  const candidates = entry.kernel ? undefined : recordsByName.get(entry.name);
  if (!candidates) return null;
  const lead = leadWords(entry.description ?? '');
  let best: string | null = null;
  let bestShare = SAME_LEAD;
  for (const r of candidates) {
    const share = jaccard(lead, r.lead);
    if (share >= bestShare) [best, bestShare] = [r.id, share];
  }
  return best;
}

function leadWords(description: string): Set<string> {
  return new Set(splitWords(splitLead(description)[0]).map((w) => w.toLowerCase()));
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared || 1);
}
