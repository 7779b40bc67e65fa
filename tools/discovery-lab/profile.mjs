// One piece of the discovery benchmark's work at 10,000 synthetic tools, alone, to profile it:
//   node --cpu-prof --cpu-prof-dir=DIR tools/discovery-lab/profile.mjs build|keyword|semantic [--tools N]
// `build` builds the index five times; `keyword` and `semantic` run the dev queries three times
// over one index (its build and the model's vectors come first, outside the timed part).
import { scratchFolder } from '../../bench/lib/bundle.mjs';
import { discoveryFixtures, loadDiscovery } from './load.mjs';
import { scaleCorpus } from '../../bench/lib/synthetic.mjs';

const part = process.argv[2];
const at = process.argv.indexOf('--tools');
const tools = at > 0 ? Number(process.argv[at + 1]) : 10000;
const work = scratchFolder('mgp-bench-profile-');
const d = await loadDiscovery(work);
const { corpus, sets } = discoveryFixtures();
const servers = scaleCorpus(corpus, tools);
const build = () => {
  const index = d.createToolIndex({});
  for (const s of servers) index.upsertServer(s.id, s.tools);
  return index;
};
const now = () => Number(process.hrtime.bigint()) / 1e6;
const start = now();
if (part === 'build') {
  for (let i = 0; i < 5; i++) build();
} else {
  const index = build();
  const ranker = new d.ModelRanker({ load: () => d.loadStaticModel(work) });
  await ranker.warm(index);
  const ready = now();
  for (let run = 0; run < 3; run++)
    for (const q of sets.dev) {
      if (part === 'keyword') d.keywordSearch(index, q.query, {}, { limit: 5 });
      else await d.semanticSearch(index, q.query, {}, { semantic: ranker, limit: 5 });
    }
  console.log(`ready in ${(ready - start).toFixed(0)} ms`);
  console.log(`${part}: ${((now() - ready) / (3 * sets.dev.length)).toFixed(2)} ms per query`);
  process.exit(0);
}
console.log(`${part}: ${((now() - start) / 5).toFixed(0)} ms per build`);
process.exit(0);
