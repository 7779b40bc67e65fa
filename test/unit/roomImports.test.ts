import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
import { repoRoot } from '../repoRoot';

const root = repoRoot();

function roomErrors(results: ESLint.LintResult[]): string[] {
  return results.flatMap((r) =>
    r.messages.filter((m) => m.ruleId === 'rooms/imports').map((m) => m.message),
  );
}

/** A probe file in `dir` that imports `target` (a path from the repository root, or an alias). */
function importing(dir: string, target: string): { text: string; filePath: string } {
  const filePath = join(root, dir, 'probe.ts');
  const source = target.startsWith('@') ? target : relative(join(root, dir), join(root, target));
  return { text: `import * as probe from '${source}';\nexport { probe };\n`, filePath };
}

describe('lint: imports follow the arrows between rooms', function () {
  const eslint = new ESLint({ cwd: root });
  // ESLint loads the TypeScript parser at its first lint (about 1.5 s): once, before the tests.
  before(() => eslint.lintText('', { filePath: join(root, 'shared/src/probe.ts') }));

  async function errorsFor(dir: string, target: string): Promise<string[]> {
    const { text, filePath } = importing(dir, target);
    return roomErrors(await eslint.lintText(text, { filePath }));
  }

  const forbidden: [string, string][] = [
    ['client/src/kernel/config', 'server/src/analysis'],
    ['client/src/cli', 'server/src/features/hover'],
    ['client/src/vscode', 'server/src/server'],
    ['server/src/features', 'client/src/kernel/kernel'],
    ['shared/src/configCheck', 'client/src/kernel/config/types'],
    ['client/src/kernel', 'client/src/vscode/extension'],
    ['client/src/kernel/pipeline', 'client/src/cli/main'],
    ['client/src/cli', 'client/src/vscode/configFiles/configCommands'],
    ['client/src/vscode', 'client/src/cli/main'],
    ['media/src/about', 'client/src/kernel/config/status'],
  ];
  for (const [dir, target] of forbidden) {
    it(`rejects an import of ${target} in ${dir}`, async () => {
      const errors = await errorsFor(dir, target);
      assert.equal(errors.length, 1, JSON.stringify(errors));
      assert.match(errors[0], /may not import .*ARCHITECTURE\.md/);
    });
  }

  it('judges an aliased import by the folder it stands for', async () => {
    assert.equal((await errorsFor('client/src/kernel/config', '@shared/configFiles')).length, 0);
    const filePath = join(root, 'server/src/probe.ts');
    const results = await eslint.lintText("export * from '@shared/configFiles';\n", { filePath });
    assert.deepEqual(roomErrors(results), []);
  });

  const allowed: [string, string][] = [
    ['client/src/kernel/config', 'shared/src/configCheck/checkDocument'],
    ['client/src/cli', 'client/src/kernel'],
    ['client/src/vscode', 'client/src/kernel/index'],
    ['client/src/vscode/servers', 'client/src/kernel'],
    ['server/src', 'shared/src/lspMessages'],
    ['media/src/about', 'shared/src/aboutMessages'],
  ];
  for (const [dir, target] of allowed) {
    it(`allows an import of ${target} in ${dir}`, async () => {
      assert.deepEqual(await errorsFor(dir, target), []);
    });
  }

  // The front ends reach the kernel through its front door only (client/src/kernel/index.ts).
  const pastTheDoor: [string, string][] = [
    ['client/src/cli', 'client/src/kernel/kernel'],
    ['client/src/vscode', 'client/src/kernel/config/types'],
    ['client/src/vscode/servers', 'client/src/kernel/audit'],
    ['client/src/vscode/chat', 'client/src/kernel/agent/index'],
  ];
  for (const [dir, target] of pastTheDoor) {
    it(`rejects an import of ${target} in ${dir}, past the kernel's front door`, async () => {
      const errors = await errorsFor(dir, target);
      assert.equal(errors.length, 1, JSON.stringify(errors));
      assert.match(errors[0], /only through its front door, client\/src\/kernel\/index\.ts/);
    });
  }

  it('rejects a type-only import and a re-export past the front door', async () => {
    const filePath = join(root, 'client/src/vscode/probe.ts');
    const text = [
      "import type { Kernel } from '../kernel/kernel';",
      "export { KernelError } from '../kernel/domain/errors';",
      "export type { Kernel as K } from '../kernel';",
      'export type Probe = Kernel;',
    ].join('\n');
    const errors = roomErrors(await eslint.lintText(`${text}\n`, { filePath }));
    assert.equal(errors.length, 2, JSON.stringify(errors));
  });

  it('fails `eslint` on a real file on disk in the kernel that imports the language server', async () => {
    const dir = mkdtempSync(join(root, 'client/src/kernel/lint-probe-'));
    try {
      const file = join(dir, 'probe.ts');
      writeFileSync(file, "export { AnalysisCache } from '../../../../server/src/analysis';\n");
      const results = await eslint.lintFiles([relative(root, file)]);
      assert.equal(ESLint.getErrorResults(results).length, 1);
      assert.equal(roomErrors(results).length, 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
