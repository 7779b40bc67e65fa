/**
 * Loads a webview module (media/src/…, browser code that the test build does not transpile) into node
 * for its pure parts: bundled on the fly with esbuild, evaluated as CommonJS. Import its types with
 * `import type`; the values come from here.
 */
import { buildSync } from 'esbuild';
import { join } from 'node:path';
import { repoRoot } from '../../repoRoot';

const loaded = new Map<string, unknown>();

export function browserModule<T>(path: string): T {
  const cached = loaded.get(path);
  if (cached) return cached as T;
  const result = buildSync({
    entryPoints: [join(repoRoot(), path)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  const module = { exports: {} as Record<string, unknown> };
  new Function('module', 'exports', 'require', result.outputFiles[0].text)(
    module,
    module.exports,
    require,
  );
  loaded.set(path, module.exports);
  return module.exports as T;
}
