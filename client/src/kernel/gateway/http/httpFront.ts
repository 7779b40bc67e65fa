/**
 * The gateway on Streamable HTTP (MCP 2025-11-25 transports): one endpoint, `/mcp`, on 127.0.0.1 only,
 * behind the request guard (loopback Host and Origin, then the bearer token). Each client session has
 * its own transport (session id, resumable SSE streams) and is served by whatever `serve` connects it
 * to: a gateway session on this process's kernel, or a relay to the editor's. Sessions end when the
 * client deletes them, when idle for `idleTimeoutMs`, or when a newer one needs their room
 * (sessionTable.ts); ending one closes its transport, and with it what serves it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { BoundedEventStore } from './eventStore';
import { readOpeningBody } from './initializeBody';
import { refusal } from './requestGuard';
import { SessionEnd, SessionEntry, SessionTable } from './sessionTable';

/** Connects one new client transport to whatever serves it; resolves once it is connected. */
export type SessionConnector = (transport: StreamableHTTPServerTransport) => Promise<void>;

export interface HttpFrontOptions {
  /** 0 picks a free port. */
  port: number;
  connect: SessionConnector;
  /** A token to require; a new random one when left out. */
  token?: string;
  /** Sessions at once (64 by default): past it the least recently active idle one gives way. */
  maxSessions?: number;
  /** Sessions of one client (by its initialize name) at once; 16 by default. */
  maxSessionsPerClient?: number;
  /** A session with no request open for this long ends; 10 minutes by default. */
  idleTimeoutMs?: number;
  /** Told of each session that ends, and why. */
  onSessionEnded?(session: EndedSession): void;
}

export interface EndedSession {
  id: string;
  client: string;
  why: SessionEnd;
}

/** How long a client should wait before reconnecting a closed SSE stream (SEP-1699). */
const RETRY_MS = 1000;
export const DEFAULT_MAX_SESSIONS = 64;
export const DEFAULT_MAX_SESSIONS_PER_CLIENT = 16;
export const DEFAULT_IDLE_TIMEOUT_MS = 10 * 60_000;

function jsonError(res: ServerResponse, status: number, message: string, headers = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

export class HttpFront {
  readonly token: string;
  private readonly server: Server;
  private readonly sessions: SessionTable;

  private constructor(private readonly options: HttpFrontOptions) {
    this.token = options.token ?? randomBytes(32).toString('base64url');
    this.sessions = new SessionTable(
      {
        maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
        maxPerClient: options.maxSessionsPerClient ?? DEFAULT_MAX_SESSIONS_PER_CLIENT,
        idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
      },
      (entry, why) => this.endSession(entry, why),
    );
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
      const entry = this.sessions.get(sessionId);
      if (!entry) return jsonError(res, 404, 'Session not found: initialize a new one');
      this.sessions.track(entry, (closed) => res.once('close', closed));
      await entry.transport.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST') {
      jsonError(res, 400, 'Bad request: no session id', { allow: 'POST' });
      return;
    }
    await this.newSession(req, res);
  }

  /**
   * A POST without a session id: the transport takes it when it is an initialize, and refuses it
   * otherwise. An initialize first gets room, ending the sessions that must give way for it.
   */
  private async newSession(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readOpeningBody(req);
    if (!body.ok) return jsonError(res, body.status, body.message);
    if (body.initialize && !this.sessions.makeRoom(body.client)) {
      jsonError(res, 503, 'Too many active sessions: close one first', { 'retry-after': '5' });
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new BoundedEventStore(),
      retryInterval: RETRY_MS,
      onsessioninitialized: (id) => {
        const entry = this.sessions.add(id, body.client, transport);
        this.sessions.track(entry, (closed) => res.once('close', closed));
      },
      onsessionclosed: (id) => this.ended(id, 'closed'),
    });
    const previous = transport.onclose;
    await this.options.connect(transport);
    const connectedClose = transport.onclose;
    transport.onclose = () => {
      if (transport.sessionId) this.ended(transport.sessionId, 'closed');
      (connectedClose ?? previous)?.();
    };
    await transport.handleRequest(req, res, body.parsed);
    if (!transport.sessionId) await transport.close();
  }

  /** Ends a session the table gives up (idle, or making room): its transport closes. */
  private endSession(entry: SessionEntry, why: SessionEnd): void {
    this.ended(entry.id, why);
    void entry.transport.close().catch(() => undefined);
  }

  private ended(id: string, why: SessionEnd): void {
    const entry = this.sessions.remove(id);
    if (entry) this.options.onSessionEnded?.({ id, client: entry.client, why });
  }

  async close(): Promise<void> {
    const open = this.sessions.all();
    for (const entry of open) this.sessions.remove(entry.id);
    await Promise.all(open.map((entry) => entry.transport.close()));
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
