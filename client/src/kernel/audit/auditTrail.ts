/**
 * The kernel's audit trail (MGP §6): every event goes into the durable, hash-chained local log (after
 * redaction of secrets), and once on disk it is forwarded as `notifications/mgp.audit` to the server
 * it is about, when that server negotiated `audit` (§6.3 "Audit Event Delivery"; a server never gets
 * the events of another), and published to the views. Events servers send the kernel (§6.5: they
 * propagate trace ids in their own audit notifications) are recorded as their reports, labelled and
 * limited (audit/serverReports.ts).
 */
import { EventEmitter } from 'node:events';
import type { AuditEvent, AuditEventInput, AuditRecord } from './auditEvent';
import { isValidEventType } from './auditEvent';
import { AuditError } from './errors';
import { AuditLog, type AuditLogOptions } from './auditLog';
import { ReportLimits, ServerReports } from './serverReports';
import type { ServerSession } from '../connection/service';
import type { AuditSink } from './auditSink';
import type { MgpSessions } from '../mgp/mgpSessions';
import type { ServerManager } from '../lifecycle/serverManager';

/**
 * The commit delay the kernel's hosts open their log with: records made within 20 ms share one
 * write+fsync and one message to the writer thread, and a successful call's record is only made then
 * (recordLater), with the others of those 20 ms. So a caller making calls one after another does not
 * pay for them per call. Refusals, retries and failures wait for their record; 20 ms is well below
 * what a person notices; bench/call-overhead.mjs shows what records made a call at a time would cost.
 */
export const KERNEL_AUDIT_COMMIT_DELAY_MS = 20;

export interface OpenAuditTrailOptions extends Omit<AuditLogOptions, 'commitDelayMs'> {
  /** Where this process records when another holds `directory`: two writers would fork the chain. */
  fallback: string;
  /** Told when the trail records to `fallback`, before it is opened. */
  onHeld(fallback: string): void;
}

/** A host's trail over a workspace's log, at the kernel's commit delay; another process may hold the log. */
export async function openAuditTrail(options: OpenAuditTrailOptions): Promise<AuditTrail> {
  const { fallback, onHeld, ...log } = options;
  const open = (directory: string) =>
    AuditLog.open({ ...log, directory, commitDelayMs: KERNEL_AUDIT_COMMIT_DELAY_MS });
  try {
    return new AuditTrail(await open(log.directory));
  } catch (error) {
    if (!(error instanceof AuditError) || error.code !== 'Locked') throw error;
    onHeld(fallback);
    return new AuditTrail(await open(fallback));
  }
}

/** How long a flush waits for the forwards under way (a server's stop is given as long). */
export const FORWARD_PATIENCE_MS = 2000;

export class AuditTrail implements AuditSink {
  private readonly appended = new EventEmitter<{ record: [AuditRecord]; problem: [string] }>();
  private forwardTo: { manager: ServerManager; mgp: MgpSessions } | undefined;
  private readonly reports: ServerReports;
  /** Forwards on their way to servers: a flush waits for them, so none is cut off by a shutdown. */
  private readonly forwarding = new Set<Promise<unknown>>();

  private readonly forwardPatienceMs: number;

  constructor(
    readonly log: AuditLog,
    options: { reportLimits?: ReportLimits; forwardPatienceMs?: number } = {},
  ) {
    this.forwardPatienceMs = options.forwardPatienceMs ?? FORWARD_PATIENCE_MS;
    this.reports = new ServerReports(
      (event) => void this.record(event).catch(() => {}),
      Date.now,
      options.reportLimits,
    );
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

  /**
   * Resolves when every event recorded so far, later ones included, is on disk, and its forward to
   * the server it is about (§6.3) has been sent, or has had `forwardPatienceMs`: a server that does
   * not take a notification must not hold up a flush (nor a shutdown) for ever.
   */
  async flush(): Promise<void> {
    await this.log.flush();
    if (!this.forwarding.size) return;
    let timer: NodeJS.Timeout | undefined;
    const patience = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.forwardPatienceMs);
    });
    await Promise.race([Promise.all([...this.forwarding]), patience]);
    clearTimeout(timer);
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
    // §6.3 delivery, to the server the event is about only: never another server's events, nor its own reports.
    const serverId = record.target.server_id;
    const server = serverId ? manager.find(serverId) : undefined;
    const connection = server?.liveConnection;
    if (!connection || !mgp.active(server.id, 'audit') || record.details.reported_by === server.id)
      return;
    const event: AuditEvent = {
      timestamp: record.timestamp,
      trace_id: record.trace_id,
      event_type: record.event_type,
      actor: record.actor,
      target: record.target,
      result: record.result,
      details: record.details,
    };
    const sent = connection
      .notify('notifications/mgp.audit', event as unknown as Record<string, unknown>)
      .catch(() => undefined)
      .finally(() => this.forwarding.delete(sent));
    this.forwarding.add(sent);
  }

  private async fromServer(session: ServerSession, params: Record<string, unknown>): Promise<void> {
    if (!this.forwardTo?.mgp.active(session.id, 'audit')) {
      session.log('warning', 'ignored notifications/mgp.audit: the server did not negotiate audit');
      return;
    }
    if (typeof params.event_type !== 'string' || !isValidEventType(params.event_type)) {
      session.log(
        'warning',
        `ignored notifications/mgp.audit with an invalid event_type: ${JSON.stringify(params.event_type)?.slice(0, 200)}`,
      );
      return;
    }
    const mgp = this.forwardTo.mgp;
    const event = this.reports.accept(session.id, params, (id) => mgp.gaveTraceId(session.id, id));
    if (!event) return;
    if (event.details?.trace_id_refused !== undefined)
      session.log(
        'warning',
        `notifications/mgp.audit named a trace id the kernel never gave this server: recorded without it (MGP §6.5)`,
      );
    await this.record(event).catch((error: unknown) => session.log('warning', String(error)));
  }

  async close(): Promise<void> {
    this.reports.close();
    await this.log.close();
  }
}
