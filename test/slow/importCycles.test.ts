import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../repoRoot';

/** The cycle check `npm run lint` runs on the tree, here run on small trees made for each case. */
async function run(tree: string): Promise<{ files: string; rooms: string }> {
  const script = pathToFileURL(join(repoRoot(), 'scripts/lint/cycles.mjs')).href;
  const { findCycles } = (await import(script)) as {
    findCycles(root: string): Promise<{ files: string[]; rooms: string[] }>;
  };
  const { files, rooms } = await findCycles(tree);
  return { files: files.join('\n'), rooms: rooms.join('\n') };
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
      const { files, rooms } = await run(tree);
      assert.equal(files, '', 'no file imports itself back');
      assert.match(rooms, /client\/src\/kernel\/config\/ ⇄ client\/src\/kernel\/security\//);
      assert.match(rooms, /config\/model\.ts → .*security\/types\.ts/);
      assert.match(rooms, /security\/policy\.ts → .*config\/model\.ts/);
      assert.doesNotMatch(rooms, /pipeline/, 'a folder outside the cycle is not named');
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
      const { rooms } = await run(tree);
      assert.match(rooms, /client\/src\/kernel\/events\.ts ⇄ client\/src\/kernel\/lifecycle\//);
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
      const { files, rooms } = await run(tree);
      assert.match(files, /client\/src\/kernel\/audit\/(a|b|c)\.ts → .* → .* → .*audit\/\1\.ts/);
      assert.doesNotMatch(files, /d\.ts/, 'a file outside the cycle is not named');
      assert.equal(rooms, '', 'one folder is no cycle between folders');
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });
});
