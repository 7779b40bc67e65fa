/**
 * What a gateway client is told when the kernel refuses or a server fails: the JSON-RPC error the
 * kernel's own MGP peers get (the §14.3 code, its `_mgp` recovery data), and a server's own error
 * passed on as it came, so a client sees what it would see connected to the server directly.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { KernelError } from '../domain/errors';

/** An error the SDK sends as it is: `code`, `message`, `data` (an McpError would prefix its message). */
export class WireError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export function toWireError(error: unknown): WireError {
  if (error instanceof WireError) return error;
  if (error instanceof McpError) {
    const prefix = `MCP error ${error.code}: `;
    const message = error.message.startsWith(prefix)
      ? error.message.slice(prefix.length)
      : error.message;
    return new WireError(error.code, message, error.data);
  }
  if (error instanceof KernelError)
    return new WireError(error.wireCode ?? ErrorCode.InternalError, error.message, error.data);
  return new WireError(
    ErrorCode.InternalError,
    error instanceof Error ? error.message : String(error),
  );
}

/** Runs a handler's work, rethrowing its failure as a wire error. */
export async function onTheWire<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toWireError(error);
  }
}
