import * as vscode from 'vscode';
import { HANG_MS } from '../../support/patience';

/** Resolves with the first event value that satisfies `accept`, or rejects after `timeoutMs`. */
export function waitForEvent<T>(
  event: vscode.Event<T>,
  accept: (value: T) => boolean,
  what: string,
  timeoutMs = HANG_MS,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    const subscription = event((value) => {
      if (!accept(value)) return;
      clearTimeout(timer);
      subscription.dispose();
      resolve(value);
    });
  });
}

/** Resolves once `condition` holds (polled), or rejects after `timeoutMs`. */
export async function waitUntil(
  condition: () => boolean,
  what: string,
  timeoutMs = HANG_MS,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
