/**
 * The MCP draft extensions' example server over stdio (no arguments) or Streamable HTTP (`--port N`,
 * at /mcp, resumable). stdout carries the protocol only; logs go to stderr. Flags: options.ts.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ReplayingEventStore } from './eventStore';
import { type DraftServerOptions, parseOptions } from './options';
import { createDraftServer } from './server';

function main(): void {
  const options = parseOptions(process.argv.slice(2));
  if (options.port === undefined) {
    createDraftServer()
      .connect(new StdioServerTransport())
      .catch((error: unknown) => {
        console.error('drafts-example-server failed:', error);
        process.exit(1);
      });
  } else serveHttp(options.port, options);
}

function serveHttp(port: number, options: DraftServerOptions): void {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  /** The HTTP response each tools/call's stream runs on, by its JSON-RPC id. */
  const callStreams = new Map<string | number, ServerResponse>();
  const eventSent = (requestId: string | number, count: number) => {
    const response = callStreams.get(requestId);
    if (count !== options.dropAfter || !response) return;
    callStreams.delete(requestId);
    console.error(`dropping the connection of call ${requestId} after event ${count}`);
    response.socket?.destroy();
  };
  const http = createServer((request, response) => {
    void handle(request, response)
      .then(({ transport, body }) => transport.handleRequest(request, response, body))
      .catch((error: unknown) => {
        response.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
      });
  });
  async function handle(request: IncomingMessage, response: ServerResponse) {
    const body = request.method === 'POST' ? await readJson(request) : undefined;
    const call = body as { method?: unknown; id?: unknown } | undefined;
    if (
      call?.method === 'tools/call' &&
      (typeof call.id === 'string' || typeof call.id === 'number')
    ) {
      const id = call.id;
      callStreams.set(id, response);
      response.once('close', () => {
        if (callStreams.get(id) === response) callStreams.delete(id);
      });
    }
    const id = request.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (known) return { transport: known, body };
    if (typeof id === 'string') throw new Error(`unknown session ${id}`);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      eventStore: new ReplayingEventStore(options.redeliver),
      retryInterval: 100,
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await createDraftServer({ eventSent }).connect(transport);
    return { transport, body };
  }
  http.listen(port, '127.0.0.1', () => {
    const address = http.address();
    const actual = typeof address === 'object' && address ? address.port : port;
    console.error(`drafts-example-server listening on http://127.0.0.1:${actual}/mcp`);
  });
}

function readJson(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    request.on('error', reject);
  });
}

main();
