/**
 * Local errors of the kernel, with a string code: wire errors carry JSON-RPC/MGP numbers, local ones
 * a name such as `NotConnected` or `Timeout`, which reads better in logs and tests than a number. Where a local error has an MGP meaning it
 * carries the §14.3 code too, so callers over the wire see the same numbers servers use.
 */
export type KernelErrorCode =
  | 'NotConnected'
  | 'Timeout'
  | 'ServerDraining'
  | 'CommandRejected'
  | 'UrlRejected'
  | 'BadUrl'
  | 'UnknownServer'
  | 'UnknownTool'
  | 'ToolDisabled'
  | 'InvalidArguments'
  | 'StartFailed'
  | 'StartRefused'
  | 'SandboxUnavailable'
  | 'MessageTooLarge'
  | 'LimitExceeded'
  | 'Unsupported'
  | 'ProtocolViolation'
  | 'PermissionDenied'
  | 'AccessDenied'
  | 'ValidationBlocked'
  | 'CodeSafetyViolation'
  | 'NoModel'
  | 'Cancelled'
  | 'AuthRequired'
  /** An external agent's card or answer could not be used (a2a/). */
  | 'A2a';

export class KernelError extends Error {
  /** For a refusal: the check of the call pipeline that made it (see pipeline/checkNames.ts). */
  check?: string;

  constructor(
    readonly code: KernelErrorCode,
    message: string,
    readonly wireCode?: number,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'KernelError';
  }
}

/** Marks an error as a refusal by the named check, for the words and the marks its caller shows. */
export function refusedBy<E extends KernelError>(check: string, error: E): E {
  error.check = check;
  return error;
}

/** MGP §14.3 standard error codes. */
export const PERMISSION_DENIED = 1000;
export const ACCESS_DENIED = 1001;
export const AUTH_REQUIRED = 1002;
export const AUTH_EXPIRED = 1003;
export const VALIDATION_BLOCKED = 1010;
export const CODE_SAFETY_VIOLATION = 1011;
export const SERVER_NOT_READY = 2000;
export const SERVER_DRAINING = 2001;
export const SERVER_RESTARTING = 2002;
export const RATE_LIMITED = 3000;
export const RESOURCE_EXHAUSTED = 3001;
export const QUOTA_EXCEEDED = 3002;
export const TIMEOUT = 3003;
export const INVALID_TOOL_ARGS = 4000;
export const TOOL_NOT_FOUND = 4001;
export const TOOL_DISABLED = 4002;
export const UPSTREAM_ERROR = 5000;
export const UPSTREAM_TIMEOUT = 5001;
export const UPSTREAM_UNAVAILABLE = 5002;
