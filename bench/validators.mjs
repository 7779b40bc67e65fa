// Benchmark: what the kernel-side validators cost per call, and how their time grows with hostile input.
//
// Measures `runValidators` (client/src/kernel/security/validators), bundled as the extension ships it:
// the validators in one bundle, their parsers (esbuild.mjs `validatorParsers`) as bundles of their own
// next to it with the .wasm files, loaded at first use; no DNS (network_restricted gets a resolver that
// answers at once).
// 1. Per call: each validator on a typical small argument object, timed call by call in alternating
//    blocks with the baseline, a call that runs no validator (`runValidators(['none'], …)`: the
//    pipeline's own step, same input), after a warm-up of both. Figures: medians, p90, the validator's
//    own cost (median minus the baseline's) and the ratio of medians.
// 2. Growth: hostile inputs (floods of flags, redirections, slashes, unclosed regex classes, SQL
//    keywords, URLs, import statements, nested brackets…) at size n and 2n, each through all four
//    validators under five argument names (command, body, sql, url, code); the median of R rounds at
//    each size and their ratio. Linear time gives a ratio near 2, quadratic near 4.
// Goal (the kernel's own work per call stays small next to the SDK's ~60 µs): a typical
// call well under 50 µs, a parse (SQL, shell, code at strict) well under 1 ms; hostile inputs linear
// (ratio ≤ 2.5).
//
// 3. With --before REF: the code_safety rows again with the validators of git revision REF, built the
//    same way and timed in the same run (alternating blocks with this tree's), for a before/after.
// Run: node bench/validators.mjs [--calls N] [--block B] [--rounds R] [--before REF]
//      (defaults 4000, 200, 5, none)
// Builds what it needs with esbuild into a temp folder, so no `npm run build` first.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validatorParsers, wasmFiles } from '../esbuild.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const CALLS = arg('--calls', 4000);
const BLOCK = arg('--block', 200);
const ROUNDS = arg('--rounds', 5);
const work = mkdtempSync(join(tmpdir(), 'mgp-bench-validators-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
process.on('SIGINT', () => process.exit(130));

// ── 1. Build the validators and their parser bundles into the temp folder, as dist/ holds them ────
async function loadValidators(source = root, into = work) {
  const common = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outdir: into,
    logLevel: 'silent',
    nodePaths: [join(root, 'node_modules')],
    minify: true,
    define: { __MGP_VERSION__: '"bench"' },
  };
  await esbuild.build({
    ...common,
    entryPoints: { validators: join(source, 'client/src/kernel/security/validators/index.ts') },
  });
  const lists = source === root ? { validatorParsers } : await import(join(source, 'esbuild.mjs'));
  const parsers = Object.fromEntries(
    Object.entries(lists.validatorParsers).map(([name, path]) => [name, join(source, path)]),
  );
  await esbuild.build({ ...common, entryPoints: parsers });
  for (const [from, to] of wasmFiles) copyFileSync(join(root, from), join(into, to));
  return createRequire(import.meta.url)(join(into, 'validators.js'));
}

/** The validators of git revision `ref`, from its files extracted into the temp folder. */
async function loadValidatorsAt(ref) {
  const tree = join(work, 'before-src');
  const into = join(work, 'before');
  mkdirSync(tree, { recursive: true });
  mkdirSync(into, { recursive: true });
  const archive = spawnSync(
    'git',
    ['archive', ref, 'client', 'shared', 'esbuild.mjs', 'package.json'],
    {
      cwd: root,
      maxBuffer: 1 << 30,
    },
  );
  if (archive.status !== 0) throw new Error(`git archive ${ref}: ${archive.stderr}`);
  spawnSync('tar', ['-x', '-C', tree], { input: archive.stdout });
  symlinkSync(join(root, 'node_modules'), join(tree, 'node_modules'));
  return loadValidators(tree, into);
}

const BEFORE = process.argv.includes('--before')
  ? process.argv[process.argv.indexOf('--before') + 1]
  : undefined;
const before = BEFORE ? (await loadValidatorsAt(BEFORE)).runValidators : undefined;
let { runValidators } = await loadValidators();
const options = { resolveHost: async () => [] };
const security = { risk_level: 'dangerous', permissions_required: [], side_effects: [] };
const code = (level, language) => ({ ...security, code_safety: { level, language } });

// ── 2. Typical calls ────────────────────────────────────────────────────────────────────────────
const TYPICAL = [
  [
    'sandbox (a plain command line)',
    ['sandbox'],
    {
      toolName: 'run_command',
      args: {
        command: 'git log --oneline -n 20 -- src/',
        cwd: '/home/dev/project',
        timeout_ms: 30000,
      },
      security,
    },
  ],
  [
    'sandbox (quoted, parsed)',
    ['sandbox'],
    {
      toolName: 'run_command',
      args: { command: 'grep -rn "TODO: fix" src/ --include=*.ts', cwd: '/home/dev/project' },
      security,
    },
  ],
  [
    'readonly (SQL, parsed)',
    ['readonly'],
    {
      toolName: 'db_query',
      args: {
        sql: 'SELECT id, name FROM users WHERE created_at > ? ORDER BY id LIMIT 50',
        params: ['2024-01-01'],
      },
      security,
    },
  ],
  [
    'readonly (a command line)',
    ['readonly'],
    {
      toolName: 'git',
      args: { command: 'git diff --stat HEAD~3 -- "src/main file.ts"' },
      security,
    },
  ],
  [
    'network_restricted',
    ['network_restricted'],
    {
      toolName: 'fetch',
      args: { url: 'https://93.184.216.34/index.html', max_length: 5000, raw: false },
      security,
    },
  ],
  [
    'code_safety standard (Python)',
    ['code_safety'],
    {
      toolName: 'run_python',
      args: {
        code: 'import json\nimport math\n\nvalues = [math.sqrt(i) for i in range(10)]\nprint(json.dumps(values))\n',
      },
      security: code('standard', 'python'),
    },
  ],
  [
    'code_safety strict (Python)',
    ['code_safety'],
    {
      toolName: 'run_python',
      args: {
        code: 'import json\nimport math\n\nvalues = [math.sqrt(i) for i in range(10)]\nprint(json.dumps(values))\n',
      },
      security: code('strict', 'python'),
    },
  ],
  [
    'code_safety strict (JavaScript)',
    ['code_safety'],
    {
      toolName: 'run_js',
      args: {
        code: "import path from 'node:path';\nconst parts = ['a', 'b', 'c'].map((p) => p.toUpperCase());\nconsole.log(path.join(...parts));\n",
      },
      security: code('strict', 'javascript'),
    },
  ],
  [
    'all four (prose arguments)',
    ['sandbox', 'readonly', 'network_restricted', 'code_safety'],
    {
      toolName: 'tool',
      args: { query: 'status of build 42', limit: 10, verbose: false },
      security,
    },
  ],
];

async function timeBlock(names, input, count, into) {
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await runValidators(names, input, options);
    into.push((performance.now() - start) * 1000);
  }
}

function stats(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p90: at(0.9) };
}

async function perCall(names, input, run = runValidators) {
  const saved = runValidators;
  runValidators = run;
  try {
    return await perCallWith(names, input);
  } finally {
    runValidators = saved;
  }
}

async function perCallWith(names, input) {
  const measured = [];
  const baseline = [];
  const warm = [];
  await timeBlock(names, input, Math.min(500, CALLS / 4), warm);
  await timeBlock(['none'], input, Math.min(500, CALLS / 4), warm);
  for (let done = 0; done < CALLS; done += BLOCK) {
    await timeBlock(names, input, BLOCK, measured);
    await timeBlock(['none'], input, BLOCK, baseline);
  }
  const outcome = await runValidators(names, input, options);
  return { measured: stats(measured), baseline: stats(baseline), ok: outcome.ok };
}

// ── 3. Hostile inputs at n and 2n ───────────────────────────────────────────────────────────────
const HOSTILE = [
  ['rm and n flags', (n) => `rm ${'-r '.repeat(n)}`, 30_000],
  ['n redirections', (n) => '>'.repeat(n), 50_000],
  ['n slashes', (n) => '/'.repeat(n), 100_000],
  ['n backslashes', (n) => '\\'.repeat(n), 50_000],
  ['n unclosed regex classes', (n) => '=/['.repeat(n), 25_000],
  ['n UPDATE keywords', (n) => 'update '.repeat(n), 15_000],
  ['n URL schemes', (n) => 'http://'.repeat(n), 15_000],
  ['n import statements', (n) => 'import a:'.repeat(n), 7_500],
  ['n nested brackets', (n) => `${'['.repeat(n)}${']'.repeat(n)}`, 2_500],
  ['n quoted words', (n) => 'echo "a b" '.repeat(n), 2_500],
];
const ALL = ['sandbox', 'readonly', 'network_restricted', 'code_safety'];

async function hostileRound(text) {
  const start = performance.now();
  for (const key of ['command', 'body', 'sql', 'url', 'code'])
    await runValidators(
      ALL,
      { toolName: 'tool', args: { [key]: text }, security: code('strict') },
      options,
    );
  return performance.now() - start;
}

async function growth(make, n) {
  const small = make(n);
  const large = make(2 * n);
  await hostileRound(small);
  const times = { n: [], twice: [] };
  for (let r = 0; r < ROUNDS; r++) {
    times.n.push(await hostileRound(small));
    times.twice.push(await hostileRound(large));
  }
  return { n: stats(times.n).median, twice: stats(times.twice).median, chars: small.length };
}

// ── 4. Run, then print the figures last ────────────────────────────────────────────────────────
const started = Date.now();
const typical = [];
for (const [label, names, input] of TYPICAL) typical.push([label, await perCall(names, input)]);
const beforeRows = [];
if (before)
  for (const [label, names, input] of TYPICAL.filter(([l]) => l.startsWith('code_safety'))) {
    const then = await perCall(names, input, before);
    const now = await perCall(names, input);
    beforeRows.push([label, then, now]);
  }
const hostile = [];
for (const [label, make, n] of HOSTILE) hostile.push([label, await growth(make, n)]);

const f = (x, digits = 1) => x.toFixed(digits).padStart(8);
console.log(
  `\nvalidators: per call, ${CALLS} calls each side in alternating blocks of ${BLOCK} (µs)`,
);
console.log(
  `${'validator'.padEnd(34)} ${'median'.padStart(8)} ${'p90'.padStart(8)}   ${'none: median'.padStart(12)} ${'p90'.padStart(8)}   ${'own cost'.padStart(8)} ${'ratio'.padStart(8)}  verdict`,
);
for (const [label, { measured, baseline, ok }] of typical)
  console.log(
    `${label.padEnd(34)} ${f(measured.median)} ${f(measured.p90)}   ${f(baseline.median).padStart(12)} ${f(baseline.p90)}   ${f(measured.median - baseline.median)} ${f(measured.median / baseline.median, 0)}x  ${ok ? 'passes' : 'refused'}`,
  );
if (before) {
  console.log(
    `\ncode_safety before (${BEFORE}) and after (this tree), each timed right after the other (µs)`,
  );
  console.log(
    `${'validator'.padEnd(34)} ${'before'.padStart(8)} ${'own'.padStart(8)}   ${'after'.padStart(8)} ${'own'.padStart(8)}  verdict before → after`,
  );
  for (const [label, then, now] of beforeRows)
    console.log(
      `${label.padEnd(34)} ${f(then.measured.median)} ${f(then.measured.median - then.baseline.median)}   ${f(now.measured.median)} ${f(now.measured.median - now.baseline.median)}  ${then.ok ? 'passes' : 'refused'} → ${now.ok ? 'passes' : 'refused'}`,
    );
}
console.log(
  `\nhostile inputs: 5 calls of all four validators, median of ${ROUNDS} rounds at n and 2n (ms)`,
);
console.log(
  `${'input'.padEnd(26)} ${'n'.padStart(8)} ${'chars'.padStart(8)} ${'time n'.padStart(9)} ${'time 2n'.padStart(9)} ${'2n / n'.padStart(7)}`,
);
for (const [label, { n, twice, chars }] of hostile) {
  const size = HOSTILE.find(([l]) => l === label)[2];
  console.log(
    `${label.padEnd(26)} ${String(size).padStart(8)} ${String(chars).padStart(8)} ${f(n, 2).padStart(9)} ${f(twice, 2).padStart(9)} ${f(twice / n, 2).padStart(7)}`,
  );
}
console.log(
  `\nmachine: node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0].toFixed(2)} at the end; ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
