import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { getStaticTOMLValue, parseTOML } from 'toml-eslint-parser';
import { repoRoot } from '../repoRoot';

function tomlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tomlFiles(path) : name.endsWith('.toml') ? [path] : [];
  });
}

function outcome<T>(read: () => T): { ok: true; value: T } | { ok: false } {
  try {
    return { ok: true, value: read() };
  } catch {
    return { ok: false };
  }
}

/** The checker parses with toml-eslint-parser; smol-toml is the reference used by the schema tests. */
describe('both TOML parsers agree on every fixture', () => {
  const root = repoRoot();
  const files = [...tomlFiles(join(root, 'test/fixtures')), ...tomlFiles(join(root, 'examples'))];

  it('covers the fixtures', () => assert.ok(files.length >= 20, `${files.length} files`));

  for (const file of files) {
    it(file.slice(root.length + 1), () => {
      const text = readFileSync(file, 'utf8');
      const reference = outcome(() => parse(text));
      const ours = outcome(() => getStaticTOMLValue(parseTOML(text)));
      assert.equal(ours.ok, reference.ok, `valid according to smol-toml: ${reference.ok}, to toml-eslint-parser: ${ours.ok}`);
      // Local dates and times are Date objects in both, serialised differently: compare the rest exactly.
      const plain = (value: unknown) => JSON.parse(JSON.stringify(value, function (this: Record<string, unknown>, key) {
        return this[key] instanceof Date ? '<date-time>' : this[key];
      }));
      if (ours.ok && reference.ok) assert.deepEqual(plain(ours.value), plain(reference.value));
    });
  }
});
