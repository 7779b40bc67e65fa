/**
 * MGP structured errors (MGP §14): the codes of §14.3, the `_mgp` recovery data of §14.4–14.5, and the
 * client retry rules of §14.6. Wire errors from servers and the kernel's own errors read the same way.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { KernelError } from '../domain/errors';

export type ErrorCategory =
  'security' | 'lifecycle' | 'resource' | 'validation' | 'external' | 'protocol';
export type RetryStrategy = 'immediate' | 'fixed_delay' | 'exponential_backoff';

/** MGP §14.5. */
export interface RecoveryInfo {
  category?: ErrorCategory;
  retryable?: boolean;
  retry_after_ms?: number;
  retry_strategy?: RetryStrategy;
  max_retries?: number;
  fallback_tool?: string;
  details?: Record<string, unknown>;
}

export interface WireError {
  code: number;
  /** The §14.3 name, e.g. RATE_LIMITED; undefined for codes outside the table. */
  name?: string;
  message: string;
  recovery?: RecoveryInfo;
}

export const MGP_ERROR_NAMES: Readonly<Record<number, string>> = {
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

/** The category of MGP §14.2's code ranges. */
export function categoryOf(code: number): ErrorCategory {
  if (code >= 1000 && code < 1100) return 'security';
  if (code >= 2000 && code < 2100) return 'lifecycle';
  if (code >= 3000 && code < 3100) return 'resource';
  if (code >= 4000 && code < 4100) return 'validation';
  if (code >= 5000 && code < 5100) return 'external';
  return 'protocol';
}

function recoveryFrom(data: unknown): RecoveryInfo | undefined {
  const mgp = (data as { _mgp?: unknown } | undefined)?._mgp;
  if (typeof mgp !== 'object' || mgp === null) return undefined;
  const raw = mgp as Record<string, unknown>;
  const info: RecoveryInfo = {};
  if (typeof raw.category === 'string') info.category = raw.category as ErrorCategory;
  if (typeof raw.retryable === 'boolean') info.retryable = raw.retryable;
  if (typeof raw.retry_after_ms === 'number' && raw.retry_after_ms >= 0)
    info.retry_after_ms = raw.retry_after_ms;
  if (
    raw.retry_strategy === 'immediate' ||
    raw.retry_strategy === 'fixed_delay' ||
    raw.retry_strategy === 'exponential_backoff'
  )
    info.retry_strategy = raw.retry_strategy;
  if (typeof raw.max_retries === 'number' && raw.max_retries >= 0)
    info.max_retries = Math.floor(raw.max_retries);
  if (typeof raw.fallback_tool === 'string' && raw.fallback_tool)
    info.fallback_tool = raw.fallback_tool;
  if (typeof raw.details === 'object' && raw.details !== null)
    info.details = raw.details as Record<string, unknown>;
  return info;
}

/** The MGP reading of any error a call can end with; undefined for errors with no code. */
export function wireErrorOf(error: unknown): WireError | undefined {
  if (error instanceof McpError) {
    return {
      code: error.code,
      name: MGP_ERROR_NAMES[error.code],
      message: error.message.replace(/^MCP error -?\d+: /, ''),
      recovery: recoveryFrom(error.data),
    };
  }
  if (error instanceof KernelError && error.wireCode !== undefined) {
    return {
      code: error.wireCode,
      name: MGP_ERROR_NAMES[error.wireCode],
      message: error.message,
      recovery: recoveryFrom(error.data) ?? {
        category: categoryOf(error.wireCode),
        retryable: false,
      },
    };
  }
  return undefined;
}

/** The `error.data` of a kernel error on the wire: §14.4's `_mgp` object. */
export function errorData(
  code: number,
  recovery: Omit<RecoveryInfo, 'category'> = {},
): Record<string, unknown> {
  return { _mgp: { category: categoryOf(code), retryable: false, ...recovery } };
}

const MAX_DELAY_MS = 60_000;
const DEFAULT_MAX_RETRIES = 3;

/**
 * The kernel's bounds on what a server's recovery data may ask for (MGP §14.6 leaves them to the
 * client): never more than KERNEL_MAX_RETRIES retries of one call, never sooner than RETRY_FLOOR_MS
 * apart. Without them one approved call could run any number of times, as fast as the server likes.
 */
export const KERNEL_MAX_RETRIES = 3;
export const RETRY_FLOOR_MS = 100;

/** How long to wait before retry number `attempt` (1-based), by MGP §14.6 steps 1–2, within the kernel's bounds. */
export function retryDelayMs(recovery: RecoveryInfo, attempt: number): number {
  const base = Math.max(RETRY_FLOOR_MS, recovery.retry_after_ms ?? 0);
  switch (recovery.retry_strategy) {
    case 'exponential_backoff':
      return Math.min(MAX_DELAY_MS, base * 2 ** (attempt - 1));
    case 'immediate':
    case 'fixed_delay':
    default:
      return Math.min(MAX_DELAY_MS, base);
  }
}

/** §14.6 step 3: the server's max_retries (a small default without one), never above the kernel's maximum. */
export function maxRetriesOf(recovery: RecoveryInfo): number {
  if (!recovery.retryable) return 0;
  return Math.min(KERNEL_MAX_RETRIES, recovery.max_retries ?? DEFAULT_MAX_RETRIES);
}
