import { AuditEvent, AuditEventInput, eventProblem, newTraceId } from './auditEvent';
import { AuditError } from './errors';

/** Names in an event's actor, target and result: at most MAX_FIELD characters, a cut marked. */
const MAX_FIELD = 512;
const shortField = (text: string): string =>
  text.length > MAX_FIELD ? `${text.slice(0, MAX_FIELD)}…[truncated]` : text;

function boundedFields<T extends object>(fields: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields))
    out[key] = typeof value === 'string' ? shortField(value) : value;
  return out as T;
}

/** `input`, or an `InvalidEvent` AuditError saying what is wrong with it. */
export function checkedInput(input: AuditEventInput): AuditEventInput {
  const problem = eventProblem(input);
  if (problem)
    throw new AuditError(
      'InvalidEvent',
      `cannot log this event: ${problem}`,
      new TypeError(problem),
    );
  return input;
}

/**
 * The event with what the log fills in (time, trace id), its names bounded (a tool name can come
 * from a server); the writer redacts it.
 */
export function completeEvent(input: AuditEventInput, clock: () => number): AuditEvent {
  return {
    timestamp: input.timestamp ?? new Date(clock()).toISOString(),
    trace_id: input.trace_id ?? newTraceId(),
    event_type: input.event_type,
    actor: boundedFields(input.actor),
    target: boundedFields(input.target ?? {}),
    result: shortField(input.result),
    details: input.details ?? {},
  };
}
