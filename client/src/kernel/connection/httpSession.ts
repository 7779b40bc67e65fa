import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * A client that no longer needs its Streamable HTTP session SHOULD end it with an HTTP DELETE
 * carrying the session id (MCP 2025-11-25, Transports: session management), so the server can free
 * it at once. A server may refuse (405) or not answer: the kernel waits at most `timeoutMs`, then
 * closes anyway, and says why in `onFailure`.
 */
export async function endHttpSession(
  transport: Transport,
  timeoutMs: number,
  onFailure: (reason: string) => void,
): Promise<void> {
  if (!(transport instanceof StreamableHTTPClientTransport) || !transport.sessionId) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs);
    timer.unref();
  });
  try {
    const outcome = await Promise.race([transport.terminateSession().then(() => 'ended'), late]);
    if (outcome === 'late')
      onFailure(`the server did not answer DELETE of its session within ${timeoutMs} ms`);
  } catch (error) {
    onFailure(
      `DELETE of the session failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    clearTimeout(timer);
  }
}
