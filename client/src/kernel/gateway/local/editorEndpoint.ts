/**
 * The editor's side of attaching: a local socket that serves `mgp serve` processes started on the
 * same folder, each session a gateway session on the editor's own kernel, so their approvals are
 * asked in the editor and their calls land in the editor's audit log (attachProtocol.ts).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { GatewayMode } from '../toolListing';
import {
  type AttachRequest,
  descriptorPath,
  type EditorDescriptor,
  type MetricsText,
  readHandshake,
  socketPath,
  writeLine,
} from './attachProtocol';
import { privateRuntimeDir } from './runtimeDir';
import { SocketTransport } from './socketTransport';

const HANDSHAKE_MS = 5000;
const MAX_CONNECTIONS = 64;

export interface EditorEndpointOptions {
  /** The workspace's state directory (audit/location.ts): where `editor.json` goes. */
  stateDir: string;
  folder: string;
  env: Record<string, string | undefined>;
  /** Serves one attached client: a gateway session in that mode over the transport. */
  connect(transport: Transport, mode: GatewayMode): Promise<void>;
  /** The kernel's metrics for `mgp metrics`; undefined while the person has them off. */
  metrics?(): Promise<MetricsText> | undefined;
  onProblem?(message: string): void;
}

function sameSecret(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

function attachRequest(line: unknown): AttachRequest | undefined {
  if (typeof line !== 'object' || line === null) return undefined;
  const { token, expose, names } = line as Record<string, unknown>;
  if (typeof token !== 'string' || (expose !== 'meta' && expose !== 'all')) return undefined;
  if (names !== undefined && names !== 'spec' && names !== 'safe') return undefined;
  return { token, mode: { expose, ...(names ? { names } : {}) } };
}

/** `{token, metrics: true}`: a scrape, not a session. */
function metricsRequest(line: unknown): { token: string } | undefined {
  if (typeof line !== 'object' || line === null) return undefined;
  const { token, metrics } = line as Record<string, unknown>;
  return typeof token === 'string' && metrics === true ? { token } : undefined;
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export class EditorEndpoint {
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly options: EditorEndpointOptions,
    private readonly server: Server,
    private readonly token: string,
    readonly socket: string,
  ) {
    server.on('connection', (socket) => void this.accept(socket));
  }

  static async listen(options: EditorEndpointOptions): Promise<EditorEndpoint> {
    const token = randomBytes(32).toString('base64url');
    const runtime = process.platform === 'win32' ? '' : await privateRuntimeDir(options.env);
    const path = socketPath(runtime, options.stateDir, randomBytes(4).toString('hex'));
    const server = createServer();
    server.maxConnections = MAX_CONNECTIONS;
    const endpoint = new EditorEndpoint(options, server, token, path);
    await listen(server, path);
    if (process.platform !== 'win32') await chmod(path, 0o600);
    await endpoint.writeDescriptor();
    return endpoint;
  }

  get descriptorFile(): string {
    return descriptorPath(this.options.stateDir);
  }

  private async writeDescriptor(): Promise<void> {
    const descriptor: EditorDescriptor = {
      socket: this.socket,
      token: this.token,
      pid: process.pid,
      folder: this.options.folder,
    };
    await mkdir(this.options.stateDir, { recursive: true, mode: 0o700 });
    const temporary = `${this.descriptorFile}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(descriptor), { mode: 0o600 });
    await rename(temporary, this.descriptorFile);
  }

  private async accept(socket: Socket): Promise<void> {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    try {
      const { line, rest } = await readHandshake(socket, HANDSHAKE_MS);
      const scrape = metricsRequest(line);
      if (scrape) return await this.answerMetrics(socket, scrape.token);
      const request = attachRequest(line);
      if (!request || !sameSecret(request.token, this.token)) {
        writeLine(socket, { error: 'refused: not a valid attach request for this editor' });
        socket.end();
        return;
      }
      writeLine(socket, { attached: true });
      await this.options.connect(new SocketTransport(socket, rest), request.mode);
    } catch (error) {
      this.options.onProblem?.(
        `a local client could not attach: ${error instanceof Error ? error.message : String(error)}`,
      );
      socket.destroy();
    }
  }

  private async answerMetrics(socket: Socket, token: string): Promise<void> {
    const metrics = sameSecret(token, this.token) ? this.options.metrics?.() : undefined;
    if (!sameSecret(token, this.token))
      writeLine(socket, { error: 'refused: not a valid request for this editor' });
    else if (!metrics)
      writeLine(socket, {
        error: "metrics are off in the editor: turn on the setting 'mgp.metrics.enabled'",
      });
    else writeLine(socket, { metrics: await metrics });
    socket.end();
  }

  /** Stops listening, ends the attached clients, and removes `editor.json` if it is still ours. */
  async close(): Promise<void> {
    // server.close() waits for open connections: end them first.
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
    const current = await readFile(this.descriptorFile, 'utf8').catch(() => '');
    if (current.includes(this.token)) await rm(this.descriptorFile, { force: true });
  }
}
