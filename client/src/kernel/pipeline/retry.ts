/**
 * MGP §14.6 client retry behaviour around one forward: wait at least `retry_after_ms`, apply the
 * strategy, stop after `max_retries`, then hand over to `fallback_tool`; audit each retry; never retry
 * an error that is not retryable. The server's numbers are bounded by the kernel's (mgpErrors.ts), and
 * each retry is a new execution: `approve` may refuse it (a call that is not safe is asked about again).
 */
import { maxRetriesOf, RecoveryInfo, retryDelayMs, wireErrorOf } from '../mgp/mgpErrors';

export interface RetryHooks {
  /** Called before each retry, once its delay has passed (for the audit trail). */
  retrying(
    attempt: number,
    delayMs: number,
    error: { code: number; message: string },
  ): Promise<void> | void;
  /** Asked before each retry, once its delay has passed: false stops, and the last error stands. */
  approve?(attempt: number): Promise<boolean>;
  signal?: AbortSignal;
}

export class RetriesExhausted extends Error {
  constructor(
    readonly last: unknown,
    readonly attempts: number,
    readonly fallbackTool: string | undefined,
  ) {
    super(last instanceof Error ? last.message : String(last));
    this.name = 'RetriesExhausted';
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason ?? new Error('cancelled'));
      },
      { once: true },
    );
  });
}

/**
 * The retries after a first attempt (the caller's own) that failed with `firstError`. A non-retryable
 * error is rethrown as is; a retryable one is retried per its recovery data and, when retries run
 * out, wrapped in RetriesExhausted (which names the fallback tool, if the server gave one).
 */
export async function retryAfterFirst<T>(
  attempt: () => Promise<T>,
  hooks: RetryHooks,
  firstError: unknown,
): Promise<{ value: T; attempts: number }> {
  let attempts = 1;
  let failure: unknown = firstError;
  for (;;) {
    const wire = wireErrorOf(failure);
    const recovery: RecoveryInfo | undefined = wire?.recovery;
    // §14.6: not retryable → never retried, and reported (the fallback is for exhausted retries).
    if (!wire || !recovery?.retryable) throw failure;
    if (attempts > maxRetriesOf(recovery))
      throw new RetriesExhausted(failure, attempts, recovery.fallback_tool);
    const delay = retryDelayMs(recovery, attempts);
    await sleep(delay, hooks.signal);
    if (hooks.approve && !(await hooks.approve(attempts))) throw failure;
    await hooks.retrying(attempts, delay, { code: wire.code, message: wire.message });
    attempts++;
    try {
      return { value: await attempt(), attempts };
    } catch (error) {
      failure = error;
    }
  }
}
