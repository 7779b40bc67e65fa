import { strict as assert } from 'node:assert';
import { parse } from 'smol-toml';
import { parseTOML } from 'toml-eslint-parser';
import { scanRanges } from '@shared/configCheck/rangeScanner';
import { rangesFromAst } from './support/astRanges';
import { tomlFixtures } from './support/tomlFixtures';

function isValid(text: string): boolean {
  try {
    parse(text);
    return true;
  } catch {
    return false;
  }
}

const EDGE_CASES = [
  'a."b.c".\'d\' = 1\n"quoted key" = "v"\n',
  's = """\nline "one"\nline ""two""\n"""\nafter = 1\n',
  "lit = '''\n[not a table]\n'''\nnext = 'x'\n",
  'q = """a""""\nr = 2\n',
  'dt = 1979-05-27 07:32:00Z\nd = 1979-05-27\nt = 07:32:00\nf = -inf\nh = 0xDEAD_beef\n',
  'arr = [\n  1, # one\n  [2, 3],\n  { x = "}" },\n]\nafter = true\n',
  '[a.b]\nc = 1\n[[a.d]]\ne = 2\n[[a.d]]\ne = 3\n[a.d.f]\ng = 4\n',
  '[[x]]\n[[x.y]]\nz = 1\n[[x]]\n[[x.y]]\nz = 2\n',
  'e = "tab\\tquote\\" \\u00e9 \\U0001F600"\n"\\u0041" = 1\n',
  '  [ spaced . table ]  # comment\n  key = "v"\n',
];

/** The scanner must place every key, value and header exactly where toml-eslint-parser's AST does. */
describe('range scanner agrees with a full TOML AST', () => {
  const documents = [
    ...tomlFixtures(),
    ...EDGE_CASES.map((text, index) => ({ name: `edge case ${index + 1}`, text })),
  ].filter((doc) => isValid(doc.text));

  it('has many valid documents to compare', () =>
    assert.ok(documents.length >= 30, `${documents.length}`));

  for (const { name, text } of documents) {
    it(name, () => {
      const expected = Object.fromEntries(rangesFromAst(parseTOML(text), text));
      const actual = Object.fromEntries(scanRanges(text));
      assert.deepEqual(actual, expected);
    });
  }
});
