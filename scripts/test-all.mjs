// `npm test`: every suite: typecheck, lint, format, package (with its size limit), the unit tests
// (the fast tier and the slow one), interop, the MCP conformance suite's client scenarios and its
// server scenarios through `mgp serve`, real VS Code.
// Two steps run at once (MGP_TEST_JOBS changes it), each as soon as what it needs is done: the
// real-VS-Code suite, the longest, beside the others one after another. Each step's output is
// printed whole when it ends, under its name; then a summary and one closing line `N passed, N failed`.
// Every step has a deadline only a hang can miss, and the whole run one budget, so a hung step
// ends as a failure that names it, and the run always reaches its closing line.
import { spawn } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const npx = (bin, ...args) => [process.execPath, [`node_modules/${bin}`, ...args]];
const mocha = (tier) =>
  npx(
    'mocha/bin/mocha.js',
    '--config',
    `test/${tier}/.mocharc.json`,
    `out/test/${tier}/**/*.test.js`,
  );
const MINUTE = 60_000;
/** The whole run's budget; CI adds set-up on top and must end within 90 minutes. */
const RUN_BUDGET_MS = Number(process.env.MGP_TEST_BUDGET_MS) || 75 * MINUTE;
/** Steps at once: two cores here. More would make the suites fight for them. */
const JOBS = Math.max(1, Number(process.env.MGP_TEST_JOBS) || 2);
/** The checks read the whole tree, where the lint rules' tests put files for a moment. */
const CHECKS = ['typecheck', 'lint', 'format'];

// In the order they start when they can: `needs` must have passed first, `after` only ended.
const steps = [
  {
    name: 'typecheck',
    deadlineMinutes: 10,
    kind: 'check',
    command: npx('typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.json'),
  },
  {
    name: 'lint',
    deadlineMinutes: 10,
    kind: 'check',
    // ESLint (with the arrows between rooms), then import cycles between folders.
    commands: [npx('eslint/bin/eslint.js', '.'), [process.execPath, ['scripts/lint/cycles.mjs']]],
  },
  {
    name: 'format',
    deadlineMinutes: 5,
    kind: 'check',
    command: npx('prettier/bin/prettier.cjs', '--check', '--log-level', 'warn', '.'),
  },
  {
    // The production bundles in dist/ (which the suites below run) and the .vsix (real VS Code).
    name: 'package',
    deadlineMinutes: 10,
    kind: 'check',
    command: [process.execPath, ['scripts/package.mjs']],
  },
  {
    name: 'transpile tests',
    deadlineMinutes: 5,
    kind: 'check',
    command: [process.execPath, ['esbuild.mjs', '--tests']],
  },
  {
    name: 'real VS Code',
    // 13 to 25 minutes alone; over 35 with two other full runs and a CPU burner beside it.
    deadlineMinutes: 50,
    kind: 'harness',
    needs: ['package', 'transpile tests'],
    command: [process.execPath, ['test/vscode/harness/run.mjs', '--no-package', '--no-transpile']],
  },
  {
    name: 'unit',
    deadlineMinutes: 10,
    kind: 'mocha',
    needs: ['transpile tests'],
    after: CHECKS,
    command: mocha('unit'),
  },
  {
    name: 'unit (slow)',
    deadlineMinutes: 20,
    kind: 'mocha',
    needs: ['transpile tests'],
    command: mocha('slow'),
  },
  {
    name: 'interop',
    // 7 to 9 minutes alone; 18 to over 25 with two other full runs and a CPU burner beside it.
    deadlineMinutes: 40,
    kind: 'mocha',
    needs: ['transpile tests', 'package'],
    after: CHECKS,
    command: mocha('interop'),
  },
  {
    name: 'conformance',
    deadlineMinutes: 15,
    kind: 'conformance',
    needs: ['package'],
    command: [process.execPath, ['test/conformance/run.mjs']],
  },
  {
    name: 'conformance (server)',
    deadlineMinutes: 8,
    kind: 'conformance',
    needs: ['package'],
    command: [process.execPath, ['test/conformance/run-server.mjs']],
  },
];

/** How long a command may live on after printing that it has finished (mocha's summary). */
const LINGER_MS = 60_000;

/**
 * Runs one command, its output kept; at `deadline` (epoch ms) its whole process group is killed, and
 * so it is when it printed `finished` yet has not exited `LINGER_MS` later (a handle left open).
 */
function run([command, args], deadline, finished) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    let lingering;
    const stop = (why) => {
      output += `\n✘ ${[command, ...args].join(' ')}: ${why}, killed\n`;
      killGroup(child.pid, 'SIGTERM');
      setTimeout(() => killGroup(child.pid, 'SIGKILL'), 10_000).unref();
    };
    const timer = setTimeout(
      () => stop('still running at its deadline'),
      Math.max(0, deadline - Date.now()),
    );
    const keep = (chunk) => {
      output += chunk;
      if (finished && !lingering && finished.test(plain(output.slice(-chunk.length - 200))))
        lingering = setTimeout(
          () =>
            stop(`finished, yet still running ${LINGER_MS / 1000} s later (a handle left open)`),
          LINGER_MS,
        );
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('close', (code) => {
      clearTimeout(timer);
      clearTimeout(lingering);
      resolve({ code: code ?? 1, output });
    });
  });
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Runs commands one after another, stopping at the first that fails. */
async function runAll(commands, deadline, finished) {
  let output = '';
  for (const command of commands) {
    const result = await run(command, deadline, finished);
    output += result.output;
    if (result.code !== 0) return { code: result.code, output };
  }
  return { code: 0, output };
}

const plain = (text) => text.replace(/\x1b\[[0-9;]*m/g, '');

function counts(step, { code, output }) {
  const text = plain(output);
  if (step.kind === 'mocha') {
    const passed = Number(text.match(/(\d+) passing/)?.[1] ?? 0);
    const failed = Number(text.match(/(\d+) failing/)?.[1] ?? 0);
    return { passed, failed: failed || (code !== 0 ? 1 : 0) };
  }
  const line = {
    conformance: /conformance \((?:client|server)\): (\d+) passed, (\d+) failed/,
    harness: /real VS Code: (\d+) passed, (\d+) failed/,
  }[step.kind];
  if (!line) return code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };
  const found = text.match(line);
  if (!found) return { passed: 0, failed: 1 };
  return { passed: Number(found[1]), failed: Number(found[2]) || (code !== 0 ? 1 : 0) };
}

const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** Runs one step and prints its output whole, under its name. */
async function runStep(step) {
  console.log(`▶ ${step.name}`);
  const stepStarted = Date.now();
  const deadline = Math.min(stepStarted + step.deadlineMinutes * MINUTE, started + RUN_BUDGET_MS);
  const finished = step.kind === 'mocha' ? /^\s+\d+ passing \(/m : undefined;
  const outcome = await runAll(step.commands ?? [step.command], deadline, finished);
  const result = { ...counts(step, outcome), time: seconds(stepStarted) };
  const mark = result.failed ? '✘' : '✔';
  console.log(
    `\n━━ ${step.name} ━━\n${outcome.output.trimEnd()}\n${mark} ${step.name} (${result.time})\n`,
  );
  return result;
}

/** Runs every step, `JOBS` at once, each once what it waits for has ended. */
async function runSteps() {
  const results = new Map();
  const running = new Map();
  const waiting = [...steps];
  const cannotRun = (step) => (step.needs ?? []).find((name) => results.get(name)?.failed);
  const ready = (step) =>
    [...(step.needs ?? []), ...(step.after ?? [])].every((name) => results.has(name));
  while (waiting.length || running.size) {
    for (const step of waiting.filter(ready)) {
      const missing = cannotRun(step);
      if (!missing && running.size >= JOBS) break;
      waiting.splice(waiting.indexOf(step), 1);
      if (missing) {
        console.log(`✘ ${step.name}: not run, as ${missing} failed`);
        results.set(step.name, { passed: 0, failed: 1, time: 'not run' });
        continue;
      }
      const done = runStep(step).then((result) => {
        results.set(step.name, result);
        running.delete(step.name);
      });
      running.set(step.name, done);
    }
    if (running.size) await Promise.race(running.values());
    else if (waiting.length && !waiting.some(ready))
      throw new Error(`nothing can start: ${waiting.map((s) => s.name).join(', ')} wait forever`);
  }
  return results;
}

const results = await runSteps();
let passed = 0;
let failed = 0;
const summary = steps.map((step) => {
  const result = results.get(step.name);
  passed += result.passed;
  failed += result.failed;
  return `${result.failed ? '✘' : '✔'} ${step.name.padEnd(20)} ${result.passed} passed, ${result.failed} failed  (${result.time})`;
});
console.log(`━━ summary (${seconds(started)}, ${JOBS} at once) ━━\n${summary.join('\n')}\n`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
