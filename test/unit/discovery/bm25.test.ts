import { strict as assert } from 'node:assert';
import {
  adjacentPairs,
  Bm25Index,
  termPairs,
  type WeightedTerm,
} from '../../../client/src/kernel/search';

/** An index of these documents, each one field of words; returns it and the word → id map. */
function indexOf(docs: string[]): Bm25Index {
  const index = new Bm25Index({ k1: 1.2, b: 0.75, weights: [1, 0.5] });
  for (const doc of docs) {
    const [first, second = ''] = doc.split('|');
    const ids = (text: string) =>
      text
        .split(' ')
        .filter(Boolean)
        .map((w) => index.intern(w));
    index.add([ids(first), ids(second)]);
  }
  return index;
}

/** The reference BM25F (summed weighted frequencies, saturated once; a group counts its best term). */
function expectedScores(docs: string[], query: WeightedTerm[]): number[] {
  const fields = docs.map((d) => d.split('|').map((f) => f.split(' ').filter(Boolean)));
  const weights = [1, 0.5];
  const averages = [0, 1].map(
    (f) => fields.reduce((n, d) => n + (d[f]?.length ?? 0), 0) / docs.length,
  );
  const idf = (term: string) => {
    const df = fields.filter((d) => d.some((f) => f.includes(term))).length;
    return Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
  };
  return fields.map((d) => {
    const contribution = (t: WeightedTerm) => {
      let w = 0;
      d.forEach((f, i) => {
        const tf = f.filter((x) => x === t.term).length;
        w += (tf * weights[i]) / (1 - 0.75 + (0.75 * f.length) / averages[i]);
      });
      return w ? (idf(t.term) * t.weight * 2.2 * w) / (w + 1.2) : 0;
    };
    const groups = new Map<unknown, number>();
    for (const t of query) {
      const key = t.group ?? t;
      groups.set(key, Math.max(groups.get(key) ?? 0, contribution(t)));
    }
    return [...groups.values()].reduce((a, b) => a + b, 0);
  });
}

describe('search: BM25F index (Bm25Index)', () => {
  const docs = [
    'read file contents|read a text file from disk',
    'write file|write text to a file',
    'list directory|list the files of a directory',
    'search code|search file contents for text',
    'file file file|file',
    'delete branch|remove a git branch',
    'copy file|copy file again',
  ];

  it('scores terms alone and in groups (the best of a group) as the reference BM25F', () => {
    const index = indexOf(docs);
    const queries: WeightedTerm[][] = [
      [{ term: 'file', weight: 1 }],
      [
        { term: 'file', weight: 1, group: 0 },
        { term: 'text', weight: 1, group: 1 },
        { term: 'directory', weight: 0.5, group: 1 },
      ],
      [
        { term: 'read', weight: 2 },
        { term: 'remove', weight: 0.6, group: 3 },
        { term: 'delete', weight: 1, group: 3 },
        { term: 'nowhere', weight: 1 },
      ],
    ];
    for (const query of queries) {
      const { docs: scored, scores } = index.score(query);
      const expected = expectedScores(docs, query);
      const touched = [...scored].sort((a, b) => a - b);
      assert.deepEqual(
        touched,
        expected.flatMap((s, doc) => (s > 0 ? [doc] : [])),
        'the scored slots are those with a query term, each once',
      );
      for (const doc of touched) assert.ok(Math.abs(scores[doc] - expected[doc]) < 1e-9);
      index.reset(scored);
      assert.ok(
        touched.every((doc) => scores[doc] === 0),
        'reset clears the scores',
      );
    }
  });

  it('counts the query pairs found in order in one field, each pair once', () => {
    const index = indexOf(docs);
    const pairs = termPairs(index, [
      ['read', 'file'],
      ['text', 'file'],
      ['file', 'contents'],
      ['file', 'read'],
      ['unknown', 'file'],
    ]);
    // doc 0: "read file" and "file contents" in field 0, "text file" in field 1; not "file read".
    assert.equal(adjacentPairs(index.fieldsAt(0), pairs), 3);
    // doc 3: "file contents" in field 1 only.
    assert.equal(adjacentPairs(index.fieldsAt(3), pairs), 1);
    // doc 4: "file file file": no pair of two different terms.
    assert.equal(adjacentPairs(index.fieldsAt(4), pairs), 0);
    assert.equal(adjacentPairs(index.fieldsAt(5), pairs), 0);
    assert.equal(adjacentPairs(index.fieldsAt(0), termPairs(index, [])), 0);
    assert.equal(adjacentPairs(index.fieldsAt(0), termPairs(index, [['file', 'file']])), 0);
    assert.equal(adjacentPairs(index.fieldsAt(4), termPairs(index, [['file', 'file']])), 1);
    // doc 6: "copy file" in both fields counts once.
    const copyOrRead = termPairs(index, [
      ['copy', 'file'],
      ['read', 'file'],
    ]);
    assert.equal(adjacentPairs(index.fieldsAt(6), copyOrRead), 1);
  });
});
