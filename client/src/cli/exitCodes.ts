/**
 * What `mgp call` and `mgp agent` exit with, so a script tells the outcomes apart without reading
 * the output: done, an error, bad usage, refused by the kernel, stopped by a limit, cancelled.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type AgentRunRecord, KernelError } from '../kernel';

export const EXIT = {
  done: 0,
  /** The tool answered with an error, the server or the model failed. */
  error: 1,
  usage: 2,
  /** A check of the kernel refused a call (access, approval, validators, a tool turned off…). */
  refused: 3,
  /** A limit stopped it: a timeout, the agent's step limit or loop guard. */
  limit: 4,
  /** Ctrl+C, as shells report a process ended by SIGINT. */
  cancelled: 130,
} as const;

export const EXIT_CODES_HELP = `Exit status of call and agent: 0 done, 1 error (the tool's error result, a
failure of the server or the model), 2 bad usage, 3 refused by the kernel's checks, 4 stopped by a
limit (timeout, --max-steps, --loop-guard), 130 cancelled with Ctrl-C.`;

export function exitCodeOfError(error: unknown): number {
  if (!(error instanceof KernelError)) return EXIT.error;
  if (error.check) return EXIT.refused;
  if (error.code === 'Timeout' || error.code === 'LimitExceeded') return EXIT.limit;
  if (error.code === 'Cancelled') return EXIT.cancelled;
  return EXIT.error;
}

/** A result the kernel answered itself for a blocked call (MGP §7.4 code safety) counts as refused. */
export function exitCodeOfResult(result: CallToolResult): number {
  if (!result.isError) return EXIT.done;
  const mgp = (result as { _mgp?: { blocked_by?: string } })._mgp;
  return mgp?.blocked_by ? EXIT.refused : EXIT.error;
}

/** An answer after a refused call still exits 3: the task may not be done as asked. */
export function exitCodeOfRun(record: AgentRunRecord): number {
  switch (record.stop.reason) {
    case 'answered': {
      const calls = record.steps.flatMap((step) => step.tool_calls);
      return calls.some((call) => call.decision === 'refused') ? EXIT.refused : EXIT.done;
    }
    case 'max_steps':
    case 'loop_guard':
      return EXIT.limit;
    case 'cancelled':
      return EXIT.cancelled;
    case 'model_error':
      return EXIT.error;
  }
}
