/**
 * Audit events servers send the kernel (`notifications/mgp.audit`, MGP §6.3, §6.5), as the kernel
 * records them. A server is not trusted: what it says goes into the trail labelled as its own
 * report and nothing more.
 * - The record's actor is the server, its target the server itself, its type
 *   `dev.mgp-kernel.server_reported` and its time the kernel's: what the server claimed (type, actor,
 *   target, result, time, details) is kept under `reported_*` in the details, so a server can never
 *   write a record that reads as the kernel's, as another server's, or as from another time.
 * - Each server may write a burst of REPORT_BURST records, then REPORT_RATE_PER_SECOND; the rest are
 *   dropped and counted, and a kernel record says how many (at most one every DROP_NOTE_MS).
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

interface Allowance {
  tokens: number;
  refilledAt: number;
  dropped: number;
  notedAt: number;
  noteTimer?: ReturnType<typeof setTimeout>;
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

export class ServerReports {
  private readonly allowances = new Map<string, Allowance>();

  constructor(
    /** Records the kernel's note of dropped reports. */
    private readonly note: (event: AuditEventInput) => void,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The record of one report, or undefined when the server is over its allowance (counted, noted). */
  accept(serverId: string, params: Record<string, unknown>): AuditEventInput | undefined {
    if (!this.take(serverId)) return undefined;
    const target = isRecord(params.target) ? params.target : {};
    const traceId = shortString(params.trace_id, 128);
    return {
      event_type: SERVER_REPORTED,
      ...(traceId ? { trace_id: traceId } : {}),
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
        ...boundedDetails(params.details),
      },
    };
  }

  private take(serverId: string): boolean {
    const now = this.clock();
    let allowance = this.allowances.get(serverId);
    if (!allowance) {
      allowance = { tokens: REPORT_BURST, refilledAt: now, dropped: 0, notedAt: -Infinity };
      this.allowances.set(serverId, allowance);
    }
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
    this.note({
      event_type: SERVER_AUDIT_DROPPED,
      actor: { type: 'kernel', id: 'mgp-kernel' },
      target: { server_id: serverId },
      result: 'DROPPED',
      details: {
        dropped: allowance.dropped,
        reason: `more than ${REPORT_BURST} audit events at once, or more than ${REPORT_RATE_PER_SECOND} a second`,
      },
    });
    allowance.dropped = 0;
    allowance.notedAt = this.clock();
  }
}
