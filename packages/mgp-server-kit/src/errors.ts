/** MGP errors (§14): a JSON-RPC error with an MGP code and `data._mgp`, the recovery a client reads. */
import { McpError } from '@modelcontextprotocol/sdk/types.js';

/** MGP §14.3. */
export const ErrorCodes = {
  PermissionDenied: 1000,
  AccessDenied: 1001,
  AuthRequired: 1002,
  AuthExpired: 1003,
  ValidationBlocked: 1010,
  CodeSafetyViolation: 1011,
  ServerNotReady: 2000,
  ServerDraining: 2001,
  ServerRestarting: 2002,
  RateLimited: 3000,
  ResourceExhausted: 3001,
  QuotaExceeded: 3002,
  Timeout: 3003,
  InvalidToolArgs: 4000,
  ToolNotFound: 4001,
  ToolDisabled: 4002,
  UpstreamError: 5000,
  UpstreamTimeout: 5001,
  UpstreamUnavailable: 5002,
} as const;

export type Category = 'security' | 'lifecycle' | 'resource' | 'validation' | 'external';

/** The §14.5 recovery fields; `category` follows from the code when left out. */
export interface Recovery {
  category?: Category;
  retryable?: boolean;
  retry_after_ms?: number;
  retry_strategy?: 'immediate' | 'fixed_delay' | 'exponential_backoff';
  max_retries?: number;
  fallback_tool?: string;
  details?: Record<string, unknown>;
}

/** The category of an MGP code's range (MGP §14.2). */
export function categoryOf(code: number): Category {
  if (code >= 1000 && code < 2000) return 'security';
  if (code >= 2000 && code < 3000) return 'lifecycle';
  if (code >= 3000 && code < 4000) return 'resource';
  if (code >= 4000 && code < 5000) return 'validation';
  return 'external';
}

/** An MGP error to throw from a tool or a handler: `throw mgpError(3000, 'Rate limited', { retryable: true })`. */
export function mgpError(code: number, message: string, recovery: Recovery = {}): McpError {
  return new McpError(code, message, {
    _mgp: { category: categoryOf(code), retryable: false, ...recovery },
  });
}
