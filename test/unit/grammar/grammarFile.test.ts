import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import * as oniguruma from 'vscode-oniguruma';
import { StateStack } from 'vscode-textmate';
import {
  ROOT,
  GRAMMAR_PATH,
  FIXTURES,
  INVALID_FIXTURES,
  loadGrammar,
  initialStack,
  tokenize,
  fixture,
  fixtureNames,
  expectScopes,
  walk,
  KEY,
  TABLE,
  ARRAY_TABLE,
  SECTION,
} from './tokenize';

// The grammar file itself, properties every fixture must have, and robustness while typing.

describe('TOML TextMate grammar (syntaxes/toml.tmLanguage.json)', () => {
  /** The rule stack of a fresh document: what every file must return to at its end. */
  let initial: StateStack;

  before(async () => {
    await loadGrammar();
    initial = initialStack();
  });

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
        if (['match', 'begin', 'end', 'while'].includes(key) && typeof value === 'string')
          sources.push(value);
      });
      assert.ok(sources.length > 30, `only ${sources.length} regular expressions found`);
      for (const source of sources) {
        assert.doesNotThrow(
          () => new oniguruma.OnigScanner([source]).dispose(),
          `not a valid Oniguruma regex: ${source}`,
        );
      }
    });

    it('is contributed for the toml language and shipped in the package', () => {
      const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
      const entry = manifest.contributes.grammars.find(
        (g: { scopeName: string }) => g.scopeName === 'source.toml',
      );
      assert.deepEqual(entry, {
        language: 'toml',
        scopeName: 'source.toml',
        path: './syntaxes/toml.tmLanguage.json',
      });
      assert.ok(manifest.contributes.languages.some((l: { id: string }) => l.id === 'toml'));
      assert.ok(existsSync(join(ROOT, entry.path)));
      const ignore = readFileSync(join(ROOT, '.vscodeignore'), 'utf8').split(/\r?\n/);
      assert.ok(ignore.includes('!syntaxes/*.json'));
    });
  });

  describe('every fixture', () => {
    it('has the expected fixtures', () => {
      const names = fixtureNames();
      for (const name of [
        'comments',
        'keys',
        'tables',
        'strings',
        'numbers',
        'datetime',
        'arrays',
        'inline-tables',
        'mgp',
        'config',
        'invalid',
      ]) {
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
        assert.ok(
          doc.end.equals(initial),
          `${name} leaves a rule open at EOF (depth ${doc.end.depth}, expected ${initial.depth})`,
        );
      }
    });

    it('gets no invalid.illegal scope anywhere when the TOML is valid', () => {
      for (const name of fixtureNames().filter((n) => !INVALID_FIXTURES.includes(n))) {
        for (const l of fixture(name).lines) {
          for (const t of l.tokens) {
            assert.ok(
              !t.scopes.some((s) => s.startsWith('invalid')),
              `${name}: ${JSON.stringify(t.text)} in ${JSON.stringify(l.text)} is ${t.scopes.join(' ')}`,
            );
          }
        }
      }
    });

    it('covers every character of every line with a token', () => {
      for (const name of fixtureNames()) {
        for (const l of fixture(name).lines)
          assert.equal(l.tokens.map((t) => t.text).join(''), l.text, name);
      }
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
