import { strict as assert } from 'node:assert';
import {
  loadGrammar,
  fixture,
  line,
  expectScopes,
  expectValue,
  KEY,
  EQ,
  BASIC,
  LITERAL,
  ML_BASIC,
  ML_LITERAL,
  STR_BEGIN,
  STR_END,
  ARRAY,
  ARRAY_PUNCT,
  ARRAY_SEP,
  INLINE,
  INLINE_PUNCT,
  INLINE_SEP,
  TABLE,
  TABLE_PUNCT,
  ARRAY_TABLE,
  ARRAY_TABLE_PUNCT,
  SECTION,
  DOT,
  COMMENT,
  COMMENT_PUNCT,
} from './tokenize';

// Table headers, arrays, inline tables, and the mgp.toml and OpenFang config.toml fixtures.

describe('TOML TextMate grammar (syntaxes/toml.tmLanguage.json)', () => {
  before(async () => {
    await loadGrammar();
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
      expectScopes(lines[2], ' ] a bracket in a comment does not close the array', [
        ARRAY,
        COMMENT,
      ]);
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
      for (const [header, child] of [
        ['[servers.mgp]', 'mgp'],
        ['[servers.env]', 'env'],
      ]) {
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
});
