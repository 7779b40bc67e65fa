// Runs one mocha tier of the tests: `unit` (the fast loop), `slow` or `interop`.
//   node scripts/mocha-tier.mjs <tier> [--no-build] [files or folders…] [mocha options…]
// Transpiles the tests into out/ first (about 2 s; `--no-build` skips it when that is done), then runs
// the files given, or the whole tier when none is. A file is given as its source
// (test/unit/cli.test.ts) or as what it is transpiled to (out/test/unit/cli.test.js); a folder runs
// every test file under it. Anything else goes to mocha as it is: `--grep X`, `--reporter json`, `--bail`.
// The whole fast tier runs its files on every core at once (mocha --parallel), unless --no-parallel.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const TIERS = ['unit', 'slow', 'interop'];

/** Mocha options that take a value: the word after them is that value, never a file. */
const TAKES_VALUE = new Set(
  [
    'grep g',
    'fgrep f',
    'reporter R',
    'reporter-option reporter-options O',
    'timeout t',
    'slow s',
    'require r',
    'ui u',
    'jobs j',
    'retries',
    'file',
    'ignore exclude',
    'extension',
    'config',
    'package',
  ].flatMap((names) => names.split(' ').map((n) => (n.length === 1 ? `-${n}` : `--${n}`))),
);

/** `test/unit/cli.test.ts` → `out/test/unit/cli.test.js`; a folder → a glob of its test files. */
function transpiledSpec(path) {
  const relative = path.replace(/^\.\//, '').replace(/\/$/, '');
  const inOut = relative.startsWith('out/') ? relative : `out/${relative}`;
  const source = join(root, inOut.slice('out/'.length));
  if (existsSync(source) && statSync(source).isDirectory()) return `${inOut}/**/*.test.js`;
  return inOut.replace(/\.ts$/, '.js');
}

/** Splits the arguments into the files to run and the options for mocha. */
function splitArguments(args) {
  const files = [];
  const options = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg.startsWith('-')) {
      options.push(arg);
      if (TAKES_VALUE.has(arg) && i + 1 < args.length) options.push(args[++i]);
    } else files.push(transpiledSpec(arg));
  }
  return { files, options };
}

function main() {
  const [tier, ...rest] = process.argv.slice(2);
  if (!TIERS.includes(tier)) {
    console.error(`usage: node scripts/mocha-tier.mjs <${TIERS.join('|')}> [files…] [options…]`);
    process.exit(2);
  }
  const build = !rest.includes('--no-build');
  const { files, options } = splitArguments(rest.filter((a) => a !== '--no-build'));
  const node = (args) =>
    spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' }).status ?? 1;
  if (build && node(['esbuild.mjs', '--tests']) !== 0) process.exit(1);
  const missing = files.filter((f) => !f.includes('*') && !existsSync(join(root, f)));
  if (missing.length) {
    console.error(`no such test file: ${missing.join(', ')}`);
    process.exit(2);
  }
  const spec = files.length ? files : [`out/test/${tier}/**/*.test.js`];
  const parallel =
    tier === 'unit' && !files.length && !options.includes('--no-parallel')
      ? ['--parallel', '--jobs', String(availableParallelism())]
      : [];
  const mocha = join(root, 'node_modules/mocha/bin/mocha.js');
  const config = ['--config', `test/${tier}/.mocharc.json`];
  process.exit(node([mocha, ...config, ...parallel, ...options, ...spec]));
}

main();
