/**
 * Wire errors with an MGP code (MGP §14). Thrown from a handler, the SDK turns one into a JSON-RPC
 * error response carrying its `code`, `message` and `data`; MGP's recovery hints live in `data._mgp`.
 */
import { z } from 'zod';

export const ErrorCodes = {
  InvalidParams: -32602,
  PermissionDenied: 1000,
  RateLimited: 3000,
  UpstreamError: 5000,
} as const;

/** Standard names (MGP §14.3), for messages. */
const CODE_NAMES: Record<number, string> = {
  1000: 'PERMISSION_DENIED',
  1001: 'ACCESS_DENIED',
  1002: 'AUTH_REQUIRED',
  1003: 'AUTH_EXPIRED',
  1010: 'VALIDATION_BLOCKED',
  1011: 'CODE_SAFETY_VIOLATION',
  2000: 'SERVER_NOT_READY',
  2001: 'SERVER_DRAINING',
  2002: 'SERVER_RESTARTING',
  3000: 'RATE_LIMITED',
  3001: 'RESOURCE_EXHAUSTED',
  3002: 'QUOTA_EXCEEDED',
  3003: 'TIMEOUT',
  4000: 'INVALID_TOOL_ARGS',
  4001: 'TOOL_NOT_FOUND',
  4002: 'TOOL_DISABLED',
  5000: 'UPSTREAM_ERROR',
  5001: 'UPSTREAM_TIMEOUT',
  5002: 'UPSTREAM_UNAVAILABLE',
};

export type ErrorCategory = 'security' | 'lifecycle' | 'resource' | 'validation' | 'external';
export type RetryStrategy = 'immediate' | 'fixed_delay' | 'exponential_backoff';

/** MGP §14.5 recovery fields. */
export interface Recovery {
  category: ErrorCategory;
  retryable: boolean;
  retry_after_ms?: number;
  retry_strategy?: RetryStrategy;
  max_retries?: number;
  fallback_tool?: string;
  details?: Record<string, unknown>;
}

export function codeName(code: number): string {
  return CODE_NAMES[code] ?? `MGP_ERROR_${code}`;
}

/** The category of a code by its range (MGP §14.2); codes outside the ranges count as external. */
export function categoryOf(code: number): ErrorCategory {
  if (code >= 1000 && code < 1100) return 'security';
  if (code >= 2000 && code < 2100) return 'lifecycle';
  if (code >= 3000 && code < 3100) return 'resource';
  if (code >= 4000 && code < 4100) return 'validation';
  return 'external';
}

export class MgpError extends Error {
  readonly data?: { _mgp: Recovery };

  constructor(
    readonly code: number,
    message: string,
    recovery?: Recovery,
  ) {
    super(message);
    this.name = 'MgpError';
    if (recovery) this.data = { _mgp: recovery };
  }
}

/** Parses a request's params, or fails with JSON-RPC -32602 naming what was wrong. */
export function parseParams<T extends z.ZodType>(
  schema: T,
  params: unknown,
  method: string,
): z.infer<T> {
  const parsed = schema.safeParse(params ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) =>
    i.path.length ? `${i.message} at ${i.path.join('.')}` : i.message,
  );
  throw new MgpError(
    ErrorCodes.InvalidParams,
    `Invalid params for ${method}: ${problems.join('; ')}`,
  );
}
