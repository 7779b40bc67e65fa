import { spawn } from 'node:child_process';

/** What a finished child process said, and its exit code. */
export interface Ran {
  code: number | null;
  out: string;
  err: string;
}

/**
 * Runs a command to its end with `input` on its stdin, collecting its output. A child that has not
 * ended after `killAfterMs` is killed (a hang is then a failed assertion, not a stuck suite).
 */
export function runProcess(
  command: string,
  args: string[],
  env: Record<string, string | undefined>,
  input = '',
  killAfterMs = 45_000,
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
    child.stdin.end(input);
  });
}
