/**
 * run_command: really runs a program, without a shell (no pipes, globs or `;`), in a fresh temporary
 * folder that is removed afterwards, for at most 5 s, with its output capped.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool, security, textResult, toolError } from '../tooling';

const TIMEOUT_MS = 5000;
const MAX_OUTPUT_BYTES = 64 * 1024;

interface RunOutcome {
  exit_code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timed_out: boolean;
  truncated: boolean;
  /** Set when the program could not be started at all (not found, not executable…). */
  failed_to_start?: string;
}

/** Splits on whitespace; quotes are not special (there is no shell to honour them). */
export function splitArgv(command: string): string[] {
  return command.trim().split(/\s+/).filter(Boolean);
}

function runProgram(argv: string[], cwd: string, signal: AbortSignal): Promise<RunOutcome> {
  return new Promise((resolve) => {
    const options = {
      cwd,
      timeout: TIMEOUT_MS,
      maxBuffer: MAX_OUTPUT_BYTES,
      shell: false,
      windowsHide: true,
      signal,
      env: { PATH: process.env.PATH ?? '' },
    };
    execFile(argv[0], argv.slice(1), options, (error, stdout, stderr) => {
      const failure = error as
        | (NodeJS.ErrnoException & { killed?: boolean; signal?: string; code?: number | string })
        | null;
      const truncated = failure?.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER';
      resolve({
        exit_code: typeof failure?.code === 'number' ? failure.code : failure ? null : 0,
        signal: failure?.signal ?? null,
        stdout: String(stdout),
        stderr: String(stderr),
        timed_out: failure?.killed === true && !truncated && !signal.aborted,
        truncated,
        ...(typeof failure?.code === 'string' &&
          !truncated &&
          failure.code !== 'ABORT_ERR' && { failed_to_start: failure.message }),
      });
    });
  });
}

function summary(outcome: RunOutcome): string {
  if (outcome.failed_to_start) return `Could not start the command: ${outcome.failed_to_start}`;
  const status = outcome.timed_out
    ? `timed out after ${TIMEOUT_MS} ms`
    : outcome.exit_code === null
      ? `killed by ${outcome.signal}`
      : `exit code ${outcome.exit_code}`;
  const parts = [
    `${status}${outcome.truncated ? ', output capped' : ''}`,
    outcome.stdout,
    outcome.stderr && `stderr:\n${outcome.stderr}`,
  ];
  return parts.filter(Boolean).join('\n');
}

export const runCommand = defineTool({
  name: 'run_command',
  title: 'Run a command',
  description:
    'Runs a program with arguments (split on spaces, no shell: no pipes, redirects or globs) in a fresh empty temporary folder, ' +
    `for at most ${TIMEOUT_MS / 1000} s, and returns its exit code and output (capped at ${MAX_OUTPUT_BYTES / 1024} KiB).`,
  input: z.object({ command: z.string().min(1).describe('Program and arguments, e.g. "ls -la"') }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  security: security('dangerous', {
    permissions_required: ['shell.execute', 'filesystem.write'],
    side_effects: ['process', 'filesystem'],
    validator: 'sandbox',
    reversible: false,
    confirmation_required: true,
  }),
  run: async ({ command }, ctx) => {
    const argv = splitArgv(command);
    if (argv.length === 0) return toolError('Empty command');
    const cwd = await mkdtemp(join(tmpdir(), 'mgp-run-'));
    try {
      const outcome = await runProgram(argv, cwd, ctx.signal);
      const failed =
        outcome.failed_to_start !== undefined || outcome.timed_out || outcome.exit_code !== 0;
      return { ...textResult(summary(outcome), { ...outcome }), ...(failed && { isError: true }) };
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  },
});
