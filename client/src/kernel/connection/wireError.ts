/**
 * The SDK's McpError puts "MCP error CODE: " before its message, and the SDK answers a request whose
 * handler threw with that `message` as the JSON-RPC error's; the other side's SDK then puts the prefix
 * before it again. A server would read "MCP error -32602: MCP error -32602: the model … does not take
 * images". What the kernel answers a server carries the code once, in `code`, and the words alone.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';

/** The error as the SDK should send it: an McpError's own words, with its code and data. */
export function wireError(error: unknown): unknown {
  if (!(error instanceof McpError)) return error;
  const prefix = `MCP error ${error.code}: `;
  if (!error.message.startsWith(prefix)) return error;
  return Object.assign(new Error(error.message.slice(prefix.length)), {
    code: error.code,
    ...(error.data !== undefined && { data: error.data }),
  });
}

/** Runs a request handler; what it throws reaches the server as `wireError` makes it. */
export async function answering<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw wireError(error);
  }
}
