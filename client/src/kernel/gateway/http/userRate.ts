/**
 * A team gateway's limit on each person's requests: at most `perMinute` in any minute, counted in
 * a window that slides by the second. Past it a request is refused (429) with the seconds to wait.
 */
export class UserRate {
  private readonly seen = new Map<string, number[]>();

  constructor(
    private readonly perMinute: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** 0 when `user` may make a request now (it is counted); otherwise the seconds to wait. */
  take(user: string): number {
    const now = this.clock();
    const recent = (this.seen.get(user) ?? []).filter((at) => now - at < 60_000);
    if (recent.length >= this.perMinute) {
      this.seen.set(user, recent);
      return Math.max(1, Math.ceil((recent[0] + 60_000 - now) / 1000));
    }
    recent.push(now);
    this.seen.set(user, recent);
    return 0;
  }
}
