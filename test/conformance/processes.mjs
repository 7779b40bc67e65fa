// Child processes for the conformance runs, each with a deadline: a hang ends as a clear failure
// (the process killed), never as a step that waits forever.
import { spawn } from 'node:child_process';

const root = new URL('../..', import.meta.url).pathname;

/** Kills the child and whatever it started (it leads its own process group). */
function killGroup(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** Runs a command to its end, or until `deadlineMs`: then it is killed and `timedOut` is true. */
export function run(command, args, { deadlineMs, ...options }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      ...options,
    });
    let output = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, deadlineMs);
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, output, timedOut });
    });
  });
}

/**
 * Starts a long-running process; `match` resolves once its output matches `ready`, and rejects if it
 * exits first or `deadlineMs` passes. `stop` asks it to end (SIGTERM) and kills it if it does not
 * within a few seconds.
 */
export function start(command, args, ready, { deadlineMs, ...options }) {
  const child = spawn(command, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    ...options,
  });
  let output = '';
  const match = new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(child);
      reject(new Error(`${args.join(' ')} was not ready within ${deadlineMs} ms: ${output}`));
    }, deadlineMs);
    const look = (chunk) => {
      output += chunk;
      const found = ready.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited (${code}): ${output}`));
    });
  });
  match.catch(() => undefined);
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => killGroup(child), 5000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  return { match, stop, kill: () => killGroup(child), output: () => output };
}

/**
 * Runs a command and follows its output: `onLine(line)` sees each line of its stdout and its stderr
 * as it comes (each stream in order; the two interleaved as they arrive).
 * Returns `exited` (its exit code, when it ends) and `kill`.
 */
export function follow(command, args, onLine, options = {}) {
  const child = spawn(command, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    ...options,
  });
  const lines = (stream) => {
    let partial = '';
    stream.on('data', (chunk) => {
      const complete = (partial + chunk).split('\n');
      partial = complete.pop();
      for (const line of complete) onLine(line);
    });
    return () => partial && onLine(partial);
  };
  const rest = [lines(child.stdout), lines(child.stderr)];
  const exited = new Promise((resolve) =>
    child.on('close', (code) => {
      for (const flush of rest) flush();
      resolve(code ?? 1);
    }),
  );
  return { exited, kill: () => killGroup(child) };
}
