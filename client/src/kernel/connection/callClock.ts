/**
 * The request timeout of the tool calls in flight to one server.
 *
 * A server that asks the client something while a tool call runs (a sampling request the person
 * reviews, an elicitation form, an MCPL inference) is waiting on the kernel, not working. The
 * time the kernel takes to answer is not the server's, so each call's timer stops while any of the
 * server's requests is being answered, and starts again from the full timeout once the last one is.
 * Progress starts it again too. When a timer runs out, the call is cancelled (MCP 2025-11-25 §4.4:
 * "when a timeout fires, send a cancellation notification and stop waiting").
 */
export class CallClock {
  private answering = 0;
  private readonly running = new Set<CallTimer>();

  /** A timer for one call: calls `expire` after `timeoutMs` of the server's own time. */
  start(timeoutMs: number, expire: () => void): CallTimer {
    const timer = new CallTimer(timeoutMs, expire, () => this.running.delete(timer));
    this.running.add(timer);
    if (this.answering === 0) timer.restart();
    return timer;
  }

  /** Runs the kernel's answer to one of the server's requests with every call's timer stopped. */
  async whileAnswering<T>(answer: () => Promise<T>): Promise<T> {
    if (this.answering++ === 0) for (const timer of this.running) timer.pause();
    try {
      return await answer();
    } finally {
      if (--this.answering === 0) for (const timer of this.running) timer.restart();
    }
  }

  /** Progress from the server: the call's timer starts again, unless the kernel is answering. */
  progressed(timer: CallTimer): void {
    if (this.answering === 0) timer.restart();
  }
}

export class CallTimer {
  private handle: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    readonly timeoutMs: number,
    private readonly expire: () => void,
    private readonly forget: () => void,
  ) {}

  restart(): void {
    if (this.stopped) return;
    this.pause();
    this.handle = setTimeout(() => {
      this.stop();
      this.expire();
    }, this.timeoutMs);
  }

  pause(): void {
    if (this.handle !== undefined) clearTimeout(this.handle);
    this.handle = undefined;
  }

  /** The call ended: the timer never fires again. */
  stop(): void {
    this.stopped = true;
    this.pause();
    this.forget();
  }
}
