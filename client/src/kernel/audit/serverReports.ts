/**
 * Audit events servers send the kernel (`notifications/mgp.audit`, MGP §6.3, §6.5), as the kernel
 * records them. A server is not trusted: what it says goes into the trail labelled as its own
 * report and nothing more.
 * - The record's actor is the server, its target the server itself, its type
 *   `dev.mgp-kernel.server_reported` and its time the kernel's: what the server claimed (type, actor,
 *   target, result, time, details) is kept under `reported_*` in the details, so a server can never
 *   write a record that reads as the kernel's, as another server's, or as from another time.
 * - A report's trace id (§6.5) must be one the kernel gave that server: the trace of a call forwarded
 *   to it, or of another request the kernel sent it (mgp/traceIdsGiven.ts). Any other id would file
 *   the server's words under a trace it had no part in (another call's, say): it is stripped, the
 *   record gets a trace of its own and says what was claimed (`trace_id_refused`).
 * - Each server may write a burst of REPORT_BURST records, then REPORT_RATE_PER_SECOND; the rest are
 *   dropped and counted, and a kernel record says how many (at most one every DROP_NOTE_MS).
 * - On top of the rate, a total per server and window (`ReportLimits`: by default 5,000 records and
 *   8 MiB an hour, where the rate alone would let about 290 MB an hour in): past it every report is
 *   dropped until the window ends, and one kernel record says how many were (at the window's end,
 *   or when the trail closes).
 * - Details larger than REPORT_DETAILS_BYTES (as JSON) are replaced by a marked excerpt.
 */
import type { AuditEventInput } from './auditEvent';

export const SERVER_REPORTED = 'dev.mgp-kernel.server_reported';
export const SERVER_AUDIT_DROPPED = 'dev.mgp-kernel.server_audit_dropped';
export const REPORT_BURST = 100;
export const REPORT_RATE_PER_SECOND = 10;
export const REPORT_DETAILS_BYTES = 8 * 1024;
export const DROP_NOTE_MS = 10_000;
const EXCERPT_CHARS = 1024;
const MAX_NAME = 256;

/** How much one server may report in one window, whatever its rate. */
export interface ReportLimits {
  windowMs: number;
  /** Records per window. */
  records: number;
  /** Bytes per window: the records' JSON, as the kernel made them. */
  bytes: number;
}

export const DEFAULT_REPORT_LIMITS: ReportLimits = {
  windowMs: 60 * 60_000,
  records: 5_000,
  bytes: 8 * 1024 * 1024,
};

interface Allowance {
  tokens: number;
  refilledAt: number;
  dropped: number;
  notedAt: number;
  noteTimer?: ReturnType<typeof setTimeout>;
  window?: ReportWindow;
}

interface ReportWindow {
  start: number;
  records: number;
  bytes: number;
  dropped: number;
  timer?: ReturnType<typeof setTimeout>;
}

const shortString = (value: unknown, max = MAX_NAME): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value.slice(0, max) : undefined;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A claim (actor, target) reduced to its short string fields. */
function claim(value: unknown): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [key, field] of Object.entries(value).slice(0, 8)) {
    const text = shortString(field);
    if (text !== undefined) out[key.slice(0, 64)] = text;
  }
  return out;
}

/** The server's details, or a marked excerpt of them when they are too large. */
function boundedDetails(details: unknown): Record<string, unknown> {
  if (!isRecord(details)) return {};
  let json: string;
  try {
    json = JSON.stringify(details);
  } catch {
    return { details_truncated: true, details_unserializable: true };
  }
  if (json.length <= REPORT_DETAILS_BYTES) return { reported_details: details };
  return {
    details_truncated: true,
    details_bytes: Buffer.byteLength(json),
    details_excerpt: json.slice(0, EXCERPT_CHARS),
  };
}

/** The kernel's record of a report: the server's claims kept as such, its trace id only if given. */
function reportEvent(
  serverId: string,
  params: Record<string, unknown>,
  gaveTraceId: (traceId: string) => boolean,
): AuditEventInput {
  const target = isRecord(params.target) ? params.target : {};
  const traceId = shortString(params.trace_id, 128);
  const given = traceId !== undefined && gaveTraceId(traceId);
  return {
    event_type: SERVER_REPORTED,
    ...(given ? { trace_id: traceId } : {}),
    actor: { type: 'server', id: serverId },
    target: { server_id: serverId, tool_name: shortString(target.tool_name) },
    result: 'REPORTED',
    details: {
      reported_by: serverId,
      reported_event_type: shortString(params.event_type),
      reported_actor: claim(params.actor),
      reported_target: claim(params.target),
      reported_result: shortString(params.result),
      reported_timestamp: shortString(params.timestamp, 64),
      ...(traceId !== undefined && !given ? { trace_id_refused: traceId } : {}),
      ...boundedDetails(params.details),
    },
  };
}

export class ServerReports {
  private readonly allowances = new Map<string, Allowance>();

  constructor(
    /** Records the kernel's notes of dropped reports. */
    private readonly note: (event: AuditEventInput) => void,
    private readonly clock: () => number = Date.now,
    private readonly limits: ReportLimits = DEFAULT_REPORT_LIMITS,
  ) {}

  /**
   * The record of one report, or undefined when the server is over its window's total or its rate
   * (counted, noted). `gaveTraceId` says whether the kernel gave the server a trace id.
   */
  accept(
    serverId: string,
    params: Record<string, unknown>,
    gaveTraceId: (traceId: string) => boolean,
  ): AuditEventInput | undefined {
    const allowance = this.allowanceOf(serverId);
    const window = this.windowOf(serverId, allowance);
    if (window.records >= this.limits.records || window.bytes >= this.limits.bytes) {
      window.dropped++;
      return undefined;
    }
    if (!this.take(serverId, allowance)) return undefined;
    const event = reportEvent(serverId, params, gaveTraceId);
    window.records++;
    window.bytes += Buffer.byteLength(JSON.stringify(event));
    return event;
  }

  /** Records the notes still owed (the trail is closing) and stops their timers. */
  close(): void {
    for (const [serverId, allowance] of this.allowances) {
      clearTimeout(allowance.noteTimer);
      allowance.noteTimer = undefined;
      this.flushNote(serverId, allowance);
      if (allowance.window) this.closeWindow(serverId, allowance.window);
    }
  }

  private allowanceOf(serverId: string): Allowance {
    let allowance = this.allowances.get(serverId);
    if (!allowance) {
      const now = this.clock();
      allowance = { tokens: REPORT_BURST, refilledAt: now, dropped: 0, notedAt: -Infinity };
      this.allowances.set(serverId, allowance);
    }
    return allowance;
  }

  /** The server's current window, opened at its first report after the last one ended. */
  private windowOf(serverId: string, allowance: Allowance): ReportWindow {
    const now = this.clock();
    const current = allowance.window;
    if (current && now < current.start + this.limits.windowMs) return current;
    if (current) this.closeWindow(serverId, current);
    const window: ReportWindow = { start: now, records: 0, bytes: 0, dropped: 0 };
    window.timer = setTimeout(() => this.closeWindow(serverId, window), this.limits.windowMs);
    window.timer.unref?.();
    allowance.window = window;
    return window;
  }

  /** The one note of a window whose total was reached: how many reports it dropped. */
  private closeWindow(serverId: string, window: ReportWindow): void {
    clearTimeout(window.timer);
    window.timer = undefined;
    if (window.dropped === 0) return;
    const { records, bytes, windowMs } = this.limits;
    this.noteDropped(serverId, window.dropped, {
      limit: 'total',
      reason: `more than ${records} audit events or ${bytes} bytes in ${windowMs / 60_000} minutes`,
      window_start: new Date(window.start).toISOString(),
    });
    window.dropped = 0;
  }

  private take(serverId: string, allowance: Allowance): boolean {
    const now = this.clock();
    const refill = ((now - allowance.refilledAt) / 1000) * REPORT_RATE_PER_SECOND;
    allowance.tokens = Math.min(REPORT_BURST, allowance.tokens + refill);
    allowance.refilledAt = now;
    if (allowance.tokens >= 1) {
      allowance.tokens -= 1;
      return true;
    }
    allowance.dropped++;
    this.scheduleNote(serverId, allowance);
    return false;
  }

  /** A note of the drops now, or when DROP_NOTE_MS have passed since the last one. */
  private scheduleNote(serverId: string, allowance: Allowance): void {
    if (allowance.noteTimer) return;
    const wait = allowance.notedAt + DROP_NOTE_MS - this.clock();
    if (wait <= 0) return this.flushNote(serverId, allowance);
    allowance.noteTimer = setTimeout(() => {
      allowance.noteTimer = undefined;
      this.flushNote(serverId, allowance);
    }, wait);
    allowance.noteTimer.unref?.();
  }

  private flushNote(serverId: string, allowance: Allowance): void {
    if (allowance.dropped === 0) return;
    this.noteDropped(serverId, allowance.dropped, {
      limit: 'rate',
      reason: `more than ${REPORT_BURST} audit events at once, or more than ${REPORT_RATE_PER_SECOND} a second`,
    });
    allowance.dropped = 0;
    allowance.notedAt = this.clock();
  }

  /** The kernel's one record of a server's reports that were dropped, and which limit dropped them. */
  private noteDropped(serverId: string, dropped: number, why: Record<string, unknown>): void {
    this.note({
      event_type: SERVER_AUDIT_DROPPED,
      actor: { type: 'kernel', id: 'mgp-kernel' },
      target: { server_id: serverId },
      result: 'DROPPED',
      details: { dropped, ...why },
    });
  }
}
