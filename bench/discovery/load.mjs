// The discovery module bundled as the extension bundles it, with the built-in model and the cl100k
// tokenizer beside it, and the test fixtures the discovery scripts read.
import * as esbuild from 'esbuild';
import { copyFileSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from '../lib/bundle.mjs';

/** Bundles client/src/kernel/discovery into `work` and loads it. */
export async function loadDiscovery(work) {
  await esbuild.build({
    entryPoints: {
      discovery: join(root, 'client/src/kernel/discovery/index.ts'),
      tokenizer: join(root, 'client/src/kernel/discovery/cl100k.ts'),
      modelWorker: join(root, 'client/src/kernel/discovery/modelWorker.ts'),
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outdir: work,
    outExtension: { '.js': '.cjs' },
    logLevel: 'silent',
  });
  renameSync(join(work, 'tokenizer.cjs'), join(work, 'tokenizer.js'));
  renameSync(join(work, 'modelWorker.cjs'), join(work, 'modelWorker.js'));
  copyFileSync(
    join(root, 'client/src/kernel/search/semantic/model.bin'),
    join(work, 'searchModel.bin'),
  );
  return createRequire(import.meta.url)(join(work, 'discovery.cjs'));
}

/** An index of the corpus's tools, and the model in `work` (searchModel.bin) warmed on it. */
export async function corpusWithModel(d, work, corpus) {
  const index = d.createToolIndex({});
  for (const server of corpus) index.upsertServer(server.id, server.tools);
  const ranker = new d.ModelRanker({ load: () => d.loadBuiltInModel(work) });
  await ranker.warm(index);
  return { index, ranker };
}

/** The fixtures of test/fixtures/discovery: the corpora and the query sets by name. */
export function discoveryFixtures() {
  const fixtures = join(root, 'test/fixtures/discovery');
  const read = (name) => JSON.parse(readFileSync(join(fixtures, name), 'utf8'));
  const files = readdirSync(fixtures).sort();
  const all = (prefix) => files.filter((f) => f.startsWith(prefix)).flatMap((f) => read(f).queries);
  const studied = all('queries-studied-');
  return {
    corpus: read('corpus.json').servers,
    unseenCorpus: read('unseen-corpus.json').servers,
    sets: {
      train: studied.filter((q) => q.split === 'train'),
      dev: studied.filter((q) => q.split === 'dev'),
      'seen test': all('queries-test-'),
      unseen: read('queries-unseen.json').queries,
    },
  };
}

/** hit@1, hit@5 and MRR of requests, from the rank of each one's first expected tool (-1: not found). */
export function rankMetrics(ranks) {
  const n = ranks.length || 1;
  return {
    hit1: ranks.filter((x) => x === 0).length / n,
    hit5: ranks.filter((x) => x >= 0 && x < 5).length / n,
    mrr: ranks.reduce((s, x) => s + (x >= 0 ? 1 / (x + 1) : 0), 0) / n,
  };
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
