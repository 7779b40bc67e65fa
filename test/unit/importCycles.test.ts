import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from '../repoRoot';

const root = repoRoot();
const script = join(root, 'scripts/lint/cycles.mjs');

function run(tree: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, tree], (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

function writeTree(files: Record<string, string>): string {
  const tree = mkdtempSync(join(tmpdir(), 'mgp-cycles-'));
  writeFileSync(join(tree, 'tsconfig.json'), '{ "compilerOptions": { "strict": true } }\n');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  }
  return tree;
}

describe('lint: no import cycles between files or folders', function () {
  it('names the folders that import each other, and an import making each arrow', async () => {
    const tree = writeTree({
      'client/src/kernel/config/model.ts':
        "import type { Override } from '../security/types';\nexport type Server = { o: Override };\n",
      'client/src/kernel/security/types.ts':
        "export type Override = { risk: string };\nexport type Level = 'safe';\n",
      'client/src/kernel/security/policy.ts':
        "import type { Server } from '../config/model';\nexport const policy = (s: Server) => s;\n",
      'client/src/kernel/pipeline/run.ts':
        "import { policy } from '../security/policy';\nexport const run = policy;\n",
    });
    try {
      const { code, output } = await run(tree);
      assert.equal(code, 1, output);
      assert.match(output, /client\/src\/kernel\/config\/ ⇄ client\/src\/kernel\/security\//);
      assert.match(output, /config\/model\.ts → .*security\/types\.ts/);
      assert.match(output, /security\/policy\.ts → .*config\/model\.ts/);
      assert.doesNotMatch(output, /pipeline/, 'a folder outside the cycle is not named');
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it('counts type-only imports: a vocabulary type in a higher folder is still an arrow', async () => {
    const tree = writeTree({
      'client/src/kernel/lifecycle/states.ts': "export type State = 'connected';\n",
      'client/src/kernel/lifecycle/server.ts':
        "import { bus } from '../events';\nexport const server = bus;\n",
      'client/src/kernel/events.ts':
        "import type { State } from './lifecycle/states';\nexport const bus = (s: State) => s;\n",
    });
    try {
      const { code, output } = await run(tree);
      assert.equal(code, 1, output);
      assert.match(output, /client\/src\/kernel\/events\.ts ⇄ client\/src\/kernel\/lifecycle\//);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it('names files that import each other in a circle inside one folder', async () => {
    const tree = writeTree({
      'client/src/kernel/audit/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'client/src/kernel/audit/b.ts': "import { c } from './c';\nexport const b = () => c;\n",
      'client/src/kernel/audit/c.ts': "import { a } from './a';\nexport const c = () => a;\n",
      'client/src/kernel/audit/d.ts': "import { a } from './a';\nexport const d = a;\n",
    });
    try {
      const { code, output } = await run(tree);
      assert.equal(code, 1, output);
      assert.match(output, /^Files that import each other/);
      assert.match(output, /client\/src\/kernel\/audit\/(a|b|c)\.ts → .* → .* → .*audit\/\1\.ts/);
      assert.doesNotMatch(output, /d\.ts/, 'a file outside the cycle is not named');
      assert.doesNotMatch(output, /Folders/);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it('finds none in the tree as it is', async () => {
    const { code, output } = await run(root);
    assert.equal(output, '');
    assert.equal(code, 0);
  });
});
