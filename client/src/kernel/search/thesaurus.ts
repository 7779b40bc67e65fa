/**
 * A general English thesaurus for the query words a tool index does not know: `grab` → catch, take;
 * `fake` → bogus, imitation. Derived from WordNet 3.1 (tools/discovery-lab/build-thesaurus.mjs): common
 * single words, keyed and listed by their Porter stems, each with the words of its first senses
 * (`near`) and of its later senses and their hypernyms (`far`).
 *
 * Only unknown words are looked up: a general thesaurus does not know the computing sense of the
 * words tools are described with (a `table` is furniture before it is data), so expanding every
 * word ranks worse than expanding none; for a word no tool has, a related word some tool has is
 * better than nothing. Lookups are binary searches over the sorted lines, remembered.
 */
import { THESAURUS_DATA } from './thesaurusData';

export interface Related {
  near: readonly string[];
  far: readonly string[];
}

/** The data's lines, sorted by stem (split at the first lookup). */
let lines: string[] | undefined;
const memo = new Map<string, Related | undefined>();

function find(stem: string): Related | undefined {
  lines ??= THESAURUS_DATA.split('\n');
  let low = 0;
  let high = lines.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const line = lines[middle];
    const space = line.indexOf(' ');
    const key = line.slice(0, space);
    if (key < stem) low = middle + 1;
    else if (key > stem) high = middle - 1;
    else {
      const semicolon = line.indexOf(';', space);
      const split = (list: string) => (list ? list.split(',') : []);
      return {
        near: split(line.slice(space + 1, semicolon)),
        far: split(line.slice(semicolon + 1)),
      };
    }
  }
  return undefined;
}

/** The stems related to a stem, or undefined when the thesaurus does not have it. */
export function relatedStems(stem: string): Related | undefined {
  if (memo.has(stem)) return memo.get(stem);
  const related = find(stem);
  if (memo.size >= 10_000) memo.clear();
  memo.set(stem, related);
  return related;
}
