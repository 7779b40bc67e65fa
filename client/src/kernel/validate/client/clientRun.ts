/**
 * Runs the client under test for one scenario, as the MCP conformance suite does: its command with
 * no shell, the probe's URL as the last argument, the scenario's name (and what it asks, as JSON) in
 * the environment. It runs in a process group of its own so that, when it does not exit in time,
 * the whole group is killed, children and all.
 */
import { spawn } from 'node:child_process';
import { splitCommandLine } from '../../config/newServer';
import type { ClientRun } from './scenario';

const STDERR_KEPT = 2000;

/** The client's command line split into words as a POSIX shell would (quotes, `\`), no expansion. */
export function clientArgv(command: string): string[] {
  const words = splitCommandLine(command);
  if (words === undefined) throw new Error(`--command ${command}: a quote is not closed`);
  if (!words.length) throw new Error('--command is empty');
  return words;
}

export interface ClientRunOptions {
  argv: string[];
  url: string;
  scenario: string;
  context: Record<string, unknown>;
  timeoutMs: number;
  cwd?: string;
  env?: Readonly<Record<string, string | undefined>>;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group has already gone.
  }
}

export function runClient(options: ClientRunOptions): Promise<ClientRun> {
  const [program, ...args] = options.argv;
  const context = JSON.stringify(options.context);
  return new Promise((resolve) => {
    let stderr = '';
    let timedOut = false;
    const child = spawn(program, [...args, options.url], {
      cwd: options.cwd,
      env: {
        ...(options.env ?? process.env),
        MGP_VALIDATE_SCENARIO: options.scenario,
        MCP_CONFORMANCE_SCENARIO: options.scenario,
        MGP_VALIDATE_CONTEXT: context,
        MCP_CONFORMANCE_CONTEXT: context,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEPT);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, options.timeoutMs);
    const done = (run: Omit<ClientRun, 'stderrTail' | 'timeoutMs' | 'timedOut'>) => {
      clearTimeout(timer);
      resolve({ ...run, timedOut, stderrTail: stderr.trim(), timeoutMs: options.timeoutMs });
    };
    child.once('error', (error) =>
      done({ exitCode: null, signal: null, spawnError: error.message }),
    );
    // Whatever it left running in its group goes with it (and so lets go of its stderr).
    child.once('exit', () => killGroup(child.pid));
    child.once('close', (exitCode, signal) => done({ exitCode, signal }));
  });
}
