import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import * as oniguruma from 'vscode-oniguruma';
import { IGrammar, INITIAL, parseRawGrammar, Registry, StateStack } from 'vscode-textmate';
import { repoRoot } from '../repoRoot';

// Tokenizes TOML samples with the extension's TextMate grammar, the way VS Code does: line by line,
// each line starting from the rule stack the previous one left.

const ROOT = repoRoot();
const GRAMMAR_PATH = join(ROOT, 'syntaxes/toml.tmLanguage.json');
const FIXTURES = join(ROOT, 'test/fixtures/grammar');
/** Fixtures that are meant to be broken TOML; every other fixture is valid TOML 1.0. */
const INVALID_FIXTURES = ['invalid.toml'];

interface Token {
  text: string;
  scopes: string[];
}

interface Line {
  text: string;
  tokens: Token[];
}

interface Tokenized {
  lines: Line[];
  /** The rule stack after the last line. */
  end: StateStack;
}

let grammarPromise: Promise<IGrammar> | undefined;

function loadGrammar(): Promise<IGrammar> {
  grammarPromise ??= (async () => {
    const wasm = readFileSync(join(ROOT, 'node_modules/vscode-oniguruma/release/onig.wasm'));
    await oniguruma.loadWASM({ data: wasm });
    const registry = new Registry({
      onigLib: Promise.resolve({
        createOnigScanner: (sources: string[]) => new oniguruma.OnigScanner(sources),
        createOnigString: (text: string) => new oniguruma.OnigString(text),
      }),
      loadGrammar: async (scopeName: string) =>
        scopeName === 'source.toml' ? parseRawGrammar(readFileSync(GRAMMAR_PATH, 'utf8'), GRAMMAR_PATH) : null,
    });
    const grammar = await registry.loadGrammar('source.toml');
    if (!grammar) throw new Error('source.toml did not load');
    return grammar;
  })();
  return grammarPromise;
}

describe('TOML TextMate grammar (syntaxes/toml.tmLanguage.json)', () => {
  let grammar: IGrammar;
  /** The rule stack of a fresh document: what every file must return to at its end. */
  let initial: StateStack;

  before(async () => {
    grammar = await loadGrammar();
    initial = grammar.tokenizeLine('', INITIAL).ruleStack;
  });

  function tokenize(text: string): Tokenized {
    let stack: StateStack = INITIAL;
    const lines = text.split(/\r?\n/).map((lineText): Line => {
      const result = grammar.tokenizeLine(lineText, stack);
      assert.equal(result.stoppedEarly, false, `tokenizing stopped early on ${JSON.stringify(lineText)}`);
      stack = result.ruleStack;
      return {
        text: lineText,
        tokens: result.tokens.map((t) => ({ text: lineText.slice(t.startIndex, t.endIndex), scopes: t.scopes })),
      };
    });
    return { lines, end: stack };
  }

  const fixtureCache = new Map<string, Tokenized>();
  function fixture(name: string): Tokenized {
    let tokenized = fixtureCache.get(name);
    if (!tokenized) {
      tokenized = tokenize(readFileSync(join(FIXTURES, name), 'utf8'));
      fixtureCache.set(name, tokenized);
    }
    return tokenized;
  }

  /** The first line of `doc` that starts with `prefix` (ignoring indentation). */
  function line(doc: Tokenized, prefix: string): Line {
    const found = doc.lines.find((l) => l.text.trimStart().startsWith(prefix));
    assert.ok(found, `no line starts with ${JSON.stringify(prefix)}`);
    return found;
  }

  /** The scopes of the `nth` token on `where` whose text is exactly `text`. */
  function scopes(where: Line, text: string, nth = 0): string[] {
    const matching = where.tokens.filter((t) => t.text === text);
    assert.ok(
      matching.length > nth,
      `line ${JSON.stringify(where.text)} has no token ${JSON.stringify(text)} #${nth}; tokens: ${JSON.stringify(where.tokens.map((t) => t.text))}`,
    );
    return matching[nth].scopes;
  }

  /** Asserts the full scope list (without the root `source.toml`) of a token. */
  function expectScopes(where: Line, text: string, expected: string[], nth = 0): void {
    const actual = scopes(where, text, nth);
    assert.equal(actual[0], 'source.toml');
    assert.deepEqual(actual.slice(1), expected, `scopes of ${JSON.stringify(text)} in ${JSON.stringify(where.text)}`);
  }

  const KEY = ['support.type.property-name.toml'];
  const EQ = ['keyword.operator.assignment.toml'];
  const BASIC = 'string.quoted.double.basic.toml';
  const LITERAL = 'string.quoted.single.literal.toml';
  const ML_BASIC = 'string.quoted.triple.basic.block.toml';
  const ML_LITERAL = 'string.quoted.triple.literal.block.toml';
  const STR_BEGIN = 'punctuation.definition.string.begin.toml';
  const STR_END = 'punctuation.definition.string.end.toml';
  const ESCAPE = 'constant.character.escape.toml';
  const ARRAY = 'meta.array.toml';
  const ARRAY_PUNCT = 'punctuation.definition.array.toml';
  const ARRAY_SEP = 'punctuation.separator.array.toml';
  const INLINE = 'meta.table.inline.toml';
  const INLINE_PUNCT = 'punctuation.definition.table.inline.toml';
  const INLINE_SEP = 'punctuation.separator.table.inline.toml';
  const TABLE = 'meta.table.toml';
  const TABLE_PUNCT = 'punctuation.definition.table.toml';
  const ARRAY_TABLE = 'meta.array.table.toml';
  const ARRAY_TABLE_PUNCT = 'punctuation.definition.array.table.toml';
  const SECTION = 'entity.name.section.toml';
  const DOT = 'punctuation.separator.dot.toml';
  const COMMENT = 'comment.line.number-sign.toml';
  const COMMENT_PUNCT = 'punctuation.definition.comment.toml';

  /** Asserts that the value token `text` of `key = text` gets exactly `scope` and that the key is a key. */
  function expectValue(doc: Tokenized, key: string, text: string, scope: string): void {
    const where = line(doc, `${key} =`);
    expectScopes(where, key, KEY);
    expectScopes(where, text, [scope]);
  }

  function fixtureNames(): string[] {
    return readdirSync(FIXTURES).filter((name) => name.endsWith('.toml')).sort();
  }

  describe('the grammar file', () => {
    const raw = JSON.parse(readFileSync(GRAMMAR_PATH, 'utf8')) as Record<string, unknown>;

    it('is source.toml and every include points at a repository rule', () => {
      assert.equal(raw.scopeName, 'source.toml');
      const repository = raw.repository as Record<string, unknown>;
      const includes: string[] = [];
      walk(raw, (key, value) => {
        if (key === 'include' && typeof value === 'string') includes.push(value);
      });
      assert.ok(includes.length > 10);
      for (const include of includes) {
        assert.match(include, /^#/, `include ${include} should be local`);
        assert.ok(include.slice(1) in repository, `include ${include} has no repository rule`);
      }
    });

    it('has only regular expressions that Oniguruma compiles', async () => {
      await loadGrammar();
      const sources: string[] = [];
      walk(raw, (key, value) => {
        if (['match', 'begin', 'end', 'while'].includes(key) && typeof value === 'string') sources.push(value);
      });
      assert.ok(sources.length > 30, `only ${sources.length} regular expressions found`);
      for (const source of sources) {
        assert.doesNotThrow(() => new oniguruma.OnigScanner([source]).dispose(), `not a valid Oniguruma regex: ${source}`);
      }
    });

    it('is contributed for the toml language and shipped in the package', () => {
      const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
      const entry = manifest.contributes.grammars.find((g: { scopeName: string }) => g.scopeName === 'source.toml');
      assert.deepEqual(entry, { language: 'toml', scopeName: 'source.toml', path: './syntaxes/toml.tmLanguage.json' });
      assert.ok(manifest.contributes.languages.some((l: { id: string }) => l.id === 'toml'));
      assert.ok(existsSync(join(ROOT, entry.path)));
      const ignore = readFileSync(join(ROOT, '.vscodeignore'), 'utf8').split(/\r?\n/);
      assert.ok(ignore.includes('!syntaxes/*.json'));
    });
  });

  describe('every fixture', () => {
    it('has the expected fixtures', () => {
      const names = fixtureNames();
      for (const name of ['comments', 'keys', 'tables', 'strings', 'numbers', 'datetime', 'arrays', 'inline-tables', 'mgp', 'config', 'invalid']) {
        assert.ok(names.includes(`${name}.toml`), `missing fixture ${name}.toml`);
      }
    });

    it('is valid TOML 1.0 (checked with smol-toml), except the invalid ones', () => {
      for (const name of fixtureNames()) {
        const text = readFileSync(join(FIXTURES, name), 'utf8');
        if (INVALID_FIXTURES.includes(name)) assert.throws(() => parseToml(text), name);
        else assert.doesNotThrow(() => parseToml(text), name);
      }
    });

    it('ends with the rule stack it started with (no rule left open at EOF)', () => {
      for (const name of fixtureNames()) {
        const doc = fixture(name);
        assert.ok(doc.end.equals(initial), `${name} leaves a rule open at EOF (depth ${doc.end.depth}, expected ${initial.depth})`);
      }
    });

    it('gets no invalid.illegal scope anywhere when the TOML is valid', () => {
      for (const name of fixtureNames().filter((n) => !INVALID_FIXTURES.includes(n))) {
        for (const l of fixture(name).lines) {
          for (const t of l.tokens) {
            assert.ok(!t.scopes.some((s) => s.startsWith('invalid')), `${name}: ${JSON.stringify(t.text)} in ${JSON.stringify(l.text)} is ${t.scopes.join(' ')}`);
          }
        }
      }
    });

    it('covers every character of every line with a token', () => {
      for (const name of fixtureNames()) {
        for (const l of fixture(name).lines) assert.equal(l.tokens.map((t) => t.text).join(''), l.text, name);
      }
    });
  });

  describe('comments', () => {
    it('scopes # and the rest of the line as a comment', () => {
      const doc = fixture('comments.toml');
      const full = doc.lines[0];
      expectScopes(full, '#', [COMMENT, COMMENT_PUNCT]);
      expectScopes(full, ' A full-line comment', [COMMENT]);
      expectScopes(line(doc, '# an indented'), ' an indented comment', [COMMENT]);
      expectScopes(line(doc, '#no space'), 'no space after the hash', [COMMENT]);
      expectScopes(line(doc, '#'), '#', [COMMENT, COMMENT_PUNCT]);
    });

    it('ends a value at a comment after it', () => {
      const where = line(fixture('comments.toml'), 'key =');
      expectScopes(where, 'value', [BASIC]);
      expectScopes(where, '#', [COMMENT, COMMENT_PUNCT]);
      expectScopes(where, ' a comment after a value', [COMMENT]);
    });

    it('does not treat # inside a basic or literal string as a comment', () => {
      const doc = fixture('comments.toml');
      const hash = line(doc, 'hash =');
      expectScopes(hash, 'no # comment here', [BASIC]);
      expectScopes(hash, ' but one here', [COMMENT]);
      expectScopes(line(doc, 'literal ='), 'not # a comment either', [LITERAL]);
      expectValue(doc, 'after', '1', 'constant.numeric.integer.toml');
    });
  });

  describe('keys', () => {
    const doc = () => fixture('keys.toml');

    it('scopes bare keys, including ones that look like numbers or booleans', () => {
      for (const key of ['key', 'bare_key', 'bare-key', '1234', 'true']) {
        const where = line(doc(), `${key} =`);
        expectScopes(where, key, KEY);
        expectScopes(where, '=', EQ);
      }
    });

    it('scopes basic and literal quoted keys as keys, escapes included', () => {
      const ip = line(doc(), '"127.0.0.1"');
      expectScopes(ip, '"', [BASIC, ...KEY, STR_BEGIN]);
      expectScopes(ip, '127.0.0.1', [BASIC, ...KEY]);
      expectScopes(ip, '"', [BASIC, ...KEY, STR_END], 1);
      expectScopes(line(doc(), "'key2'"), 'key2', [LITERAL, ...KEY]);
      expectScopes(line(doc(), `'quoted "value"'`), 'quoted "value"', [LITERAL, ...KEY]);
      expectScopes(line(doc(), '"ʎǝʞ"'), 'ʎǝʞ', [BASIC, ...KEY]);
      const tab = line(doc(), '"tab');
      expectScopes(tab, '\\t', [BASIC, ...KEY, ESCAPE]);
      expectScopes(tab, 'escape in a quoted key', [BASIC]);
      const empty = line(doc(), '"" =');
      expectScopes(empty, '"', [BASIC, ...KEY, STR_BEGIN]);
      expectScopes(empty, '=', EQ);
    });

    it('scopes each part of a dotted key and the dots, with whitespace around the dots', () => {
      const site = line(doc(), 'site.');
      expectScopes(site, 'site', KEY);
      expectScopes(site, '.', [DOT]);
      expectScopes(site, 'google.com', [BASIC, ...KEY]);
      expectScopes(site, 'true', ['constant.language.boolean.toml']);

      const fruit = line(doc(), 'fruit . flavor');
      expectScopes(fruit, 'fruit', KEY);
      expectScopes(fruit, '.', [DOT]);
      expectScopes(fruit, 'flavor', KEY);

      const skin = line(doc(), 'fruit.  ');
      expectScopes(skin, 'skin', [LITERAL, ...KEY]);
      expectScopes(skin, 'texture', KEY);
      expectScopes(skin, '.', [DOT], 1);

      const pi = line(doc(), '3.14159');
      expectScopes(pi, '3', KEY);
      expectScopes(pi, '.', [DOT]);
      expectScopes(pi, '14159', KEY);
    });

    it('scopes = with or without surrounding space', () => {
      expectScopes(line(doc(), 'spaced'), '=', EQ);
      const tight = line(doc(), 'tight=');
      expectScopes(tight, 'tight', KEY);
      expectScopes(tight, '=', EQ);
      expectScopes(tight, 'no space', [BASIC]);
    });
  });

  describe('table headers', () => {
    const doc = () => fixture('tables.toml');

    it('scopes [table] punctuation and name apart', () => {
      const where = line(doc(), '[table]');
      expectScopes(where, '[', [TABLE, TABLE_PUNCT]);
      expectScopes(where, 'table', [TABLE, SECTION]);
      expectScopes(where, ']', [TABLE, TABLE_PUNCT]);
      expectScopes(line(doc(), '[table-1]'), 'table-1', [TABLE, SECTION]);
    });

    it('scopes dotted and quoted table names, with whitespace and a trailing comment', () => {
      const dog = line(doc(), '[dog.');
      expectScopes(dog, 'dog', [TABLE, SECTION]);
      expectScopes(dog, '.', [TABLE, DOT]);
      expectScopes(dog, '"', [TABLE, BASIC, SECTION, STR_BEGIN]);
      expectScopes(dog, 'tater.man', [TABLE, BASIC, SECTION]);
      expectScopes(dog, ']', [TABLE, TABLE_PUNCT]);

      const spaced = line(doc(), '[ g');
      expectScopes(spaced, 'g', [TABLE, SECTION]);
      expectScopes(spaced, 'h', [TABLE, SECTION]);
      expectScopes(spaced, 'i', [TABLE, SECTION]);
      expectScopes(spaced, '.', [TABLE, DOT], 1);
      expectScopes(spaced, '#', [COMMENT, COMMENT_PUNCT]);

      const quoted = line(doc(), '[ j');
      expectScopes(quoted, 'ʞ', [TABLE, BASIC, SECTION]);
      expectScopes(quoted, 'l', [TABLE, LITERAL, SECTION]);
      expectScopes(quoted, ' same as [j."ʞ".\'l\']', [COMMENT]);

      const indented = line(doc(), '[indented]');
      expectScopes(indented, 'indented', [TABLE, SECTION]);
      const indentedKey = line(doc(), 'key = "indented');
      expectScopes(indentedKey, 'key', KEY);
      expectScopes(indentedKey, 'indented tables are fine', [BASIC]);
    });

    it('scopes [[array.of.tables]] headers with their own scopes', () => {
      const products = line(doc(), '[[products]]');
      expectScopes(products, '[[', [ARRAY_TABLE, ARRAY_TABLE_PUNCT]);
      expectScopes(products, 'products', [ARRAY_TABLE, SECTION]);
      expectScopes(products, ']]', [ARRAY_TABLE, ARRAY_TABLE_PUNCT]);

      const spaced = line(doc(), '[[ products ]]');
      expectScopes(spaced, 'products', [ARRAY_TABLE, SECTION]);

      const nested = line(doc(), '[[fruits.varieties]]');
      expectScopes(nested, 'fruits', [ARRAY_TABLE, SECTION]);
      expectScopes(nested, '.', [ARRAY_TABLE, DOT]);
      expectScopes(nested, 'varieties', [ARRAY_TABLE, SECTION]);
      expectScopes(nested, ' nested array of tables', [COMMENT]);

      const quoted = line(doc(), '[[ "quoted"');
      expectScopes(quoted, 'quoted', [ARRAY_TABLE, BASIC, SECTION]);
      expectScopes(quoted, 'array', [ARRAY_TABLE, LITERAL, SECTION]);
      expectScopes(quoted, ']]', [ARRAY_TABLE, ARRAY_TABLE_PUNCT]);
    });

    it('returns to key = value after a header', () => {
      const where = line(doc(), 'sku =');
      expectScopes(where, 'sku', KEY);
      expectScopes(where, '738594937', ['constant.numeric.integer.toml']);
      expectScopes(line(doc(), 'type.name'), 'type', KEY);
    });
  });

  describe('strings', () => {
    const doc = () => fixture('strings.toml');

    it('scopes every TOML 1.0 escape in a basic string', () => {
      const where = line(doc(), 'escapes =');
      for (const escape of ['\\b', '\\t', '\\n', '\\f', '\\r', '\\"', '\\\\', '\\u00e9', '\\U0001F600']) {
        expectScopes(where, escape, [BASIC, ESCAPE]);
      }
      expectScopes(where, '"', [BASIC, STR_BEGIN]);
      expectScopes(where, '"', [BASIC, STR_END], 1);
      const str = line(doc(), 'str =');
      expectScopes(str, '\\"', [BASIC, ESCAPE]);
      expectScopes(str, '\\u00E9', [BASIC, ESCAPE]);
      expectScopes(str, '. Name', [BASIC]);
    });

    it('closes an empty basic string at once', () => {
      const where = line(doc(), 'empty =');
      expectScopes(where, '"', [BASIC, STR_BEGIN]);
      expectScopes(where, '"', [BASIC, STR_END], 1);
    });

    it('lets a multi-line basic string span lines and close on its """', () => {
      const d = doc();
      const start = d.lines.findIndex((l) => l.text.startsWith('str1 ='));
      expectScopes(d.lines[start], '"""', [ML_BASIC, STR_BEGIN]);
      expectScopes(d.lines[start + 1], 'Roses are red', [ML_BASIC]);
      expectScopes(d.lines[start + 2], 'Violets are blue', [ML_BASIC]);
      expectScopes(d.lines[start + 2], '"""', [ML_BASIC, STR_END]);
      expectScopes(d.lines[start + 3], 'str2', KEY);
    });

    it('scopes a line-ending backslash as a line continuation', () => {
      const d = doc();
      const start = d.lines.findIndex((l) => l.text.startsWith('str3 ='));
      expectScopes(d.lines[start], '\\', [ML_BASIC, 'constant.character.escape.line-continuation.toml']);
      expectScopes(d.lines[start + 1], '       The quick brown ', [ML_BASIC]);
      expectScopes(d.lines[start + 1], '\\', [ML_BASIC, 'constant.character.escape.line-continuation.toml']);
      expectScopes(d.lines[start + 4], '"""', [ML_BASIC, STR_END]);
      expectScopes(line(d, 'str4 ='), 'str4', KEY);
    });

    it('keeps up to two quotes before the closing """ inside the string', () => {
      const str7 = line(doc(), 'str7 =');
      expectScopes(str7, '"""', [ML_BASIC, STR_BEGIN]);
      expectScopes(str7, '"This," she said, "is just a pointless statement.', [ML_BASIC]);
      expectScopes(str7, '"', [ML_BASIC]);
      expectScopes(str7, '"""', [ML_BASIC, STR_END], 1);
      assert.equal(str7.tokens.at(-1)?.text, '"""');

      const str4 = line(doc(), 'str4 =');
      expectScopes(str4, 'Here are two quotation marks: "". Simple enough.', [ML_BASIC]);
      const str6 = line(doc(), 'str6 =');
      assert.equal(str6.tokens.filter((t) => t.scopes.includes(ESCAPE)).length, 5);
      expectScopes(str6, '""', [ML_BASIC]);
      expectScopes(str6, '"""', [ML_BASIC, STR_END], 1);
    });

    it('treats # and escapes inside a multi-line basic string as string content', () => {
      const d = doc();
      const start = d.lines.findIndex((l) => l.text.startsWith('str9 ='));
      expectScopes(d.lines[start], '\\t', [ML_BASIC, ESCAPE]);
      expectScopes(d.lines[start], ' and # not a comment', [ML_BASIC]);
      expectScopes(d.lines[start + 1], '# still not a comment', [ML_BASIC]);
      expectScopes(d.lines[start + 2], '"""', [ML_BASIC, STR_END]);
      expectValue(d, 'after_multiline', '1', 'constant.numeric.integer.toml');
    });

    it('scopes literal strings and never scopes an escape inside them', () => {
      const d = doc();
      expectScopes(line(d, 'winpath  ='), 'C:\\Users\\nodejs\\templates', [LITERAL]);
      const winpath2 = line(d, 'winpath2 =');
      expectScopes(winpath2, '\\\\ServerX\\admin$\\system32\\', [LITERAL]);
      expectScopes(winpath2, "'", [LITERAL, STR_END], 1);
      expectScopes(line(d, 'regex    ='), '<\\i\\c*\\s*>', [LITERAL]);
      const empty = line(d, 'empty_literal =');
      expectScopes(empty, "'", [LITERAL, STR_BEGIN]);
      expectScopes(empty, "'", [LITERAL, STR_END], 1);
      for (const l of d.lines) {
        for (const t of l.tokens) {
          if (t.scopes.includes(LITERAL) || t.scopes.includes(ML_LITERAL)) {
            assert.ok(!t.scopes.includes(ESCAPE), `escape scope inside a literal string: ${JSON.stringify(t.text)} in ${l.text}`);
          }
        }
      }
    });

    it('lets a multi-line literal string span lines and close on its last \'\'\'', () => {
      const d = doc();
      expectScopes(line(d, 'regex2 ='), "I [dw]on't need \\d{2} apples", [ML_LITERAL]);
      const start = d.lines.findIndex((l) => l.text.startsWith('lines  ='));
      expectScopes(d.lines[start], "'''", [ML_LITERAL, STR_BEGIN]);
      expectScopes(d.lines[start + 4], '   is preserved. \\n stays as typed', [ML_LITERAL]);
      expectScopes(d.lines[start + 5], "'''", [ML_LITERAL, STR_END]);
      expectScopes(line(d, 'quot15 ='), 'Here are fifteen quotation marks: """""""""""""""', [ML_LITERAL]);
      expectScopes(line(d, 'apos15 ='), "Here are fifteen apostrophes: '''''''''''''''", [BASIC]);

      const str10 = line(d, 'str10 =');
      expectScopes(str10, "'That,' she said, 'is still pointless.", [ML_LITERAL]);
      expectScopes(str10, "'", [ML_LITERAL]);
      expectScopes(str10, "'''", [ML_LITERAL, STR_END], 1);
      expectValue(d, 'after_literal', 'true', 'constant.language.boolean.toml');
    });

    it('marks escapes TOML 1.0 does not define as invalid, but not in literal strings', () => {
      const d = fixture('invalid.toml');
      expectScopes(line(d, 'bad_escape'), '\\q', [BASIC, 'invalid.illegal.escape.toml']);
      const short = line(d, 'short_unicode');
      expectScopes(short, '\\u12', [BASIC, 'invalid.illegal.escape.toml']);
      expectScopes(short, '\\U0001F6', [BASIC, 'invalid.illegal.escape.toml']);
      expectScopes(line(d, 'surrogate'), '\\uD800', [BASIC, 'invalid.illegal.escape.toml']);
      expectScopes(line(d, 'too_big'), '\\U00110000', [BASIC, 'invalid.illegal.escape.toml']);
      expectScopes(line(d, 'no_escape_in_literal'), '\\q \\u12', [LITERAL]);
    });

    it('ends an unterminated single-line string at the end of its line', () => {
      const doc2 = tokenize('a = "open\nb = \'open\nc = 1');
      expectScopes(doc2.lines[0], 'open', [BASIC]);
      expectScopes(doc2.lines[1], 'b', KEY);
      expectScopes(doc2.lines[1], 'open', [LITERAL]);
      expectScopes(doc2.lines[2], 'c', KEY);
      assert.ok(doc2.end.equals(initial));
    });

    it('marks control characters inside strings and comments as invalid', () => {
      const doc2 = tokenize('a = "x\u0001y" # z\u007f');
      expectScopes(doc2.lines[0], '\u0001', [BASIC, 'invalid.illegal.control-character.toml']);
      expectScopes(doc2.lines[0], '\u007f', [COMMENT, 'invalid.illegal.control-character.toml']);
      expectScopes(tokenize('a = "x\ty"').lines[0], 'x\ty', [BASIC]);
    });
  });

  describe('numbers and booleans', () => {
    const doc = () => fixture('numbers.toml');

    it('scopes decimal integers with signs and underscores', () => {
      const values: Record<string, string> = {
        int1: '+99', int2: '42', int3: '0', int4: '-17', int5: '1_000', int6: '5_349_221', int7: '53_49_221',
        int8: '1_2_3_4_5', zero_plus: '+0', zero_minus: '-0',
      };
      for (const [key, value] of Object.entries(values)) expectValue(doc(), key, value, 'constant.numeric.integer.toml');
    });

    it('scopes hexadecimal, octal and binary integers', () => {
      expectValue(doc(), 'hex1', '0xDEADBEEF', 'constant.numeric.hex.toml');
      expectValue(doc(), 'hex2', '0xdeadbeef', 'constant.numeric.hex.toml');
      expectValue(doc(), 'hex3', '0xdead_beef', 'constant.numeric.hex.toml');
      expectValue(doc(), 'oct1', '0o01234567', 'constant.numeric.octal.toml');
      expectValue(doc(), 'oct2', '0o755', 'constant.numeric.octal.toml');
      expectValue(doc(), 'bin1', '0b11010110', 'constant.numeric.binary.toml');
    });

    it('scopes floats with fractions, exponents, signs and underscores', () => {
      const values: Record<string, string> = {
        flt1: '+1.0', flt2: '3.1415', flt3: '-0.01', flt4: '5e+22', flt5: '1e06', flt6: '-2E-2', flt7: '6.626e-34',
        flt8: '224_617.445_991_228', flt9: '-0.0', flt10: '+0.0',
      };
      for (const [key, value] of Object.entries(values)) expectValue(doc(), key, value, 'constant.numeric.float.toml');
    });

    it('scopes inf and nan, signed or not', () => {
      for (const [key, value] of [['sf1', 'inf'], ['sf2', '+inf'], ['sf3', '-inf']]) expectValue(doc(), key, value, 'constant.numeric.inf.toml');
      for (const [key, value] of [['sf4', 'nan'], ['sf5', '+nan'], ['sf6', '-nan']]) expectValue(doc(), key, value, 'constant.numeric.nan.toml');
    });

    it('scopes booleans', () => {
      expectValue(doc(), 'bool1', 'true', 'constant.language.boolean.toml');
      expectValue(doc(), 'bool2', 'false', 'constant.language.boolean.toml');
    });

    it('marks malformed numbers, dates and bare words as invalid values', () => {
      const d = fixture('invalid.toml');
      const invalid = 'invalid.illegal.value.toml';
      expectValue(d, 'unquoted', 'hello', invalid);
      expectScopes(line(d, 'unquoted'), 'world', [invalid]);
      expectValue(d, 'leading_zero', '01', invalid);
      expectValue(d, 'double_underscore', '1__000', invalid);
      expectValue(d, 'signed_hex', '+0x1F', invalid);
      expectValue(d, 'bad_date', '1979-13-27', invalid);
      expectValue(d, 'no_seconds', '07:32', invalid);
      expectValue(d, 'after', '1', 'constant.numeric.integer.toml');
      for (const text of ['a = 1.', 'a = .5', 'a = 3.e+20', 'a = 1e', 'a = truee', 'a = 0X1F', 'a = infinity']) {
        const l = tokenize(text).lines[0];
        expectScopes(l, text.slice(4), [invalid]);
      }
    });
  });

  describe('dates and times', () => {
    const doc = () => fixture('datetime.toml');

    it('scopes offset date-times with T, t or space, fractions, Z and offsets', () => {
      const values: Record<string, string> = {
        odt1: '1979-05-27T07:32:00Z', odt2: '1979-05-27T00:32:00-07:00', odt3: '1979-05-27T00:32:00.999999-07:00',
        odt4: '1979-05-27 07:32:00Z', odt5: '1979-05-27t07:32:00z', odt6: '1979-05-27T07:32:00+05:30',
      };
      for (const [key, value] of Object.entries(values)) expectValue(doc(), key, value, 'constant.other.time.datetime.offset.toml');
    });

    it('scopes local date-times', () => {
      expectValue(doc(), 'ldt1', '1979-05-27T07:32:00', 'constant.other.time.datetime.local.toml');
      expectValue(doc(), 'ldt2', '1979-05-27T00:32:00.999999', 'constant.other.time.datetime.local.toml');
      expectValue(doc(), 'ldt3', '1979-05-27 07:32:00', 'constant.other.time.datetime.local.toml');
    });

    it('scopes local dates, even followed by a comment', () => {
      expectValue(doc(), 'ld1', '1979-05-27', 'constant.other.time.date.toml');
      expectValue(doc(), 'ld2', '1979-05-27', 'constant.other.time.date.toml');
      expectScopes(line(doc(), 'ld2'), ' a date and a comment', [COMMENT]);
    });

    it('scopes local times', () => {
      expectValue(doc(), 'lt1', '07:32:00', 'constant.other.time.time.toml');
      expectValue(doc(), 'lt2', '00:32:00.999999', 'constant.other.time.time.toml');
    });

    it('scopes dates inside arrays', () => {
      const where = line(doc(), 'dates =');
      expectScopes(where, '1979-05-27', [ARRAY, 'constant.other.time.date.toml']);
      expectScopes(where, '07:32:00', [ARRAY, 'constant.other.time.time.toml']);
      expectScopes(where, '1979-05-27T07:32:00Z', [ARRAY, 'constant.other.time.datetime.offset.toml']);
    });
  });

  describe('arrays', () => {
    const doc = () => fixture('arrays.toml');

    it('scopes brackets, separators and values of a one-line array', () => {
      const where = line(doc(), 'integers =');
      expectScopes(where, '[', [ARRAY, ARRAY_PUNCT]);
      expectScopes(where, '1', [ARRAY, 'constant.numeric.integer.toml']);
      expectScopes(where, ',', [ARRAY, ARRAY_SEP]);
      expectScopes(where, ']', [ARRAY, ARRAY_PUNCT]);
      const strings = line(doc(), 'string_array =');
      expectScopes(strings, 'all', [ARRAY, BASIC]);
      expectScopes(strings, 'strings', [ARRAY, LITERAL]);
      expectScopes(strings, 'are the same', [ARRAY, ML_BASIC]);
      expectScopes(strings, 'type', [ARRAY, ML_LITERAL]);
    });

    it('nests arrays', () => {
      const where = line(doc(), 'nested_arrays_of_ints =');
      expectScopes(where, '[', [ARRAY, ARRAY_PUNCT]);
      expectScopes(where, '[', [ARRAY, ARRAY, ARRAY_PUNCT], 1);
      expectScopes(where, '2', [ARRAY, ARRAY, 'constant.numeric.integer.toml']);
      expectScopes(where, ']', [ARRAY, ARRAY, ARRAY_PUNCT]);
      expectScopes(where, ',', [ARRAY, ARRAY_SEP], 1);
      expectScopes(where, ']', [ARRAY, ARRAY_PUNCT], 2);
      const empty = line(doc(), 'empty_nested =');
      expectScopes(empty, ']', [ARRAY, ARRAY, ARRAY_PUNCT]);
      expectScopes(empty, ']', [ARRAY, ARRAY, ARRAY, ARRAY_PUNCT], 1);
      expectScopes(empty, ']', [ARRAY, ARRAY_PUNCT], 3);
    });

    it('spans lines with comments, a trailing comma and brackets inside comments and strings', () => {
      const d = doc();
      const start = d.lines.findIndex((l) => l.text.startsWith('with_comments ='));
      const lines = d.lines.slice(start, start + 8);
      expectScopes(lines[0], ' a comment after the opening bracket', [ARRAY, COMMENT]);
      expectScopes(lines[1], ' a comment line inside the array', [ARRAY, COMMENT]);
      expectScopes(lines[2], 'a', [ARRAY, BASIC]);
      expectScopes(lines[2], ' ] a bracket in a comment does not close the array', [ARRAY, COMMENT]);
      expectScopes(lines[3], '[', [ARRAY, ARRAY, ARRAY_PUNCT]);
      expectScopes(lines[4], 'b', [ARRAY, ARRAY, BASIC]);
      expectScopes(lines[5], 'c', [ARRAY, ARRAY, ARRAY, LITERAL]);
      expectScopes(lines[5], ',', [ARRAY, ARRAY, ARRAY, ARRAY_SEP]);
      expectScopes(lines[5], ' trailing comma', [ARRAY, ARRAY, COMMENT]);
      expectScopes(lines[6], ']', [ARRAY, ARRAY, ARRAY_PUNCT]);
      expectScopes(lines[7], ']', [ARRAY, ARRAY_PUNCT]);

      const strings = d.lines.findIndex((l) => l.text.startsWith('multiline_strings ='));
      expectScopes(d.lines[strings + 2], '  ]', [ARRAY, ML_BASIC]);
      expectScopes(d.lines[strings + 2], '"""', [ARRAY, ML_BASIC, STR_END]);
      expectScopes(d.lines[strings + 3], 'second ]', [ARRAY, ML_LITERAL]);
      expectScopes(d.lines[strings + 5], ']', [ARRAY, ARRAY_PUNCT]);
    });

    it('holds inline tables and closes so the next line starts with a key', () => {
      const d = doc();
      const where = line(d, '{ name =');
      expectScopes(where, '{', [ARRAY, INLINE, INLINE_PUNCT]);
      expectScopes(where, 'email', [ARRAY, INLINE, ...KEY]);
      expectScopes(where, 'https://example.com/bazqux', [ARRAY, INLINE, BASIC]);
      expectScopes(where, '}', [ARRAY, INLINE, INLINE_PUNCT]);
      expectScopes(line(d, 'integers2 ='), 'integers2', KEY);
      expectScopes(line(d, 'after ='), 'after', KEY);
      expectScopes(line(d, 'after ='), 'the array is closed', [BASIC]);
    });
  });

  describe('inline tables', () => {
    const doc = () => fixture('inline-tables.toml');

    it('scopes braces, keys, separators and values', () => {
      const where = line(doc(), 'name =');
      expectScopes(where, 'name', KEY);
      expectScopes(where, '{', [INLINE, INLINE_PUNCT]);
      expectScopes(where, 'first', [INLINE, ...KEY]);
      expectScopes(where, '=', [INLINE, ...EQ], 1);
      expectScopes(where, 'Tom', [INLINE, BASIC]);
      expectScopes(where, ',', [INLINE, INLINE_SEP]);
      expectScopes(where, 'last', [INLINE, ...KEY]);
      expectScopes(where, '}', [INLINE, INLINE_PUNCT]);
      const animal = line(doc(), 'animal =');
      expectScopes(animal, 'type', [INLINE, ...KEY]);
      expectScopes(animal, '.', [INLINE, DOT]);
      expectScopes(animal, 'name', [INLINE, ...KEY]);
    });

    it('nests inline tables and arrays and closes each of them', () => {
      const where = line(doc(), 'nested =');
      expectScopes(where, 'b', [INLINE, ...KEY]);
      expectScopes(where, 'c', [INLINE, ...KEY]);
      expectScopes(where, 'x', [INLINE, BASIC]);
      expectScopes(where, 'e', [INLINE, INLINE, ...KEY]);
      expectScopes(where, '2', [INLINE, INLINE, ARRAY, 'constant.numeric.integer.toml']);
      expectScopes(where, 'g', [INLINE, INLINE, INLINE, ...KEY]);
      expectScopes(where, 'true', [INLINE, INLINE, INLINE, 'constant.language.boolean.toml']);
      expectScopes(where, '}', [INLINE, INLINE, INLINE, INLINE_PUNCT]);
      expectScopes(where, '}', [INLINE, INLINE, INLINE_PUNCT], 1);
      expectScopes(where, '}', [INLINE, INLINE_PUNCT], 2);

      const quoted = line(doc(), 'quoted =');
      expectScopes(quoted, 'key with spaces', [INLINE, BASIC, ...KEY]);
      expectScopes(quoted, 'lit', [INLINE, LITERAL, ...KEY]);
      expectScopes(quoted, '}', [INLINE, BASIC]);
      expectScopes(quoted, '}', [INLINE, INLINE_PUNCT], 1);

      const inArray = line(doc(), 'in_array =');
      expectScopes(inArray, 'z', [ARRAY, INLINE, ARRAY, INLINE, ...KEY]);
      expectScopes(inArray, ']', [ARRAY, INLINE, ARRAY, ARRAY_PUNCT]);
      expectScopes(inArray, ']', [ARRAY, ARRAY_PUNCT], 1);
    });

    it('lets an array inside an inline table span lines and then closes the table', () => {
      const d = doc();
      const start = d.lines.findIndex((l) => l.text.startsWith('with_array ='));
      expectScopes(d.lines[start + 1], '1', [INLINE, ARRAY, 'constant.numeric.integer.toml']);
      expectScopes(d.lines[start + 3], ']', [INLINE, ARRAY, ARRAY_PUNCT]);
      expectScopes(d.lines[start + 3], '}', [INLINE, INLINE_PUNCT]);
      const after = d.lines[start + 4];
      expectScopes(after, 'after', KEY);
      expectScopes(after, 'the inline table is closed', [BASIC]);
    });

    it('scopes an empty inline table', () => {
      const where = line(doc(), 'empty =');
      expectScopes(where, '{', [INLINE, INLINE_PUNCT]);
      expectScopes(where, '}', [INLINE, INLINE_PUNCT]);
    });
  });

  describe('an MGP Kernel mgp.toml', () => {
    const doc = () => fixture('mgp.toml');

    it('scopes [[servers]] as an array of tables and its keys as keys', () => {
      const servers = line(doc(), '[[servers]]');
      expectScopes(servers, '[[', [ARRAY_TABLE, ARRAY_TABLE_PUNCT]);
      expectScopes(servers, 'servers', [ARRAY_TABLE, SECTION]);
      expectScopes(servers, ']]', [ARRAY_TABLE, ARRAY_TABLE_PUNCT]);
      const id = line(doc(), 'id = "example"');
      expectScopes(id, 'id', KEY);
      expectScopes(id, '=', EQ);
      expectScopes(id, 'example', [BASIC]);
      expectScopes(line(doc(), 'args ='), '--verbose', [ARRAY, BASIC]);
    });

    it('scopes [servers.mgp] and [servers.env] as tables', () => {
      for (const [header, child] of [['[servers.mgp]', 'mgp'], ['[servers.env]', 'env']]) {
        const where = line(doc(), header);
        expectScopes(where, '[', [TABLE, TABLE_PUNCT]);
        expectScopes(where, 'servers', [TABLE, SECTION]);
        expectScopes(where, '.', [TABLE, DOT]);
        expectScopes(where, child, [TABLE, SECTION]);
        expectScopes(where, ']', [TABLE, TABLE_PUNCT]);
      }
    });

    it('scopes the values under them', () => {
      const d = doc();
      expectValue(d, 'approval', 'ask', BASIC);
      expectScopes(line(d, 'approval'), ' ask before each tool call', [COMMENT]);
      expectValue(d, 'audit', 'true', 'constant.language.boolean.toml');
      expectValue(d, 'timeout_ms', '30_000', 'constant.numeric.integer.toml');
      expectScopes(line(d, '"list_dir"'), ' more may follow', [ARRAY, COMMENT]);
      expectScopes(line(d, 'LOG_LEVEL'), 'LOG_LEVEL', KEY);
      expectScopes(line(d, '"API-TOKEN"'), 'API-TOKEN', [BASIC, ...KEY]);
      expectScopes(line(d, '"API-TOKEN"'), '${env:API_TOKEN}', [BASIC]);
      expectScopes(line(d, 'HOME_DIR'), 'C:\\Users\\me', [LITERAL]);
      const env = line(d, 'env = {');
      expectScopes(env, 'NODE_ENV', [INLINE, ...KEY]);
      expectScopes(env, 'PORT', [INLINE, ...KEY]);
      const headers = line(d, 'headers =');
      expectScopes(headers, 'Bearer abc#123', [INLINE, BASIC]);
      assert.ok(!headers.tokens.some((t) => t.scopes.includes(COMMENT)));
    });
  });

  describe('an OpenFang config.toml', () => {
    const doc = () => fixture('config.toml');

    it('scopes [[mcp_servers]] and [mcp_servers.transport]', () => {
      const servers = line(doc(), '[[mcp_servers]]');
      expectScopes(servers, '[[', [ARRAY_TABLE, ARRAY_TABLE_PUNCT]);
      expectScopes(servers, 'mcp_servers', [ARRAY_TABLE, SECTION]);
      expectScopes(servers, ']]', [ARRAY_TABLE, ARRAY_TABLE_PUNCT]);
      const transport = line(doc(), '[mcp_servers.transport]');
      expectScopes(transport, 'mcp_servers', [TABLE, SECTION]);
      expectScopes(transport, 'transport', [TABLE, SECTION]);
      expectScopes(transport, ']', [TABLE, TABLE_PUNCT]);
    });

    it('scopes keys and values throughout', () => {
      const d = doc();
      expectValue(d, 'api_listen', '127.0.0.1:4200', BASIC);
      expectValue(d, 'temperature', '0.7', 'constant.numeric.float.toml');
      expectValue(d, 'max_tokens', '4_096', 'constant.numeric.integer.toml');
      expectValue(d, 'decay_rate', '5e-2', 'constant.numeric.float.toml');
      expectValue(d, 'consolidate_at', '03:00:00', 'constant.other.time.time.toml');
      expectValue(d, 'timeout_secs', '30', 'constant.numeric.integer.toml');
      expectScopes(line(d, 'type = "stdio"'), 'type', KEY);
      expectScopes(line(d, 'args ='), '/home/user/projects', [ARRAY, BASIC]);
      const inline = line(d, 'transport = {');
      expectScopes(inline, 'transport', KEY);
      expectScopes(inline, 'url', [INLINE, ...KEY]);
      expectScopes(inline, 'http://localhost:8080/mcp', [INLINE, BASIC]);
      expectValue(d, 'started', '2025-01-15T09:30:00Z', 'constant.other.time.datetime.offset.toml');
    });
  });

  describe('robustness while typing', () => {
    it('closes an unterminated table header at the end of its line', () => {
      const doc = tokenize('[servers\nid = 1\n[[mcp_servers\nname = "x"');
      expectScopes(doc.lines[0], 'servers', [TABLE, SECTION]);
      expectScopes(doc.lines[1], 'id', KEY);
      expectScopes(doc.lines[2], 'mcp_servers', [ARRAY_TABLE, SECTION]);
      expectScopes(doc.lines[3], 'name', KEY);
      assert.ok(doc.end.equals(initial));
    });

    it('ends a key = value without a value at the end of its line', () => {
      const doc = tokenize('a =\nb = 2');
      expectScopes(doc.lines[1], 'b', KEY);
      expectScopes(doc.lines[1], '2', ['constant.numeric.integer.toml']);
    });

    it('marks top-level text that is not key = value as invalid', () => {
      const doc = tokenize('just words\nkey = 1');
      expectScopes(doc.lines[0], 'just', ['invalid.illegal.toml']);
      expectScopes(doc.lines[1], 'key', KEY);
    });
  });
});

function walk(node: unknown, visit: (key: string, value: unknown) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit);
  } else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      visit(key, value);
      walk(value, visit);
    }
  }
}
