/**
 * The gateway on Streamable HTTP (MCP 2025-11-25 transports): one endpoint, `/mcp`, on 127.0.0.1 only,
 * behind the request guard (loopback Host and Origin, then the bearer token). Each client session has
 * its own transport (session id, resumable SSE streams) and is served by whatever `serve` connects it
 * to: a gateway session on this process's kernel, or a relay to the editor's.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { BoundedEventStore } from './eventStore';
import { refusal } from './requestGuard';

/** Connects one new client transport to whatever serves it; resolves once it is connected. */
export type SessionConnector = (transport: StreamableHTTPServerTransport) => Promise<void>;

export interface HttpFrontOptions {
  /** 0 picks a free port. */
  port: number;
  connect: SessionConnector;
  /** A token to require; a new random one when left out. */
  token?: string;
  /** Sessions at once; more are refused (503) until one ends. */
  maxSessions?: number;
}

/** How long a client should wait before reconnecting a closed SSE stream (SEP-1699). */
const RETRY_MS = 1000;
const DEFAULT_MAX_SESSIONS = 64;

function jsonError(res: ServerResponse, status: number, message: string, headers = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

export class HttpFront {
  readonly token: string;
  private readonly server: Server;
  private readonly sessions = new Map<string, StreamableHTTPServerTransport>();
  private readonly maxSessions: number;

  private constructor(private readonly options: HttpFrontOptions) {
    this.token = options.token ?? randomBytes(32).toString('base64url');
    this.maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) =>
        jsonError(
          res,
          500,
          `Internal error: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    });
  }

  /** Listens on 127.0.0.1 (never another interface). */
  static async listen(options: HttpFrontOptions): Promise<HttpFront> {
    const front = new HttpFront(options);
    await new Promise<void>((resolve, reject) => {
      front.server.once('error', reject);
      front.server.listen(options.port, '127.0.0.1', () => resolve());
    });
    return front;
  }

  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/mcp`;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = refusal(req.headers, this.token);
    if (refused) {
      jsonError(
        res,
        refused.status,
        refused.message,
        refused.status === 401 ? { 'www-authenticate': 'Bearer' } : {},
      );
      return;
    }
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/mcp') {
      jsonError(res, 404, 'Not found: the MCP endpoint is /mcp');
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = this.sessions.get(sessionId);
      if (!transport) jsonError(res, 404, 'Session not found: initialize a new one');
      else await transport.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST') {
      jsonError(res, 400, 'Bad request: no session id', { allow: 'POST' });
      return;
    }
    if (this.sessions.size >= this.maxSessions) {
      jsonError(res, 503, 'Too many sessions: close one first', { 'retry-after': '5' });
      return;
    }
    await this.newSession(req, res);
  }

  /** A POST without a session id: the transport takes it when it is an initialize, and refuses it otherwise. */
  private async newSession(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new BoundedEventStore(),
      retryInterval: RETRY_MS,
      onsessioninitialized: (id) => void this.sessions.set(id, transport),
      onsessionclosed: (id) => void this.sessions.delete(id),
    });
    const previous = transport.onclose;
    await this.options.connect(transport);
    const connectedClose = transport.onclose;
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
      (connectedClose ?? previous)?.();
    };
    await transport.handleRequest(req, res);
    if (!transport.sessionId) await transport.close();
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((transport) => transport.close()));
    this.sessions.clear();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
