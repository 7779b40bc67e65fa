import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import { IGrammar, INITIAL, parseRawGrammar, Registry, StateStack } from 'vscode-textmate';
import { repoRoot } from '../../repoRoot';

// Tokenizes TOML samples with the extension's TextMate grammar, the way VS Code does: line by line,
// each line starting from the rule stack the previous one left. Every test file awaits `loadGrammar()`
// in a `before` hook; the grammar and onig.wasm are loaded once and shared by all of them.

export const ROOT = repoRoot();
export const GRAMMAR_PATH = join(ROOT, 'syntaxes/toml.tmLanguage.json');
export const FIXTURES = join(ROOT, 'test/fixtures/grammar');
/** Fixtures that are meant to be broken TOML; every other fixture is valid TOML 1.0. */
export const INVALID_FIXTURES = ['invalid.toml'];

export interface Token {
  text: string;
  scopes: string[];
}

export interface Line {
  text: string;
  tokens: Token[];
}

export interface Tokenized {
  lines: Line[];
  /** The rule stack after the last line. */
  end: StateStack;
}

let grammarPromise: Promise<IGrammar> | undefined;
/** Set once `grammarPromise` resolves, so that tokenizing can stay synchronous. */
let loaded: IGrammar | undefined;

/** Loads onig.wasm and the source.toml grammar, once; later calls return the same promise. */
export function loadGrammar(): Promise<IGrammar> {
  grammarPromise ??= (async () => {
    const wasm = readFileSync(join(ROOT, 'node_modules/vscode-oniguruma/release/onig.wasm'));
    await oniguruma.loadWASM({ data: wasm });
    const registry = new Registry({
      onigLib: Promise.resolve({
        createOnigScanner: (sources: string[]) => new oniguruma.OnigScanner(sources),
        createOnigString: (text: string) => new oniguruma.OnigString(text),
      }),
      loadGrammar: async (scopeName: string) =>
        scopeName === 'source.toml'
          ? parseRawGrammar(readFileSync(GRAMMAR_PATH, 'utf8'), GRAMMAR_PATH)
          : null,
    });
    const grammar = await registry.loadGrammar('source.toml');
    if (!grammar) throw new Error('source.toml did not load');
    loaded = grammar;
    return grammar;
  })();
  return grammarPromise;
}

function grammar(): IGrammar {
  if (!loaded)
    throw new Error('the grammar is not loaded yet: await loadGrammar() in a before hook');
  return loaded;
}

/** The rule stack of a fresh document: what every file must return to at its end. */
export function initialStack(): StateStack {
  return grammar().tokenizeLine('', INITIAL).ruleStack;
}

export function tokenize(text: string): Tokenized {
  let stack: StateStack = INITIAL;
  const lines = text.split(/\r?\n/).map((lineText): Line => {
    const result = grammar().tokenizeLine(lineText, stack);
    assert.equal(
      result.stoppedEarly,
      false,
      `tokenizing stopped early on ${JSON.stringify(lineText)}`,
    );
    stack = result.ruleStack;
    return {
      text: lineText,
      tokens: result.tokens.map((t) => ({
        text: lineText.slice(t.startIndex, t.endIndex),
        scopes: t.scopes,
      })),
    };
  });
  return { lines, end: stack };
}

const fixtureCache = new Map<string, Tokenized>();
/** The fixture `name` of test/fixtures/grammar, tokenized once. */
export function fixture(name: string): Tokenized {
  let tokenized = fixtureCache.get(name);
  if (!tokenized) {
    tokenized = tokenize(readFileSync(join(FIXTURES, name), 'utf8'));
    fixtureCache.set(name, tokenized);
  }
  return tokenized;
}

export function fixtureNames(): string[] {
  return readdirSync(FIXTURES)
    .filter((name) => name.endsWith('.toml'))
    .sort();
}

/** The first line of `doc` that starts with `prefix` (ignoring indentation). */
export function line(doc: Tokenized, prefix: string): Line {
  const found = doc.lines.find((l) => l.text.trimStart().startsWith(prefix));
  assert.ok(found, `no line starts with ${JSON.stringify(prefix)}`);
  return found;
}

/** The scopes of the `nth` token on `where` whose text is exactly `text`. */
export function scopes(where: Line, text: string, nth = 0): string[] {
  const matching = where.tokens.filter((t) => t.text === text);
  assert.ok(
    matching.length > nth,
    `line ${JSON.stringify(where.text)} has no token ${JSON.stringify(text)} #${nth}; tokens: ${JSON.stringify(where.tokens.map((t) => t.text))}`,
  );
  return matching[nth].scopes;
}

/** Asserts the full scope list (without the root `source.toml`) of a token. */
export function expectScopes(where: Line, text: string, expected: string[], nth = 0): void {
  const actual = scopes(where, text, nth);
  assert.equal(actual[0], 'source.toml');
  assert.deepEqual(
    actual.slice(1),
    expected,
    `scopes of ${JSON.stringify(text)} in ${JSON.stringify(where.text)}`,
  );
}

export const KEY = ['support.type.property-name.toml'];
export const EQ = ['keyword.operator.assignment.toml'];
export const BASIC = 'string.quoted.double.basic.toml';
export const LITERAL = 'string.quoted.single.literal.toml';
export const ML_BASIC = 'string.quoted.triple.basic.block.toml';
export const ML_LITERAL = 'string.quoted.triple.literal.block.toml';
export const STR_BEGIN = 'punctuation.definition.string.begin.toml';
export const STR_END = 'punctuation.definition.string.end.toml';
export const ESCAPE = 'constant.character.escape.toml';
export const ARRAY = 'meta.array.toml';
export const ARRAY_PUNCT = 'punctuation.definition.array.toml';
export const ARRAY_SEP = 'punctuation.separator.array.toml';
export const INLINE = 'meta.table.inline.toml';
export const INLINE_PUNCT = 'punctuation.definition.table.inline.toml';
export const INLINE_SEP = 'punctuation.separator.table.inline.toml';
export const TABLE = 'meta.table.toml';
export const TABLE_PUNCT = 'punctuation.definition.table.toml';
export const ARRAY_TABLE = 'meta.array.table.toml';
export const ARRAY_TABLE_PUNCT = 'punctuation.definition.array.table.toml';
export const SECTION = 'entity.name.section.toml';
export const DOT = 'punctuation.separator.dot.toml';
export const COMMENT = 'comment.line.number-sign.toml';
export const COMMENT_PUNCT = 'punctuation.definition.comment.toml';

/** Asserts that the value token `text` of `key = text` gets exactly `scope` and that the key is a key. */
export function expectValue(doc: Tokenized, key: string, text: string, scope: string): void {
  const where = line(doc, `${key} =`);
  expectScopes(where, key, KEY);
  expectScopes(where, text, [scope]);
}

/** Calls `visit` with every key and value of a parsed JSON document, depth first. */
export function walk(node: unknown, visit: (key: string, value: unknown) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit);
  } else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      visit(key, value);
      walk(value, visit);
    }
  }
}
