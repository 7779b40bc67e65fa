// Tool discovery for the benchmarks: client/src/kernel/discovery bundled as the extension bundles
// it, with the cl100k tokenizer beside it, and the fixtures of test/fixtures/discovery.
import * as esbuild from 'esbuild';
import { copyFileSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from './bundle.mjs';

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
