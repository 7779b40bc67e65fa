import { strict as assert } from 'node:assert';
import { parse } from 'smol-toml';
import { getStaticTOMLValue, parseTOML } from 'toml-eslint-parser';
import { tomlFixtures } from './support/tomlFixtures';

function outcome<T>(read: () => T): { ok: true; value: T } | { ok: false } {
  try {
    return { ok: true, value: read() };
  } catch {
    return { ok: false };
  }
}

/** Local dates and times are Date objects in both, serialised differently: compare the rest exactly. */
function plain(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, function (this: Record<string, unknown>, key) {
      return this[key] instanceof Date ? '<date-time>' : this[key];
    }),
  );
}

/**
 * The checker parses with smol-toml; toml-eslint-parser is the reference AST its range scanner is
 * tested against. Both must agree on what is valid TOML and on the values.
 */
describe('both TOML parsers agree on every fixture', () => {
  const fixtures = tomlFixtures();

  it('covers the fixtures', () => assert.ok(fixtures.length >= 20, `${fixtures.length} files`));

  for (const { name, text } of fixtures) {
    it(name, () => {
      const reference = outcome(() => parse(text));
      const ours = outcome(() => getStaticTOMLValue(parseTOML(text)));
      assert.equal(
        ours.ok,
        reference.ok,
        `valid according to smol-toml: ${reference.ok}, to toml-eslint-parser: ${ours.ok}`,
      );
      if (ours.ok && reference.ok) assert.deepEqual(plain(ours.value), plain(reference.value));
    });
  }
});
