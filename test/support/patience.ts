/**
 * How long a test waits. A test waits for the event it needs; a deadline is there only to end a
 * hang, never to judge speed. So there is one deadline for every wait, long enough for a loaded
 * machine (`MGP_TEST_HANG_MS` overrides it), and work that streams (floods, large transfers) is
 * judged by whether it still moves, not by how long it takes. Mocha's own per-test timeout
 * (`.mocharc.json`, 300 s) is only the outer guard for a test that forgot to wait this way.
 */
export const HANG_MS = Number(process.env.MGP_TEST_HANG_MS) || 180_000;

const POLL_MS = 20;

const tick = () => new Promise((resolve) => setTimeout(resolve, POLL_MS));

/** Resolves once `condition` holds (polled); rejects only after `HANG_MS` without it. */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  what = 'the condition',
): Promise<void> {
  const until = Date.now() + HANG_MS;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`${what} did not hold within ${HANG_MS} ms (a hang)`);
    await tick();
  }
}

/** Like `eventually`, for a probe that returns the awaited value once there. */
export async function eventuallyValue<T>(
  probe: () => T | undefined | false | null,
  what: string,
): Promise<T> {
  let value: T | undefined | false | null;
  await eventually(() => Boolean((value = probe())), what);
  return value as T;
}

/** The promise's outcome; rejects only when it has not settled after `HANG_MS`. */
export function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: still pending after ${HANG_MS} ms (a hang)`)),
      HANG_MS,
    );
  });
  return Promise.race([promise, hang]).finally(() => clearTimeout(timer));
}

/**
 * Resolves once `done` holds. Rejects only when `progress` (a count that grows while the work goes
 * on: messages received, bytes read) has not changed for `HANG_MS`: a slow machine passes, a stall
 * fails.
 */
export async function whileProgressing(
  done: () => boolean,
  progress: () => number,
  what: string,
): Promise<void> {
  let last = progress();
  let movedAt = Date.now();
  while (!done()) {
    const now = progress();
    if (now !== last) {
      last = now;
      movedAt = Date.now();
    } else if (Date.now() - movedAt > HANG_MS) {
      throw new Error(`${what}: stalled at ${now} for ${HANG_MS} ms`);
    }
    await tick();
  }
}
