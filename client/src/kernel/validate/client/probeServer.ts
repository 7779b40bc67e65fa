/**
 * The server `mgp validate client` points a client at (MGP §17.8, the client half): Streamable HTTP
 * on 127.0.0.1 at a free port, served by the official SDK's `Server` and transport. Each client
 * session gets a `Server` of its own, made when its initialize arrives, so `capabilities.mgp` is
 * answered only to a client that offered it (MGP §2.4 rule 3) and holds the intersection of the
 * extensions (rule 1). Every message both ways is kept with the time it passed: the checks judge the
 * client from them alone.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  isInitializeRequest,
  type JSONRPCMessage,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { KERNEL_EXTENSIONS, MGP_VERSION } from '../../mgp/negotiation';
import { installProbeHandlers } from './probeHandlers';
import { ProbeSession } from './probeSession';
import type { ClientScenario } from './scenario';

/** What the probe calls itself in `server_id` (MGP §2.3) and serverInfo. */
export const PROBE_SERVER_ID = 'mgp-validate-probe';

const MAX_BODY_BYTES = 4 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) reject(new Error('request body too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        resolve(chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined);
      } catch {
        reject(new Error('request body is not JSON'));
      }
    });
    req.on('error', reject);
  });
}

function refuse(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** The `capabilities.mgp` the probe answers a client that offered `offer` (MGP §2.3, §2.4). */
function mgpAnswer(offer: unknown, scenario: ClientScenario): Record<string, unknown> | undefined {
  if (typeof offer !== 'object' || offer === null) return undefined;
  const offered = (offer as { extensions?: unknown }).extensions;
  const theirs = Array.isArray(offered) ? offered.filter((e) => typeof e === 'string') : [];
  return {
    version: MGP_VERSION,
    extensions: KERNEL_EXTENSIONS.filter((name) => theirs.includes(name)),
    server_id: PROBE_SERVER_ID,
    trust_level: 'standard',
    ...(scenario.permissionsRequired && { permissions_required: scenario.permissionsRequired }),
    ...(scenario.eventChannels && { event_channels: scenario.eventChannels }),
  };
}

export class ProbeServer {
  readonly sessions: ProbeSession[] = [];
  private readonly transports = new Map<string, StreamableHTTPServerTransport>();
  private readonly http: HttpServer;
  private port = 0;
  /**
   * A secret path: only the client under test, told the URL, reaches the probe; another local
   * process (or a page a browser was rebound to) cannot guess it.
   */
  private readonly path = `/${randomBytes(16).toString('hex')}/mcp`;

  private constructor(
    readonly scenario: ClientScenario,
    readonly facts: Record<string, unknown>,
  ) {
    this.http = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) =>
        refuse(res, 500, error instanceof Error ? error.message : String(error)),
      );
    });
  }

  static async start(
    scenario: ClientScenario,
    facts: Record<string, unknown>,
  ): Promise<ProbeServer> {
    const probe = new ProbeServer(scenario, facts);
    await new Promise<void>((resolve, reject) => {
      probe.http.once('error', reject);
      probe.http.listen(0, '127.0.0.1', () => resolve());
    });
    probe.port = (probe.http.address() as AddressInfo).port;
    return probe;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}${this.path}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== this.path)
      return refuse(res, 404, 'not found');
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? this.transports.get(id) : undefined;
    if (known) {
      this.sessionOf(id as string)?.received(body);
      return known.handleRequest(req, res, body);
    }
    if (typeof id === 'string') return refuse(res, 404, 'unknown or ended session');
    if (req.method !== 'POST' || !isInitializeRequest(body))
      return refuse(res, 400, 'no session: start with initialize');
    const session = new ProbeSession(body.params as unknown as Record<string, unknown>);
    session.received(body);
    const transport = await this.open(session);
    return transport.handleRequest(req, res, body);
  }

  private sessionOf(id: string): ProbeSession | undefined {
    return this.sessions.find((session) => session.id === id);
  }

  /** A transport and an SDK Server for one client session, answering as the scenario says. */
  private async open(session: ProbeSession): Promise<StreamableHTTPServerTransport> {
    const mgp = mgpAnswer(session.offer.mgp, this.scenario);
    session.negotiate(mgp);
    const capabilities = { tools: {}, ...(mgp && { mgp }) } as ServerCapabilities;
    const server = new Server({ name: PROBE_SERVER_ID, version: MGP_VERSION }, { capabilities });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        session.id = id;
        this.sessions.push(session);
        this.transports.set(id, transport);
      },
    });
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage, options) => {
      session.sent(message);
      return send(message, options);
    };
    transport.onclose = () => session.close();
    installProbeHandlers(server, session, this.scenario, this.facts);
    await server.connect(transport);
    return transport;
  }

  async close(): Promise<void> {
    for (const session of this.sessions) session.close();
    await Promise.allSettled([...this.transports.values()].map((t) => t.close()));
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }
}
