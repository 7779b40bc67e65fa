import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { KernelError, TIMEOUT } from '../domain/errors';

/** The SDK's request timeout (-32001) as the kernel's Timeout (MGP §14.3 3003); other errors as they are. */
export function asKernelTimeout(
  serverId: string,
  what: string,
  error: unknown,
  timeoutMs: number,
): unknown {
  if (error instanceof McpError && error.code === -32001) {
    return new KernelError(
      'Timeout',
      `${serverId}: ${what} did not answer within ${timeoutMs} ms (cancelled)`,
      TIMEOUT,
      { _mgp: { category: 'resource', retryable: false } },
    );
  }
  return error;
}
