import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './support/cliInProcess';
import { repoRoot } from '../repoRoot';

// `mgp init server [DIR]`: the minimal example as a project of its own, never over a file.

describe('mgp init server', function () {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mgp-init-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the minimal server with a package.json whose validate script runs mgp validate', async () => {
    const target = join(dir, 'My Server');
    const { code, out } = await cli(['init', 'server', target]);
    assert.equal(code, 0, out);
    const source = readFileSync(join(target, 'src/server.ts'), 'utf8');
    assert.match(source, /enableMgp\(server, \{/);
    assert.equal(
      source.replace('npm run validate', 'X'),
      readFileSync(join(repoRoot(), 'examples/minimal-server/src/server.ts'), 'utf8').replace(
        'mgp validate server -- node examples/minimal-server/dist/server.js',
        'X',
      ),
    );
    const manifest = JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as {
      name: string;
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
    };
    assert.equal(manifest.name, 'my-server');
    assert.match(
      manifest.scripts.validate,
      /validate server --require-tier 2 -- node dist\/server\.js$/,
    );
    assert.match(manifest.dependencies['mgp-server-kit'], /^file:.*packages\/mgp-server-kit$/);
    for (const file of ['tsconfig.json', '.gitignore', 'README.md'])
      assert.ok(existsSync(join(target, file)), file);
  });

  it('refuses to overwrite: with one file there, it writes nothing and exits 1', async () => {
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src/server.ts'), 'mine');
    const { code, err } = await cli(['init', 'server', dir]);
    assert.equal(code, 1);
    assert.match(err, /src\/server\.ts already exists: nothing written/);
    assert.equal(readFileSync(join(dir, 'src/server.ts'), 'utf8'), 'mine');
    assert.equal(existsSync(join(dir, 'package.json')), false);
  });

  it('refuses bad usage with exit 2', async () => {
    assert.equal((await cli(['init', 'client'])).code, 2);
    assert.equal((await cli(['init', 'server', dir, 'extra'])).code, 2);
  });
});
