/**
 * The gateway on Streamable HTTP (MCP 2025-11-25 transports): one endpoint, `/mcp`, on 127.0.0.1
 * behind the request guard (loopback Host and Origin, then the bearer token), or, as a team's
 * gateway, on any address behind OAuth (requestAuth.ts), each session its person's alone, with
 * limits per person; `/metrics` beside it when asked. Each client session has
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
import { tokenAuth, type Purpose, type RequestAuth } from './requestAuth';
import { isLoopbackAddress } from './listenAddress';
import { UserRate } from './userRate';
import { SessionEnd, SessionEntry, SessionTable } from './sessionTable';

/**
 * Connects one new client transport to whatever serves it, in the name of `user` on a team gateway;
 * resolves once it is connected.
 */
export type SessionConnector = (
  transport: StreamableHTTPServerTransport,
  user?: string,
) => Promise<void>;

export interface HttpFrontOptions {
  /** 0 picks a free port. */
  port: number;
  /** The address to listen on: 127.0.0.1 unless given; beyond loopback only with `auth` a team's. */
  bind?: string;
  connect: SessionConnector;
  /** A token to require; a new random one when left out. */
  token?: string;
  /** Who may call, as whom: the token on loopback unless given (requestAuth.ts). */
  auth?: (token: string) => RequestAuth;
  /** `/metrics` in Prometheus's text format, when given. */
  metrics?: () => Promise<{ contentType: string; body: string }>;
  /** A team gateway's limits per person: sessions at once, and requests a minute. */
  perUser?: { sessions: number; requestsPerMinute: number };
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
  private readonly auth: RequestAuth;
  /** On a team gateway, the person each session belongs to: only they may use it. */
  private readonly owners = new Map<string, string>();
  private readonly rate: UserRate | undefined;

  private constructor(private readonly options: HttpFrontOptions) {
    this.token = options.token ?? randomBytes(32).toString('base64url');
    this.auth = (options.auth ?? tokenAuth)(this.token);
    this.rate = options.perUser && new UserRate(options.perUser.requestsPerMinute);
    this.sessions = new SessionTable(
      {
        maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
        // On a team gateway a session's share is its person's, whatever client they use.
        maxPerClient:
          options.perUser?.sessions ??
          options.maxSessionsPerClient ??
          DEFAULT_MAX_SESSIONS_PER_CLIENT,
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

  /**
   * Listens on 127.0.0.1, or on `bind`: an address beyond loopback only for a team gateway, whose
   * every request carries an OAuth token (requestAuth.ts).
   */
  static async listen(options: HttpFrontOptions): Promise<HttpFront> {
    const front = new HttpFront(options);
    const bind = options.bind ?? '127.0.0.1';
    if (!isLoopbackAddress(bind) && !front.auth.team)
      throw new Error(
        `mgp serve listens on ${bind} only with OAuth (--oauth-issuer): beyond loopback a printed token is not enough`,
      );
    await new Promise<void>((resolve, reject) => {
      front.server.once('error', reject);
      front.server.listen(options.port, bind, () => resolve());
    });
    return front;
  }

  get url(): string {
    const { address, port } = this.server.address() as AddressInfo;
    const host = address.includes(':') ? `[${address}]` : address;
    return `http://${host}:${port}/mcp`;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const document = req.method === 'GET' ? this.auth.wellKnown(path) : undefined;
    if (document) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(document));
      return;
    }
    const purpose: Purpose = path === '/metrics' && this.options.metrics ? 'metrics' : 'mcp';
    const admission = this.auth.admit(req.headers, purpose);
    const admitted = admission instanceof Promise ? await admission : admission;
    if (!admitted.ok) {
      jsonError(
        res,
        admitted.status,
        admitted.message,
        admitted.challenge ? { 'www-authenticate': admitted.challenge } : {},
      );
      return;
    }
    if (purpose === 'metrics') return this.serveMetrics(res);
    if (path !== '/mcp') {
      jsonError(res, 404, 'Not found: the MCP endpoint is /mcp');
      return;
    }
    const user = admitted.user;
    const wait = user !== undefined && this.rate ? this.rate.take(user) : 0;
    if (wait)
      return jsonError(res, 429, `Too many requests from ${user}: wait ${wait} s`, {
        'retry-after': String(wait),
      });
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const entry = this.sessions.get(sessionId);
      // Another person's session is not theirs to use, nor to learn exists.
      if (!entry || this.owners.get(sessionId) !== user)
        return jsonError(res, 404, 'Session not found: initialize a new one');
      this.sessions.track(entry, (closed) => res.once('close', closed));
      await entry.transport.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST') {
      jsonError(res, 400, 'Bad request: no session id', { allow: 'POST' });
      return;
    }
    await this.newSession(req, res, user);
  }

  private async serveMetrics(res: ServerResponse): Promise<void> {
    const metrics = await this.options.metrics?.();
    if (!metrics) return jsonError(res, 404, 'Not found');
    res.writeHead(200, { 'content-type': metrics.contentType });
    res.end(metrics.body);
  }

  /**
   * A POST without a session id: the transport takes it when it is an initialize, and refuses it
   * otherwise. An initialize first gets room, ending the sessions that must give way for it.
   */
  private async newSession(
    req: IncomingMessage,
    res: ServerResponse,
    user: string | undefined,
  ): Promise<void> {
    const body = await readOpeningBody(req);
    if (!body.ok) return jsonError(res, body.status, body.message);
    const holder = user === undefined ? body.client : `@${user}`;
    if (body.initialize && !this.sessions.makeRoom(holder)) {
      jsonError(res, 503, 'Too many active sessions: close one first', { 'retry-after': '5' });
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new BoundedEventStore(),
      retryInterval: RETRY_MS,
      onsessioninitialized: (id) => {
        if (user !== undefined) this.owners.set(id, user);
        const entry = this.sessions.add(id, holder, transport);
        this.sessions.track(entry, (closed) => res.once('close', closed));
      },
      onsessionclosed: (id) => this.ended(id, 'closed'),
    });
    const previous = transport.onclose;
    await this.options.connect(transport, user);
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
    this.owners.delete(id);
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
