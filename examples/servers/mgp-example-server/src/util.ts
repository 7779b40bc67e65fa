/** Small helpers the tools share. */
import type { TextBlock } from './inflight';

export function textBlock(text: string): TextBlock {
  return { type: 'text', text };
}

export function nowIso(): string {
  return new Date().toISOString();
}

/** Waits `ms`, or less if `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Resolves on a later turn of the event loop, after every pending promise callback has run. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
