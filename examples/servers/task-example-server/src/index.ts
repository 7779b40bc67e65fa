/**
 * The task example server over stdio (no arguments) or Streamable HTTP (`--port N`, at /mcp).
 * stdout carries the protocol only; logs go to stderr.
 */
import { randomUUID } from 'node:crypto';
import { createServer, IncomingMessage } from 'node:http';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createTaskExampleServer, SharedTaskStore } from './server';

const store = new SharedTaskStore();
const portArg = process.argv.indexOf('--port');

if (portArg < 0) {
  createTaskExampleServer(store)
    .connect(new StdioServerTransport())
    .catch((error: unknown) => {
      console.error('task-example-server failed:', error);
      process.exit(1);
    });
} else {
  serveHttp(Number(process.argv[portArg + 1]));
}

function serveHttp(port: number): void {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((request, response) => {
    void handle(request)
      .then(({ transport, body }) => transport.handleRequest(request, response, body))
      .catch((error: unknown) => {
        response.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
      });
  });
  async function handle(request: IncomingMessage) {
    const body = request.method === 'POST' ? await readJson(request) : undefined;
    const id = request.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (known) return { transport: known, body };
    if (typeof id === 'string') throw new Error(`unknown session ${id}`);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await createTaskExampleServer(store).connect(transport);
    return { transport, body };
  }
  http.listen(port, '127.0.0.1', () => {
    const address = http.address();
    const actual = typeof address === 'object' && address ? address.port : port;
    console.error(`task-example-server listening on http://127.0.0.1:${actual}/mcp`);
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
