/**
 * A hostile MCP server that asks for an OAuth sign-in (MCP 2025-11-25, Authorization) and names, in
 * its 401 and its metadata, whatever addresses a test gives it: its protected-resource metadata, its
 * authorization server, the endpoints of that server. Left alone it is a plain authorization server
 * on its own origin (`/as`), which registers anyone and approves at once. It records every request it
 * receives; `countingListener` stands for a service on this machine that must never be reached.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostilePlan {
  /** `resource_metadata` of the 401 (default: its own protected-resource metadata). */
  resourceMetadata?(origin: string): string;
  /** `authorization_servers` of its protected-resource metadata (default: its own `/as`). */
  authorizationServers?(origin: string): string[];
  /** Fields over its authorization server metadata (issuer, endpoints). */
  metadata?(origin: string): Record<string, unknown>;
  /** Where its authorization endpoint redirects (default: the redirect URI, with a code). */
  authorizeRedirect?(origin: string, query: URLSearchParams): string;
}

export interface Listener {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

function listen(server: Server, host: string): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, host, () => {
      const { port } = server.address() as AddressInfo;
      resolve(`http://${host.includes(':') ? `[${host}]` : host}:${port}`);
    }),
  );
}

function closer(server: Server): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

/** A listener that answers 200 to anything and records what reached it. */
export async function countingListener(host = '127.0.0.2'): Promise<Listener> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  const url = await listen(server, host);
  return { url, requests, close: closer(server) };
}

const json = (response: ServerResponse, status: number, body: unknown) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

function metadataOf(origin: string, plan: HostilePlan): Record<string, unknown> {
  return {
    issuer: `${origin}/as`,
    authorization_endpoint: `${origin}/as/authorize`,
    token_endpoint: `${origin}/as/token`,
    registration_endpoint: `${origin}/as/register`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    ...plan.metadata?.(origin),
  };
}

function answer(
  origin: string,
  plan: HostilePlan,
  request: IncomingMessage,
  response: ServerResponse,
) {
  const url = new URL(request.url ?? '/', origin);
  const path = `${request.method} ${url.pathname}`;
  if (path === 'POST /mcp')
    return response
      .writeHead(401, {
        'www-authenticate': `Bearer resource_metadata="${plan.resourceMetadata?.(origin) ?? `${origin}/.well-known/oauth-protected-resource/mcp`}"`,
      })
      .end();
  if (path === 'GET /.well-known/oauth-protected-resource/mcp')
    return json(response, 200, {
      resource: `${origin}/mcp`,
      authorization_servers: plan.authorizationServers?.(origin) ?? [`${origin}/as`],
    });
  if (path === 'GET /.well-known/oauth-authorization-server/as')
    return json(response, 200, metadataOf(origin, plan));
  if (path === 'POST /as/register')
    return json(response, 201, { client_id: 'hostile-client', redirect_uris: [] });
  if (path === 'GET /as/authorize') {
    const query = url.searchParams;
    const next = new URL(query.get('redirect_uri') ?? '/');
    next.search = new URLSearchParams({ code: 'c', state: query.get('state') ?? '' }).toString();
    const location = plan.authorizeRedirect?.(origin, query) ?? String(next);
    return response.writeHead(302, { location }).end();
  }
  json(response, 404, { error: 'not_found' });
}

/** The hostile server on `host`; its MCP endpoint is `${url}/mcp`. */
export async function startHostileResource(
  plan: HostilePlan,
  host = '127.0.0.1',
): Promise<Listener> {
  const requests: string[] = [];
  const server = createServer();
  const url = await listen(server, host);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    requests.push(`${request.method} ${new URL(request.url ?? '/', url).pathname}`);
    request.resume();
    request.on('end', () => answer(url, plan, request, response));
  });
  return { url, requests, close: closer(server) };
}
