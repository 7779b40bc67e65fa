/**
 * Server push events (MGP §13.3, §13.5), sent only when `bidirectional` was negotiated. There is no
 * subscription_id: subscriptions are the kernel's (MGP §13.2), which routes events to its subscribers.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Session } from './session';
import { nowIso } from './util';
import { Notifications } from './wire';

export const SEVERITIES = ['info', 'warning', 'error'] as const;
export type Severity = (typeof SEVERITIES)[number];

export class Events {
  private heartbeat?: NodeJS.Timeout;
  private beats = 0;

  constructor(
    private readonly server: Server,
    private readonly session: Session,
  ) {}

  get enabled(): boolean {
    return this.session.has('bidirectional');
  }

  /** Emits one event; false when the client did not negotiate `bidirectional` or it could not be sent. */
  async emit(channel: string, severity: Severity, data: Record<string, unknown>): Promise<boolean> {
    if (!this.enabled) return false;
    try {
      await this.server.notification({
        method: Notifications.event,
        params: { channel, timestamp: nowIso(), severity, data },
      });
      return true;
    } catch (error) {
      console.error(`mgp-example-server: event ${channel} not sent:`, error);
      return false;
    }
  }

  /**
   * `system.heartbeat` every `ms` (--heartbeat-ms) once the handshake has enabled events. The timer
   * runs from the start and checks at each tick, so it does not depend on when `initialized` arrives
   * (the SDK may handle it before the initialize request it follows); it never keeps the process alive.
   */
  startHeartbeat(ms: number): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      if (!this.enabled) return;
      this.beats += 1;
      const data = {
        beat: this.beats,
        uptime_ms: Date.now() - this.session.startedAt,
        state: this.session.lifecycleState,
      };
      void this.emit('system.heartbeat', 'info', data);
    }, ms).unref();
  }

  stop(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}
