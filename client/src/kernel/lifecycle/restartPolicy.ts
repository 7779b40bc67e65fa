/** MGP §11.6 restart policies: when to restart, how long to wait, and when to give up. */
import type { RestartSettings } from '../config/types';

export type RestartDecision =
  | { restart: true; delayMs: number; attempt: number }
  | { restart: false; reason: 'policy' | 'restart_limit_exceeded' };

/** Counts restarts within the sliding window and spaces them with exponential backoff. */
export class RestartTracker {
  private restarts: number[] = [];

  constructor(private readonly settings: RestartSettings) {}

  /** `failed`: the server exited with an error (or the connection failed), not by a clean exit. */
  decide(failed: boolean, now: number = Date.now()): RestartDecision {
    const { policy, maxRestarts, windowMs, backoffBaseMs, backoffMaxMs } = this.settings;
    if (policy === 'never' || (policy === 'on_failure' && !failed))
      return { restart: false, reason: 'policy' };
    this.restarts = this.restarts.filter((at) => now - at < windowMs);
    if (this.restarts.length >= maxRestarts)
      return { restart: false, reason: 'restart_limit_exceeded' };
    this.restarts.push(now);
    const attempt = this.restarts.length;
    const delayMs = Math.min(backoffMaxMs, backoffBaseMs * 2 ** (attempt - 1));
    return { restart: true, delayMs, attempt };
  }

  /** After a manual start, the count starts again. */
  reset(): void {
    this.restarts = [];
  }
}
