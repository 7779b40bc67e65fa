import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
import { repoRoot } from '../repoRoot';

const root = repoRoot();
const offender = "import * as vscode from 'vscode';\nexport const version = vscode.version;\n";

function restrictedImportErrors(results: ESLint.LintResult[]): string[] {
  return results.flatMap((r) =>
    r.messages
      .filter((m) => m.ruleId === 'no-restricted-imports')
      .map((m) => `${r.filePath}: ${m.message}`),
  );
}

describe('lint: no vscode import outside client/src/vscode', function () {
  const eslint = new ESLint({ cwd: root });
  // ESLint loads the TypeScript parser at its first lint (about 1.5 s): once, before the tests.
  before(() => eslint.lintText('', { filePath: join(root, 'shared/src/probe.ts') }));

  for (const dir of ['client/src/kernel', 'client/src/cli', 'server/src', 'shared/src']) {
    it(`rejects an import of vscode in ${dir}`, async () => {
      const results = await eslint.lintText(offender, { filePath: join(root, dir, 'offender.ts') });
      assert.equal(restrictedImportErrors(results).length, 1, JSON.stringify(results[0].messages));
      assert.match(results[0].messages[0].message, /must run without VS Code/);
    });
  }

  it('allows it in client/src/vscode', async () => {
    const results = await eslint.lintText(offender, {
      filePath: join(root, 'client/src/vscode/offender.ts'),
    });
    assert.deepEqual(restrictedImportErrors(results), []);
  });

  it('fails `eslint` on a real file on disk that imports vscode in the kernel', async () => {
    const dir = mkdtempSync(join(root, 'client/src/kernel/lint-probe-'));
    try {
      const file = join(dir, 'probe.ts');
      writeFileSync(file, offender);
      const results = await eslint.lintFiles([relative(root, file)]);
      assert.equal(ESLint.getErrorResults(results).length, 1);
      assert.equal(restrictedImportErrors(results).length, 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
