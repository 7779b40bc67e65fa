// What the benchmarks share: a scratch folder removed at exit, and the kernel's sources bundled
// into it with esbuild (so a benchmark needs no `npm run build` first).
import * as esbuild from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));

/** A fresh folder under `parent`, removed when the process exits (Ctrl+C included). */
export function scratchFolder(prefix, parent = tmpdir()) {
  const folder = mkdtempSync(join(parent, prefix));
  process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
  process.on('SIGINT', () => process.exit(130));
  return folder;
}

const forNode = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'silent',
};

/**
 * Bundles `exports` (lines such as `export { X } from './client/src/…'`, relative to the repository)
 * into `folder/name.cjs` and loads it.
 */
export async function bundleExports(folder, name, exports, from = root) {
  const outfile = join(folder, `${name}.cjs`);
  await esbuild.build({
    ...forNode,
    stdin: {
      contents: exports.join('\n'),
      resolveDir: from,
      sourcefile: `bench-${name}-entry.ts`,
      loader: 'ts',
    },
    outfile,
    define: { __MGP_VERSION__: '"bench"' },
  });
  return createRequire(import.meta.url)(outfile);
}

/** The audit log's writer thread, next to the bundles that start it (as dist/auditWorker.js is). */
export async function bundleAuditWorker(folder, from = root) {
  await esbuild.build({
    ...forNode,
    entryPoints: { auditWorker: join(from, 'client/src/kernel/audit/auditWorker.ts') },
    outdir: folder,
  });
}
