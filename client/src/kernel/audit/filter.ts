/** Which records a reader, an export or the CLI wants. */
import type { AuditRecord } from './auditEvent';

export interface AuditFilter {
  /** Any of these event types. */
  types?: readonly string[];
  serverId?: string;
  toolName?: string;
  /** Compared without regard to case (`denied` finds DENIED). */
  result?: string;
  traceId?: string;
  /** Records at or after this time (ISO 8601 or a Date). */
  since?: string | Date;
  /** Records before this time. */
  until?: string | Date;
  /** A substring of the record's JSON text, without regard to case. */
  text?: string;
}

export interface CompiledFilter {
  /** A cheap test on the raw line, before parsing it. */
  line(text: string): boolean;
  record(record: AuditRecord): boolean;
}

function time(value: string | Date | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  if (Number.isNaN(ms)) throw new RangeError(`${name} ${JSON.stringify(value)} is not a date`);
  return ms;
}

/** Throws a RangeError when `since` or `until` is not a date. */
export function compileFilter(filter: AuditFilter = {}): CompiledFilter {
  const since = time(filter.since, 'since');
  const until = time(filter.until, 'until');
  const types = filter.types?.length ? new Set(filter.types) : undefined;
  const result = filter.result?.toLowerCase();
  const text = filter.text?.toLowerCase();
  return {
    line: (line) => text === undefined || line.toLowerCase().includes(text),
    record(record) {
      if (types && !types.has(record.event_type)) return false;
      if (filter.serverId !== undefined && record.target?.server_id !== filter.serverId)
        return false;
      if (filter.toolName !== undefined && record.target?.tool_name !== filter.toolName)
        return false;
      if (result !== undefined && record.result?.toLowerCase() !== result) return false;
      if (filter.traceId !== undefined && record.trace_id !== filter.traceId) return false;
      if (since === undefined && until === undefined) return true;
      const at = Date.parse(record.timestamp);
      return (since === undefined || at >= since) && (until === undefined || at < until);
    },
  };
}
