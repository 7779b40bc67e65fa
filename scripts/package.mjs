// Builds the production bundles and packages them with @vscode/vsce into mgp-kernel-<version>.vsix.
// Prints the package's size and fails when it is over 7552 KiB.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
// 2 MiB, raised by 192 KiB for the sandbox validator's shell grammar (tree-sitter-bash and its
// runtime, WebAssembly, about 290 KiB compressed, of which the rest fit under the old limit), and by
// 256 KiB for the generated tools' JavaScript engine (QuickJS, WebAssembly, about 250 KiB compressed),
// and by 4928 KiB for the search model (dist/searchModel.bin: 6.2 MB, about 4.8 MiB compressed),
// and by 128 KiB for the operating-system sandbox, the network guard, the terminal's trust gate and
// the sealed audit anchor, which together took the package 3 KiB over the old limit.
const MAX_BYTES = 7552 * 1024;
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
