// Benchmark: what loading the extension costs the editor before its activate() runs, and what an
// activate() costs that has nothing to do (a folder whose only config.toml is not OpenFang's, such
// as a Hugo or Netlify site's), each against an empty extension in the same run.
//
// Each sample is a fresh node process (as an extension host loads an extension once) that loads
// dist/extension.js, or an empty extension, with a stand-in for the `vscode` module (the
// extension's module body touches nothing of it), and reports the time `require` took (and
// activate() in the second case), measured inside the process. The two sides alternate.
// Goal (issue 37): the extension's own activation ≤ 50 ms until a server starts.
//
// Run: node bench/extension-load.mjs [--runs N] [--extension PATH] [--baseline PATH]   (needs `npm run build`)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const arg = (name, fallback) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback;
const RUNS = Number(arg('--runs', 15));
const EXTENSION = resolve(arg('--extension', join(root, 'dist/extension.js')));
// --baseline PATH: another build's dist/extension.js, loaded as a third side of the same run.
const BASELINE = process.argv.includes('--baseline') ? resolve(arg('--baseline')) : undefined;

const work = mkdtempSync(join(tmpdir(), 'mgp-bench-load-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const empty = join(work, 'empty-extension.js');
writeFileSync(empty, 'exports.activate = async () => undefined;\nexports.deactivate = () => {};\n');
// A folder as a Hugo site has it: a config.toml that is not OpenFang's, and nothing else of ours.
const hugo = join(work, 'hugo-site');
mkdirSync(hugo);
writeFileSync(join(hugo, 'config.toml'), 'baseURL = "https://example.org/"\ntitle = "A site"\n');

// The sample: a stand-in `vscode` (a proxy whose every member is a callable, constructible stand-in)
// registered before the extension loads; times in ms on stdout as JSON.
const sample = join(work, 'sample.cjs');
writeFileSync(
  sample,
  `const Module = require('node:module');
const { performance } = require('node:perf_hooks');
const stub = () => new Proxy(function () {}, {
  get: (target, key) => (key === 'then' ? undefined : key === Symbol.toPrimitive ? () => '' : stub()),
  apply: () => stub(),
  construct: () => stub(),
});
// What an activate() with nothing to do touches, as plain members; anything else a stand-in.
const vscode = new Proxy(
  {
    workspace: { workspaceFolders: [{ uri: { fsPath: ${JSON.stringify(hugo)} }, name: 'hugo-site', index: 0 }] },
    commands: { registerCommand: () => ({ dispose() {} }), executeCommand: async () => undefined },
  },
  { get: (target, key) => (key in target ? target[key] : key === 'then' ? undefined : stub()) },
);
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? 'vscode' : resolveFilename.call(this, request, ...rest);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: vscode };
const [file, mode] = process.argv.slice(2);
const start = performance.now();
const extension = require(file);
const loaded = performance.now() - start;
if (mode !== 'activate') {
  process.stdout.write(JSON.stringify({ loaded }));
} else {
  const packageJSON = require(${JSON.stringify(join(root, 'package.json'))});
  const context = { subscriptions: [], extension: { packageJSON } };
  const before = performance.now();
  Promise.resolve(extension.activate(context)).then(
    (api) => process.stdout.write(JSON.stringify({ loaded, activated: performance.now() - before, api: api === undefined ? 'none' : 'some' })),
    (error) => process.stdout.write(JSON.stringify({ loaded, error: String(error) })),
  );
}
`,
);

// No config of the user's: the Hugo site is all there is.
const env = { ...process.env, HOME: work, MGP_CONFIG_PATH: '' };
const run = (file, mode) =>
  JSON.parse(execFileSync(process.execPath, [sample, file, mode], { encoding: 'utf8', env }));

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const times = { extension: [], empty: [], baseline: [], extensionActivate: [], emptyActivate: [] };
let activation;
for (let i = 0; i < RUNS; i++) {
  const sides = BASELINE ? ['extension', 'empty', 'baseline'] : ['extension', 'empty'];
  const order = [...sides.slice(i % sides.length), ...sides.slice(0, i % sides.length)];
  for (const side of order) {
    if (side === 'baseline') {
      times.baseline.push(run(BASELINE, 'load').loaded);
      continue;
    }
    const file = side === 'empty' ? empty : EXTENSION;
    times[side].push(run(file, 'load').loaded);
    const activated = run(file, 'activate');
    // An activate() that goes on to build the kernel needs the real editor: it fails on the stand-in.
    if (!activated.error) times[`${side}Activate`].push(activated.loaded + activated.activated);
    if (side === 'extension') activation = activated;
  }
}

const ms = (value) => `${value.toFixed(1)} ms`;
console.log(`extension load: ${RUNS} fresh processes per side, alternating; ${EXTENSION}`);
console.log(`machine: ${availableParallelism()} cores, load average ${loadavg()[0].toFixed(1)}`);
console.log(
  `node ${process.version}; ${execFileSync('uname', ['-r'], { encoding: 'utf8' }).trim()}`,
);
console.log('');
console.log('                                          median');
console.log(`require(dist/extension.js)                ${ms(median(times.extension))}`);
console.log(`require(an empty extension)               ${ms(median(times.empty))}`);
if (BASELINE)
  console.log(
    `require(the baseline build's entry)       ${ms(median(times.baseline))} (${BASELINE})`,
  );
const activatedAtOnce = times.extensionActivate.length === RUNS;
console.log(
  activatedAtOnce
    ? `require + activate() in a Hugo site        ${ms(median(times.extensionActivate))} (activate() returned ${activation.api === 'none' ? 'at once: nothing to do' : 'its API'})`
    : `require + activate() in a Hugo site        not measured: activate() builds the kernel, which needs the editor (${activation.error})`,
);
console.log(`require + activate() of the empty one     ${ms(median(times.emptyActivate))}`);
console.log('');
console.log(
  `the extension's own cost: load ${ms(median(times.extension) - median(times.empty))}${activatedAtOnce ? `, load and activate() in a folder with nothing for it ${ms(median(times.extensionActivate) - median(times.emptyActivate))}` : ''}   goal ≤ 50 ms`,
);
