/**
 * The kernel's audit trail (MGP §6): every event goes into the durable, hash-chained local log (after
 * redaction of secrets), and once on disk it is forwarded as `notifications/mgp.audit` to the servers
 * that negotiated `audit` (§6.3 "Audit Event Delivery") and published to the views. Events servers send
 * the kernel (§6.5: they propagate trace ids in their own audit notifications) are recorded too.
 */
import { EventEmitter } from 'node:events';
import type { AuditEvent, AuditEventInput, AuditRecord } from './audit/auditEvent';
import { isValidEventType } from './audit/auditEvent';
import type { AuditLog } from './audit/auditLog';
import type { ServerSession } from './connection/service';
import type { AuditSink } from './host/auditSink';
import type { MgpSessions } from './mgp/mgpSessions';
import type { ServerManager } from './serverManager';

/**
 * The commit delay the kernel's hosts open their log with: records made within 20 ms share one
 * write+fsync and one message to the writer thread, and a successful call's record is only made then
 * (recordLater), with the others of those 20 ms. So a caller making calls one after another does not
 * pay for them per call. Refusals, retries and failures wait for their record; 20 ms is well below
 * what a person notices. (bench/call-overhead.mjs: with the records made a call at a time, the
 * kernel's main thread spent about 20 µs more per call.)
 */
export const KERNEL_AUDIT_COMMIT_DELAY_MS = 20;

export class AuditTrail implements AuditSink {
  private readonly appended = new EventEmitter<{ record: [AuditRecord]; problem: [string] }>();
  private forwardTo: { manager: ServerManager; mgp: MgpSessions } | undefined;

  constructor(readonly log: AuditLog) {
    log.onAppend((record) => {
      this.appended.emit('record', record);
      this.forward(record);
    });
  }

  /** Resolves once the event is on disk: only then does it count as recorded. */
  async record(event: AuditEventInput): Promise<void> {
    try {
      await this.log.append(event);
    } catch (error) {
      this.appended.emit(
        'problem',
        `audit event ${event.event_type} could not be recorded: ${error instanceof Error ? error.message : String(error)}`,
      );
      throw error;
    }
  }

  /**
   * The event is made when the log's next batch goes out (within the commit delay), with the others
   * of that batch: a caller making calls one after another then pays for none of it per call.
   */
  recordLater(makeEvent: () => AuditEventInput): void {
    this.log.appendLater(makeEvent, this.laterFailed);
  }

  private readonly laterFailed = (error: Error): void => {
    this.appended.emit('problem', `an audit event could not be recorded: ${error.message}`);
  };

  /** Resolves when every event recorded so far, later ones included, is on disk. */
  async flush(): Promise<void> {
    await this.log.flush();
  }

  onRecord(listener: (record: AuditRecord) => void): () => void {
    this.appended.on('record', listener);
    return () => this.appended.off('record', listener);
  }

  onProblem(listener: (message: string) => void): () => void {
    this.appended.on('problem', listener);
    return () => this.appended.off('problem', listener);
  }

  /** Starts forwarding to audit servers, and takes in the events servers report. */
  connect(manager: ServerManager, mgp: MgpSessions): void {
    this.forwardTo = { manager, mgp };
    mgp.on('notifications/mgp.audit', (session, params) => void this.fromServer(session, params));
  }

  private forward(record: AuditRecord): void {
    if (!this.forwardTo) return;
    const { manager, mgp } = this.forwardTo;
    const event: AuditEvent = {
      timestamp: record.timestamp,
      trace_id: record.trace_id,
      event_type: record.event_type,
      actor: record.actor,
      target: record.target,
      result: record.result,
      details: record.details,
    };
    for (const server of manager.list()) {
      const connection = server.liveConnection;
      // A server's own reports are not echoed back to it.
      if (
        !connection ||
        !mgp.active(server.id, 'audit') ||
        record.details.reported_by === server.id
      )
        continue;
      connection
        .notify('notifications/mgp.audit', event as unknown as Record<string, unknown>)
        .catch(() => undefined);
    }
  }

  private async fromServer(session: ServerSession, params: Record<string, unknown>): Promise<void> {
    const type =
      typeof params.event_type === 'string' && isValidEventType(params.event_type)
        ? params.event_type
        : undefined;
    if (!type) {
      session.log(
        'warning',
        `ignored notifications/mgp.audit with an invalid event_type: ${JSON.stringify(params.event_type)}`,
      );
      return;
    }
    const target = (params.target ?? {}) as { server_id?: string; tool_name?: string };
    await this.record({
      event_type: type,
      trace_id: typeof params.trace_id === 'string' ? params.trace_id : undefined,
      timestamp:
        typeof params.timestamp === 'string' && !Number.isNaN(Date.parse(params.timestamp))
          ? params.timestamp
          : undefined,
      actor: { type: 'server', id: session.id },
      target: { server_id: target.server_id ?? session.id, tool_name: target.tool_name },
      result: typeof params.result === 'string' && params.result ? params.result : 'REPORTED',
      details: {
        ...(typeof params.details === 'object' && params.details !== null
          ? (params.details as Record<string, unknown>)
          : {}),
        reported_by: session.id,
        reported_actor: params.actor,
      },
    }).catch((error: unknown) => session.log('warning', String(error)));
  }

  async close(): Promise<void> {
    await this.log.close();
  }
}
