// What the lab's scripts share: the discovery module and the fixtures (as the benchmarks load them),
// and the built-in model's rankings beside the semantic strategy's.
export { discoveryFixtures, loadDiscovery, rankMetrics } from '../../bench/lib/discovery.mjs';
import { rankMetrics } from '../../bench/lib/discovery.mjs';

/** An index of the corpus's tools, and the model in `work` (searchModel.bin) warmed on it. */
export async function corpusWithModel(d, work, corpus) {
  const index = d.createToolIndex({});
  for (const server of corpus) index.upsertServer(server.id, server.tools);
  const ranker = new d.ModelRanker({ load: () => d.loadBuiltInModel(work) });
  await ranker.warm(index);
  return { index, ranker };
}

/**
 * Per request, the rank of its first expected tool under a semantic ranker alone (its similarities,
 * every visible tool ordered) and in the semantic strategy's fused answer.
 */
export async function aloneAndFusedRanks(d, index, semantic, requests) {
  const visible = (doc) => index.visibleAt(doc);
  const tools = index.list().length;
  const ranks = { alone: [], fused: [] };
  for (const request of requests) {
    const expected = (entry) => request.expected.includes(entry.tool_id);
    const { nearest } = await d.matchesOf(semantic, request.query, index, visible, tools);
    ranks.alone.push(nearest.findIndex((n) => expected(index.entryAt(n.doc))));
    const fused = await d.semanticSearch(index, request.query, {}, { semantic });
    ranks.fused.push(fused.results.findIndex((r) => expected(r.entry)));
  }
  return ranks;
}

/** One line per ranking of a model: its name, the ranking, hit@1, hit@5 and MRR. */
export function printRanks(name, ranks) {
  for (const [ranking, r] of Object.entries(ranks)) {
    const m = rankMetrics(r);
    const figures = [m.hit1, m.hit5, m.mrr].map((x) => x.toFixed(3)).join('  ');
    console.log(`${name.padEnd(16)} ${ranking.padEnd(8)}  ${figures}`);
  }
}
