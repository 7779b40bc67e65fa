import type { AuditEventInput } from './auditEvent';

/**
 * Where kernel services send MGP §6 audit events. The audit trail behind it makes each one durable,
 * forwards it to servers that negotiated `audit` and publishes it to the views; an event counts as
 * recorded once `record` resolves.
 */
export interface AuditSink {
  record(event: AuditEventInput): Promise<void>;
  /**
   * Makes and records the event later, off the caller's time (the audit trail makes it with the log's
   * next batch); `flush` waits for it. `makeEvent` must stamp the event with the time it happened, not the time it is called.
   */
  recordLater?(makeEvent: () => AuditEventInput): void;
}

/** Keeps events in memory: for a kernel that has no place to write (and for tests that read them back). */
export class MemoryAuditSink implements AuditSink {
  readonly events: AuditEventInput[] = [];

  async record(event: AuditEventInput): Promise<void> {
    this.events.push(event);
  }

  ofType(type: string): AuditEventInput[] {
    return this.events.filter((event) => event.event_type === type);
  }
}
