// Builds the production bundles and packages them with @vscode/vsce into mgp-kernel-<version>.vsix.
// Prints the package's size and fails when it is over its budget (MAX_BYTES).
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
// 3 MiB: today's 2.5 MiB plus a fifth, so that adding a model or a runtime is a decision made here.
const MAX_BYTES = 3072 * 1024;
const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const vsix = `${name}-${version}.vsix`;
const run = (command, args) => execFileSync(command, args, { cwd: root, stdio: 'inherit' });

run(process.execPath, ['esbuild.mjs', '--production']);
run(process.execPath, [
  join(root, 'node_modules/@vscode/vsce/vsce'),
  'package',
  '--no-dependencies',
  '--out',
  vsix,
]);

const bytes = statSync(join(root, vsix)).size;
console.log(`${vsix}: ${(bytes / 1024).toFixed(1)} KiB (limit ${MAX_BYTES / 1024} KiB)`);
if (bytes > MAX_BYTES) {
  console.error(
    `${vsix} is over ${MAX_BYTES / 1024} KiB: look at what .vscodeignore lets in, or what the bundles pull in.`,
  );
  process.exit(1);
}
