import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import {
  cl100kTokens,
  TOKENIZER_BUNDLE,
  tokenizerSource,
} from '../../../client/src/kernel/discovery';
import { repoRoot } from '../../repoRoot';

describe('discovery: the cl100k tokenizer, loaded at first use', () => {
  it('comes from the npm package when the code is not bundled', () => {
    assert.equal(tokenizerSource(), 'package');
    assert.equal(cl100kTokens('hello world'), 2);
  });

  it('comes from its own bundle next to a bundle that holds the kernel, which does not carry it', async function () {
    const root = repoRoot();
    const dir = mkdtempSync(join(tmpdir(), 'mgp-tokenizer-'));
    try {
      const probe = join(dir, 'probe.ts');
      writeFileSync(
        probe,
        `import { cl100kTokens, tokenizerSource } from ${JSON.stringify(join(root, 'client/src/kernel/discovery/tokens'))};\n` +
          "console.log(JSON.stringify({ tokens: cl100kTokens('hello world'), source: tokenizerSource() }));\n",
      );
      const common = {
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node20',
        outdir: dir,
        logLevel: 'silent',
      } as const;
      await esbuild.build({ ...common, entryPoints: { probe } });
      await esbuild.build({
        ...common,
        entryPoints: {
          [TOKENIZER_BUNDLE.replace(/\.js$/, '')]: join(
            root,
            'client/src/kernel/discovery/cl100k.ts',
          ),
        },
      });
      assert.ok(
        statSync(join(dir, 'probe.js')).size < 50_000,
        'the BPE ranks are not in the bundle that loads them',
      );
      assert.ok(statSync(join(dir, TOKENIZER_BUNDLE)).size > 500_000);
      const out = JSON.parse(
        execFileSync(process.execPath, [join(dir, 'probe.js')], { cwd: dir, encoding: 'utf8' }),
      );
      assert.deepEqual(out, { tokens: 2, source: 'bundle' });
      rmSync(join(dir, TOKENIZER_BUNDLE));
      const missing = JSON.parse(
        execFileSync(process.execPath, [join(dir, 'probe.js')], { cwd: dir, encoding: 'utf8' }),
      );
      assert.equal(
        missing.source,
        'estimate',
        'without the bundle or the package, counts are estimated rather than failing',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
