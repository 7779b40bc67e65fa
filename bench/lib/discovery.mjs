// Tool discovery for the benchmarks: client/src/kernel/discovery bundled as the extension bundles
// it, with the cl100k tokenizer beside it, and the fixtures of test/fixtures/discovery.
import * as esbuild from 'esbuild';
import { readdirSync, readFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from './bundle.mjs';
import { seededRandom } from './synthetic.mjs';

/**
 * Bundles `entry` (default: client/src/kernel/discovery) into `work` with the cl100k tokenizer beside
 * it, and loads it.
 */
export async function loadDiscovery(
  work,
  entry = join(root, 'client/src/kernel/discovery/index.ts'),
) {
  await esbuild.build({
    entryPoints: {
      discovery: entry,
      tokenizer: join(root, 'client/src/kernel/discovery/cl100k.ts'),
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

/** The value at quantile `p` of sorted numbers. */
export const quantile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** Per request, the rank of its first expected tool in what `rank` answers (-1: not there). */
export async function ranksOf(requests, rank) {
  const out = [];
  for (const q of requests)
    out.push((await rank(q.query)).findIndex((r) => q.expected.includes(r.entry.tool_id)));
  return out;
}

/** The metrics with 95% percentile bootstrap intervals (2,000 resamples of the requests, seeded). */
export function withIntervals(ranks) {
  const f3 = (x) => x.toFixed(3);
  const random = seededRandom(11);
  const samples = { hit1: [], hit5: [], mrr: [] };
  for (let b = 0; b < 2000; b++) {
    const resample = Array.from(
      { length: ranks.length },
      () => ranks[Math.floor(random() * ranks.length)],
    );
    const m = rankMetrics(resample);
    for (const k of Object.keys(samples)) samples[k].push(m[k]);
  }
  const point = rankMetrics(ranks);
  const interval = (k) => {
    const s = samples[k].sort((a, b) => a - b);
    return `${f3(point[k])} [${f3(quantile(s, 0.025))}, ${f3(quantile(s, 0.975))}]`;
  };
  return {
    n: ranks.length,
    hit1: interval('hit1'),
    hit5: interval('hit5'),
    mrr: interval('mrr'),
    point,
  };
}
