/** The MGP §6.3 audit event, and the record the durable log stores for it. */
import { randomUUID } from 'node:crypto';

/** MGP §6.4. Implementations may add their own in reverse-domain notation (`com.example.custom_event`). */
export const STANDARD_EVENT_TYPES = [
  'TOOL_EXECUTED',
  'TOOL_BLOCKED',
  'PERMISSION_GRANTED',
  'PERMISSION_DENIED',
  'PERMISSION_REVOKED',
  'ACCESS_GRANTED',
  'ACCESS_REVOKED',
  'SERVER_CONNECTED',
  'SERVER_DISCONNECTED',
  'VALIDATION_FAILED',
  'CODE_REJECTED',
  'TOOL_CREATED_DYNAMIC',
] as const;

export type StandardEventType = (typeof STANDARD_EVENT_TYPES)[number];

export type ActorType = 'agent' | 'operator' | 'kernel' | 'server';

export interface AuditEvent {
  /** ISO 8601 with milliseconds, UTC. */
  timestamp: string;
  /** MGP §6.5: carried from the request that caused the event. */
  trace_id: string;
  /** A standard type, or a reverse-domain custom one. */
  event_type: string;
  actor: { type: ActorType; id: string };
  target: { server_id?: string; tool_name?: string };
  /** e.g. SUCCESS, FAILURE, BLOCKED, DENIED. */
  result: string;
  details: Record<string, unknown>;
}

/** An event as the log stores it: numbered and chained to the record before it (see chain.ts). */
export interface AuditRecord extends AuditEvent {
  /** 1 for the first record ever written to this log, then +1, across files. */
  seq: number;
  /** The `hash` of the record before, or GENESIS_HASH for seq 1. */
  prev_hash: string;
  /** SHA-256 (hex) of the record's canonical form without `hash`. */
  hash: string;
}

/** What `AuditLog.append` takes: the log fills in a missing timestamp, trace id, target or details. */
export type AuditEventInput = Omit<AuditEvent, 'timestamp' | 'trace_id' | 'target' | 'details'> &
  Partial<Pick<AuditEvent, 'timestamp' | 'trace_id' | 'target' | 'details'>>;

export function newTraceId(): string {
  return randomUUID();
}

const standard = new Set<string>(STANDARD_EVENT_TYPES);
const reverseDomain = /^[a-z][a-z0-9-]*(\.[a-z0-9][a-z0-9_-]*)+$/i;
const actorTypes = new Set<string>(['agent', 'operator', 'kernel', 'server']);

export function isStandardEventType(type: string): type is StandardEventType {
  return standard.has(type);
}

/** A standard type, or reverse-domain notation with at least two labels (`com.example.custom_event`). */
export function isValidEventType(type: string): boolean {
  return standard.has(type) || reverseDomain.test(type);
}

/** Why `input` cannot be logged, or undefined when it can. */
export function eventProblem(input: AuditEventInput): string | undefined {
  if (typeof input.event_type !== 'string' || !isValidEventType(input.event_type)) {
    return `event_type ${JSON.stringify(input.event_type)} is neither an MGP §6.4 type nor reverse-domain notation`;
  }
  if (!input.actor || !actorTypes.has(input.actor.type) || typeof input.actor.id !== 'string') {
    return 'actor must be { type: agent|operator|kernel|server, id: string }';
  }
  if (typeof input.result !== 'string' || input.result === '')
    return 'result must be a non-empty string';
  if (input.trace_id !== undefined && (typeof input.trace_id !== 'string' || input.trace_id === ''))
    return 'trace_id must be a non-empty string';
  if (input.timestamp !== undefined && Number.isNaN(Date.parse(input.timestamp)))
    return `timestamp ${JSON.stringify(input.timestamp)} is not a date`;
  if (
    input.details !== undefined &&
    (typeof input.details !== 'object' || input.details === null || Array.isArray(input.details))
  ) {
    return 'details must be an object';
  }
  return undefined;
}
