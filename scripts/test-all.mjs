// `npm test`: every suite, in order: typecheck, lint, package (with its size limit), unit, interop,
// the MCP conformance suite's client scenarios, real VS Code. Prints each suite's output, then one
// closing line `N passed, N failed`.
import { spawn } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const npx = (bin, ...args) => [process.execPath, [`node_modules/${bin}`, ...args]];

const steps = [
  {
    name: 'typecheck',
    kind: 'check',
    command: npx('typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.json'),
  },
  {
    name: 'lint',
    kind: 'check',
    // ESLint (with the arrows between rooms), then import cycles between folders.
    commands: [npx('eslint/bin/eslint.js', '.'), [process.execPath, ['scripts/lint/cycles.mjs']]],
  },
  {
    name: 'format',
    kind: 'check',
    command: npx('prettier/bin/prettier.cjs', '--check', '--log-level', 'warn', '.'),
  },
  { name: 'package', kind: 'check', command: [process.execPath, ['scripts/package.mjs']] },
  {
    name: 'transpile tests',
    kind: 'check',
    command: [process.execPath, ['esbuild.mjs', '--tests']],
  },
  {
    name: 'unit',
    kind: 'mocha',
    command: npx('mocha/bin/mocha.js', '--config', 'test/unit/.mocharc.json'),
  },
  {
    name: 'interop',
    kind: 'mocha',
    command: npx('mocha/bin/mocha.js', '--config', 'test/interop/.mocharc.json'),
  },
  {
    name: 'conformance',
    kind: 'conformance',
    command: [process.execPath, ['test/conformance/run.mjs']],
  },
  {
    name: 'real VS Code',
    kind: 'harness',
    command: [process.execPath, ['test/vscode/harness/run.mjs', '--no-package']],
  },
];

function run([command, args]) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const tee = (stream, sink) =>
      stream.on('data', (chunk) => {
        output += chunk;
        sink.write(chunk);
      });
    tee(child.stdout, process.stdout);
    tee(child.stderr, process.stderr);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Runs commands one after another, stopping at the first that fails. */
async function runAll(commands) {
  let output = '';
  for (const command of commands) {
    const result = await run(command);
    output += result.output;
    if (result.code !== 0) return { code: result.code, output };
  }
  return { code: 0, output };
}

function counts(step, { code, output }) {
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  if (step.kind === 'mocha') {
    const passed = Number(plain.match(/(\d+) passing/)?.[1] ?? 0);
    const failed = Number(plain.match(/(\d+) failing/)?.[1] ?? 0);
    return { passed, failed: failed || (code !== 0 ? 1 : 0) };
  }
  if (step.kind === 'conformance') {
    const line = plain.match(/conformance \(client\): (\d+) passed, (\d+) failed/);
    if (!line) return { passed: 0, failed: 1 };
    return { passed: Number(line[1]), failed: Number(line[2]) || (code !== 0 ? 1 : 0) };
  }
  if (step.kind === 'harness') {
    const line = plain.match(/real VS Code: (\d+) passed, (\d+) failed/);
    if (!line) return { passed: 0, failed: 1 };
    return { passed: Number(line[1]), failed: Number(line[2]) || (code !== 0 ? 1 : 0) };
  }
  return code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };
}

const totals = { passed: 0, failed: 0 };
const summary = [];
const started = Date.now();
for (const step of steps) {
  console.log(`\n━━ ${step.name} ━━`);
  const stepStarted = Date.now();
  const result = counts(step, await runAll(step.commands ?? [step.command]));
  totals.passed += result.passed;
  totals.failed += result.failed;
  summary.push(
    `${result.failed ? '✘' : '✔'} ${step.name.padEnd(16)} ${result.passed} passed, ${result.failed} failed  (${((Date.now() - stepStarted) / 1000).toFixed(1)} s)`,
  );
}
console.log(
  `\n━━ summary (${((Date.now() - started) / 1000).toFixed(0)} s) ━━\n${summary.join('\n')}\n`,
);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exitCode = totals.failed > 0 ? 1 : 0;
