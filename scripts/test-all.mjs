// `npm test`: every suite, in order: typecheck, lint, package (with its size limit), unit, interop,
// the MCP conformance suite's client scenarios, its server scenarios through `mgp serve`, real VS Code.
// Prints each suite's output, then one closing line `N passed, N failed`.
// Every step has a deadline only a hang can miss, and the whole run one budget, so a hung step
// ends as a failure that names it, and the run always reaches its closing line.
import { spawn } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const npx = (bin, ...args) => [process.execPath, [`node_modules/${bin}`, ...args]];
const MINUTE = 60_000;
/** The whole run's budget; CI adds set-up on top and must end within 90 minutes. */
const RUN_BUDGET_MS = Number(process.env.MGP_TEST_BUDGET_MS) || 75 * MINUTE;

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
    name: 'unit',
    deadlineMinutes: 20,
    kind: 'mocha',
    command: npx('mocha/bin/mocha.js', '--config', 'test/unit/.mocharc.json'),
  },
  {
    name: 'interop',
    // 7 to 9 minutes alone; 18 to over 25 with two other full runs and a CPU burner beside it.
    deadlineMinutes: 40,
    kind: 'mocha',
    command: npx('mocha/bin/mocha.js', '--config', 'test/interop/.mocharc.json'),
  },
  {
    name: 'conformance',
    deadlineMinutes: 15,
    kind: 'conformance',
    command: [process.execPath, ['test/conformance/run.mjs']],
  },
  {
    name: 'conformance (server)',
    deadlineMinutes: 8,
    kind: 'conformance',
    command: [process.execPath, ['test/conformance/run-server.mjs']],
  },
  {
    name: 'real VS Code',
    // 13 to 25 minutes alone; over 35 with two other full runs and a CPU burner beside it.
    deadlineMinutes: 50,
    kind: 'harness',
    command: [process.execPath, ['test/vscode/harness/run.mjs', '--no-package']],
  },
];

/** How long a command may live on after printing that it has finished (mocha's summary). */
const LINGER_MS = 60_000;

/**
 * Runs one command; at `deadline` (epoch ms) its whole process group is killed, and so it is when
 * it printed `finished` yet has not exited `LINGER_MS` later (a handle left open keeps it alive).
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
      const note = `\n✘ ${[command, ...args].join(' ')}: ${why}, killed\n`;
      output += note;
      process.stdout.write(note);
      killGroup(child.pid, 'SIGTERM');
      setTimeout(() => killGroup(child.pid, 'SIGKILL'), 10_000).unref();
    };
    const timer = setTimeout(
      () => stop('still running at its deadline'),
      Math.max(0, deadline - Date.now()),
    );
    const tee = (stream, sink) =>
      stream.on('data', (chunk) => {
        output += chunk;
        sink.write(chunk);
        if (finished && !lingering && finished.test(plain(output.slice(-chunk.length - 200))))
          lingering = setTimeout(
            () =>
              stop(`finished, yet still running ${LINGER_MS / 1000} s later (a handle left open)`),
            LINGER_MS,
          );
      });
    tee(child.stdout, process.stdout);
    tee(child.stderr, process.stderr);
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
  if (step.kind === 'conformance') {
    const line = text.match(/conformance \((?:client|server)\): (\d+) passed, (\d+) failed/);
    if (!line) return { passed: 0, failed: 1 };
    return { passed: Number(line[1]), failed: Number(line[2]) || (code !== 0 ? 1 : 0) };
  }
  if (step.kind === 'harness') {
    const line = text.match(/real VS Code: (\d+) passed, (\d+) failed/);
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
  const deadline = Math.min(stepStarted + step.deadlineMinutes * MINUTE, started + RUN_BUDGET_MS);
  const finished = step.kind === 'mocha' ? /^\s+\d+ passing \(/m : undefined;
  const result = counts(step, await runAll(step.commands ?? [step.command], deadline, finished));
  totals.passed += result.passed;
  totals.failed += result.failed;
  summary.push(
    `${result.failed ? '✘' : '✔'} ${step.name.padEnd(20)} ${result.passed} passed, ${result.failed} failed  (${((Date.now() - stepStarted) / 1000).toFixed(1)} s)`,
  );
}
console.log(
  `\n━━ summary (${((Date.now() - started) / 1000).toFixed(0)} s) ━━\n${summary.join('\n')}\n`,
);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exitCode = totals.failed > 0 ? 1 : 0;
