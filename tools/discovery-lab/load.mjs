// What the lab's scripts share: the product's discovery module with the static model beside it, the
// fixtures (as the benchmarks load them), and the model's rankings beside the semantic strategy's.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDiscovery as loadProduct, rankMetrics } from '../../bench/lib/discovery.mjs';

export { discoveryFixtures, rankMetrics } from '../../bench/lib/discovery.mjs';

const lab = fileURLToPath(new URL('.', import.meta.url));

/** The static model, built by build-model.mjs (or taken from the history: README.md). */
export const MODEL = join(lab, 'model.bin');

/** The sha256 the model must have (model.sha256, as `sha256sum` writes it). */
export const MODEL_SHA256 = readFileSync(join(lab, 'model.sha256'), 'utf8').split(/\s/)[0];

/** The model's file, checked against its pinned hash; an error says how to get it. */
export function checkedModel() {
  if (!existsSync(MODEL))
    throw new Error(`${MODEL} is missing: build it, or take it from the history (README.md)`);
  const sha256 = createHash('sha256').update(readFileSync(MODEL)).digest('hex');
  if (sha256 !== MODEL_SHA256)
    throw new Error(`${MODEL} has sha256 ${sha256}, not the pinned ${MODEL_SHA256} (model.sha256)`);
  return MODEL;
}

/**
 * Bundles the product's discovery module with the static model's code (model/index.ts) into `work`,
 * puts the model beside it, and loads it.
 */
export async function loadDiscovery(work) {
  const d = await loadProduct(work, join(lab, 'model/index.ts'));
  copyFileSync(checkedModel(), join(work, d.MODEL_FILE));
  return d;
}

/** An index of the corpus's tools, and the model in `work` warmed on it. */
export async function corpusWithModel(d, work, corpus) {
  const index = d.createToolIndex({});
  for (const server of corpus) index.upsertServer(server.id, server.tools);
  const ranker = new d.ModelRanker({ load: () => d.loadStaticModel(work) });
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
