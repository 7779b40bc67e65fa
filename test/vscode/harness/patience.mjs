// How long the real-VS-Code suites wait: for the event they need, up to one deadline that only a hang
// can miss (as test/support/patience.ts for the node suites; MGP_TEST_HANG_MS overrides both).
export const HANG_MS = Number(process.env.MGP_TEST_HANG_MS) || 180_000;

/**
 * Whether `locator` shows within `ms`: a retry interval inside a loop that has its own deadline,
 * not a verdict.
 */
export function shownWithin(locator, ms) {
  return locator.waitFor({ timeout: ms }).then(
    () => true,
    () => false,
  );
}

/** Waits until `condition` (sync or async) holds, checking every 100 ms, up to the hang deadline. */
export async function waitFor(condition, what, timeoutMs = HANG_MS) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
