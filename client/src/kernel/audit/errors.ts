/** Local errors of the audit log, with a string code: local errors carry a name, wire errors a number. */
export type AuditErrorCode =
  /** Another live process writes this log (see lock.ts). */
  | 'Locked'
  /** The record could not be made durable (disk full, permission, I/O error). */
  | 'WriteFailed'
  /** The event cannot be logged as given (bad type, actor, or a value JSON cannot hold). */
  | 'InvalidEvent'
  /** The log was closed. */
  | 'Closed';

export class AuditError extends Error {
  constructor(
    readonly code: AuditErrorCode,
    message: string,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'AuditError';
  }
}

/** What an event that cannot be made or logged is rejected with: its own AuditError, or `InvalidEvent`. */
export function asInvalidEvent(error: unknown): AuditError {
  return error instanceof AuditError
    ? error
    : new AuditError(
        'InvalidEvent',
        `cannot log this event: ${error instanceof Error ? error.message : String(error)}`,
        error,
      );
}
