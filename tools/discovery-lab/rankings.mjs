// Records, or checks against a record, the top 5 of every query of the discovery fixtures under
// plain BM25, the keyword strategy and the semantic strategy: the real corpus and the unseen
// servers with every set, and 1,000 and 10,000 synthetic tools (synthetic.mjs) with the dev split.
// A change meant only to make discovery faster must leave the record as it is.
//
// Run: node tools/discovery-lab/rankings.mjs --record FILE   (before the change)
//      node tools/discovery-lab/rankings.mjs --check FILE    (after: exit code 1 on any difference)
import { readFileSync, writeFileSync } from 'node:fs';
import { scratchFolder } from '../../bench/lib/bundle.mjs';
import { discoveryFixtures, loadDiscovery } from './load.mjs';
import { scaleCorpus } from '../../bench/lib/synthetic.mjs';

const mode = process.argv[2];
const file = process.argv[3];
if (!['--record', '--check'].includes(mode) || !file) {
  console.error('usage: rankings.mjs --record FILE | --check FILE');
  process.exit(2);
}
const work = scratchFolder('mgp-bench-rankings-');
const d = await loadDiscovery(work);
const { corpus, unseenCorpus, sets } = discoveryFixtures();
const model = d.loadStaticModel(work);

function buildIndex(servers, analysis) {
  const index = d.createToolIndex({ analysis });
  for (const s of servers) index.upsertServer(s.id, s.tools);
  return index;
}

/** Per strategy and query: the top 5 as `tool_id score`, scores to 12 significant digits. */
async function rankingsOf(servers, queries) {
  const ours = buildIndex(servers, {});
  const plain = buildIndex(servers, d.PLAIN_ANALYSIS);
  const ranker = new d.ModelRanker({ load: () => model });
  await ranker.warm(ours);
  const top = (results) => results.map((r) => `${r.entry.tool_id} ${r.score.toPrecision(12)}`);
  const out = { plain: [], keyword: [], semantic: [] };
  for (const { query } of queries) {
    const options = { limit: 5 };
    out.plain.push(
      top(d.keywordSearch(plain, query, {}, { ...d.PLAIN_SEARCH, ...options }).results),
    );
    out.keyword.push(top(d.keywordSearch(ours, query, {}, options).results));
    const semantic = await d.semanticSearch(ours, query, {}, { semantic: ranker, ...options });
    out.semantic.push(top(semantic.results));
  }
  return out;
}

const record = {};
for (const set of ['train', 'dev', 'seen test']) record[set] = await rankingsOf(corpus, sets[set]);
record.unseen = await rankingsOf(unseenCorpus, sets.unseen);
for (const size of [1000, 10000])
  record[`dev at ${size}`] = await rankingsOf(scaleCorpus(corpus, size), sets.dev);

if (mode === '--record') {
  writeFileSync(file, JSON.stringify(record));
  console.log(`recorded ${file}`);
  process.exit(0);
}
const before = JSON.parse(readFileSync(file, 'utf8'));
let differences = 0;
for (const [set, strategies] of Object.entries(before)) {
  for (const [strategy, rankings] of Object.entries(strategies)) {
    rankings.forEach((expected, i) => {
      const actual = record[set][strategy][i];
      if (JSON.stringify(actual) === JSON.stringify(expected)) return;
      if (differences++ < 20)
        console.log(
          `${set} / ${strategy} / ${sets[set.split(' at ')[0]][i].query}\n  before ${expected.join(', ')}\n  after  ${actual.join(', ')}`,
        );
    });
  }
}
const count = Object.values(before).reduce(
  (n, s) => n + Object.values(s).reduce((m, r) => m + r.length, 0),
  0,
);
console.log(
  differences ? `${differences} of ${count} rankings differ` : `all ${count} rankings identical`,
);
process.exit(differences ? 1 : 0);
