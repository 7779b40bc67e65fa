import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkConfigText } from '@shared/configCheck/checkDocument';
import type { RuleEnvironment } from '@shared/configCheck/semantic/context';
import { repoRoot } from '../repoRoot';

const root = join(repoRoot(), 'test/fixtures/diagnostics');

/** A fixed world, so the goldens do not depend on the machine: these commands exist, this env is set. */
function environment(baseDir: string): RuleEnvironment {
  return {
    baseDir,
    env: { PRESENT: 'yes' },
    commandOnPath: (command) => ['node', 'npx', 'python3'].includes(command),
    fileExists: (path) => existsSync(path),
  };
}

/**
 * Golden diagnostics: each fixture folder holds one config file and `expected.json` (ranges included).
 * `UPDATE_GOLDEN=1` rewrites the expected files; review the diff before committing it.
 */
describe('golden diagnostics for fixture files', () => {
  for (const folder of readdirSync(root).sort()) {
    const dir = join(root, folder);
    const file = readdirSync(dir).find((name) => name.endsWith('.toml'));
    if (!file) continue;
    it(`${folder}/${file}`, () => {
      const text = readFileSync(join(dir, file), 'utf8');
      const actual = checkConfigText(text, {
        path: join(dir, file),
        environment: environment(dir),
      }).map(({ range, severity, code, message }) => ({ range, severity, code, message }));
      const expectedFile = join(dir, 'expected.json');
      if (process.env.UPDATE_GOLDEN)
        writeFileSync(expectedFile, `${JSON.stringify(actual, null, 2)}\n`);
      assert.ok(
        existsSync(expectedFile),
        `${expectedFile} is missing: run with UPDATE_GOLDEN=1 and review it`,
      );
      assert.deepEqual(actual, JSON.parse(readFileSync(expectedFile, 'utf8')));
    });
  }
});
