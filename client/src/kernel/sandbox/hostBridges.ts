/**
 * The kernel's end of a sandboxed server's network: a server with no network of its own reaches the
 * host only through these. Each allowed loopback port is a Unix socket in the server's bridge folder
 * that connects on to 127.0.0.1:PORT; with `network = "domains"`, an HTTP proxy (CONNECT for https,
 * absolute URLs for http) lets through only the listed hosts, and only to public addresses: the
 * name is resolved here and the connection made to the address that was checked.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { portSocket, PROXY_SOCKET } from './bridgeNames';

export interface HostBridges {
  /** The proxy's loopback TCP port, when it listens on one (where no network namespace is made). */
  proxyPort?: number;
  close(): Promise<void>;
}

function listen(server: Server, at: string | { port: 0; host: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(at, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function pipeBoth(a: Socket, b: Socket): void {
  a.pipe(b);
  b.pipe(a);
  const end = () => {
    a.destroy();
    b.destroy();
  };
  a.once('error', end);
  b.once('error', end);
  a.once('close', end);
  b.once('close', end);
}

function portBridge(port: number): Server {
  return createServer((inside) => pipeBoth(inside, connect({ host: '127.0.0.1', port })));
}

/** `api.github.com` matches itself; `*.github.com` matches any name below github.com. */
export function domainAllowed(host: string, domains: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return domains.some((entry) => {
    const domain = entry.toLowerCase();
    return domain.startsWith('*.') ? name.endsWith(domain.slice(1)) : name === domain;
  });
}

/**
 * Resolves a host name to one address a connection may go to, or says why none: the kernel's guard
 * against loopback, private, link-local and metadata addresses.
 */
export type AddressGuard = (host: string) => Promise<{ address?: string; refused?: string }>;

function refuse(socket: Socket, status: string, why: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${why}\n`);
}

/** The head of one proxy request: method, target, and the bytes read past the head. */
function readHead(socket: Socket): Promise<{ head: string; rest: Buffer } | undefined> {
  return new Promise((resolve) => {
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1 && buffered.length < 64 * 1024) return;
      socket.off('data', onData);
      if (end === -1) return resolve(undefined);
      resolve({
        head: buffered.subarray(0, end).toString('latin1'),
        rest: buffered.subarray(end + 4),
      });
    };
    socket.on('data', onData);
    socket.once('close', () => resolve(undefined));
  });
}

async function proxyConnection(
  socket: Socket,
  domains: readonly string[],
  guard: AddressGuard,
): Promise<void> {
  socket.on('error', () => socket.destroy());
  const read = await readHead(socket);
  if (!read) return void socket.destroy();
  const [method = '', target = ''] = read.head.split('\r\n')[0].split(' ');
  const connectForm = method.toUpperCase() === 'CONNECT';
  let url: URL;
  try {
    url = new URL(connectForm ? `https://${target}` : target);
  } catch {
    return refuse(
      socket,
      '400 Bad Request',
      'the proxy takes CONNECT host:port or an absolute URL',
    );
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!domainAllowed(host, domains))
    return refuse(
      socket,
      '403 Forbidden',
      `${host} is not among the domains this server may reach`,
    );
  const checked = await guard(host);
  if (!checked.address) return refuse(socket, '403 Forbidden', checked.refused ?? 'refused');
  const port = Number(url.port) || (url.protocol === 'http:' ? 80 : 443);
  const upstream = connect({ host: checked.address, port }, () => {
    if (connectForm) socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    else upstream.write(`${read.head}\r\n\r\n`);
    if (read.rest.length) upstream.write(read.rest);
    pipeBoth(socket, upstream);
  });
  upstream.once('error', () => refuse(socket, '502 Bad Gateway', `cannot reach ${host}`));
}

export interface BridgeRequest {
  /** The folder the sockets go in (bound into the sandbox at the same path). */
  folder: string;
  ports: readonly number[];
  domains?: readonly string[];
  /** The proxy listens on a loopback TCP port instead of a socket in the folder. */
  proxyOnLoopback?: boolean;
  guard: AddressGuard;
}

export async function openHostBridges(request: BridgeRequest): Promise<HostBridges> {
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  const track = (server: Server) => {
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    servers.push(server);
    return server;
  };
  for (const port of request.ports)
    await listen(track(portBridge(port)), join(request.folder, portSocket(port)));
  const domains = request.domains;
  let proxyPort: number | undefined;
  if (domains) {
    const proxy = track(
      createServer((socket) => void proxyConnection(socket, domains, request.guard)),
    );
    await listen(
      proxy,
      request.proxyOnLoopback ? { port: 0, host: '127.0.0.1' } : join(request.folder, PROXY_SOCKET),
    );
    const address = proxy.address();
    if (typeof address === 'object' && address) proxyPort = address.port;
  }
  return {
    proxyPort,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((s) => new Promise<void>((done) => s.close(() => done()))));
    },
  };
}
