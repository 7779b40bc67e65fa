// The lab's tests: each test/*.test.ts bundled with the code it imports into .scratch/ (under the
// repository, whose test helpers find it from there), the static model beside them, then mocha.
//   node tools/discovery-lab/test/run.mjs      (or `npm test` in tools/discovery-lab)
import { spawnSync } from 'node:child_process';
import * as esbuild from 'esbuild';
import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { root } from '../../../bench/lib/bundle.mjs';
import { checkedModel } from '../load.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const out = join(root, '.scratch/discovery-lab-tests');
rmSync(out, { recursive: true, force: true });
await esbuild.build({
  entryPoints: readdirSync(here)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join(here, f)),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outdir: out,
  sourcemap: 'inline',
  external: ['mocha'],
  logLevel: 'warning',
});
copyFileSync(checkedModel(), join(out, 'model.bin'));
const mocha = createRequire(import.meta.url).resolve('mocha/bin/mocha.js');
const run = spawnSync(
  process.execPath,
  [mocha, '--timeout', '300000', '--enable-source-maps', join(out, '*.test.js')],
  { stdio: 'inherit' },
);
process.exit(run.status ?? 1);
