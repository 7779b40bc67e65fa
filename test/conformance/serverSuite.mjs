// The conformance suite's server scenarios against one URL, each scenario with its own deadline.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { follow } from './processes.mjs';
import { node24 } from './suites.mjs';

const STARTED = /^Running client scenario '(.+)' against server:/;
const SAVED = /^Results saved to (.+)$/;
// The suite's words when a scenario throws instead of giving checks (it saves none then).
const THREW = /^Failed to run scenario (\S+): (.*)$/;

function savedChecks(dir) {
  const file = join(dir, 'checks.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

/**
 * Runs `scenarios` of the conformance suite at `entry` (suites.mjs) against `url`: all in one suite
 * process while they go well (`together`), one process each otherwise. A scenario that does not end
 * within `scenarioMs` is killed with its process and reported `{ timedOut: true }`; the scenarios
 * after it run one process each. Each scenario is reported as it ends, through
 * `report(scenario, outcome)`: its checks, `{ threw }` (the suite's error instead of checks),
 * `{ timedOut }`, `{ notRun }` (the `deadline`, a Date.now() value, came first) or `undefined` (the
 * suite saved no results).
 */
export async function runServerSuite({
  entry,
  url,
  outDir,
  scenarios,
  together,
  scenarioMs,
  deadline,
  report,
}) {
  const remaining = new Set(scenarios);
  const finish = (scenario, outcome) => {
    if (scenario !== undefined && remaining.delete(scenario)) report(scenario, outcome);
  };
  let batch = together && scenarios.length > 1;
  while (remaining.size > 0 && Date.now() < deadline) {
    const args = [entry, 'server', '--url', url, '-o', outDir];
    args.push(...(batch ? ['--suite', 'all'] : ['--scenario', remaining.values().next().value]));
    batch = false;
    await runProcess(args, { scenarioMs, deadline, finish });
  }
  for (const scenario of remaining) report(scenario, { notRun: true });
}

async function runProcess(args, { scenarioMs, deadline, finish }) {
  let current;
  let timer;
  const { exited, kill } = follow(node24, args, (line) => {
    const started = STARTED.exec(line);
    const saved = SAVED.exec(line);
    const threw = THREW.exec(line);
    if (started) {
      finish(current, undefined);
      current = started[1];
      arm();
    } else if (saved && current !== undefined) {
      finish(current, savedChecks(saved[1]));
    } else if (threw) {
      finish(threw[1], { threw: threw[2] });
    }
  });
  // The first scenario's clock starts with the process: a suite that hangs before it is killed too.
  function arm() {
    clearTimeout(timer);
    const ms = Math.max(0, Math.min(scenarioMs, deadline - Date.now()));
    timer = setTimeout(() => {
      finish(current, { timedOut: true });
      kill();
    }, ms);
  }
  arm();
  await exited;
  clearTimeout(timer);
  finish(current, undefined);
}
