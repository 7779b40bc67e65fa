/**
 * The body of a POST that opens a session, read by the front before the transport sees it: the
 * client's name (`clientInfo.name` of an initialize, MCP 2025-11-25 lifecycle) tells clients apart
 * for their share of sessions (sessionTable.ts). Read once, bounded, and handed to the transport
 * parsed, as its `handleRequest` allows.
 */
import type { IncomingMessage } from 'node:http';

/** An initialize is a few hundred bytes; a session-opening POST larger than this is refused. */
export const MAX_OPENING_BODY_BYTES = 1024 * 1024;
const MAX_CLIENT_NAME = 128;
/** The share of clients that give no name. */
export const UNNAMED_CLIENT = '(unnamed client)';

export type OpeningBody =
  | { ok: true; parsed: unknown; initialize: boolean; client: string }
  | { ok: false; status: 400 | 413; message: string };

async function readBounded(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_OPENING_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function clientName(message: Record<string, unknown>): string {
  const params = message.params as { clientInfo?: { name?: unknown } } | undefined;
  const name = params?.clientInfo?.name;
  return typeof name === 'string' && name.trim()
    ? name.trim().slice(0, MAX_CLIENT_NAME)
    : UNNAMED_CLIENT;
}

export async function readOpeningBody(req: IncomingMessage): Promise<OpeningBody> {
  const bytes = await readBounded(req);
  if (!bytes)
    return {
      ok: false,
      status: 413,
      message: `Payload too large: a request opening a session is at most ${MAX_OPENING_BODY_BYTES} bytes`,
    };
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    return { ok: false, status: 400, message: `Parse error: ${(error as Error).message}` };
  }
  const message =
    typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  const initialize = message?.method === 'initialize';
  return {
    ok: true,
    parsed,
    initialize,
    client: message && initialize ? clientName(message) : UNNAMED_CLIENT,
  };
}
