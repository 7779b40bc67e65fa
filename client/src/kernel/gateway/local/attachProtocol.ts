/**
 * How `mgp serve` finds and attaches to the kernel of an editor open on the same folder.
 *
 * The editor listens on a local socket (a Unix socket in a directory only its user can enter, or a
 * named pipe on Windows) and writes `editor.json` (user-only) into the workspace's state directory:
 * the socket's path and a random token. `mgp serve` reads it, connects, and sends one line,
 * `{"token": …, "expose": "meta" | "all", "names"?: "spec" | "safe"}`; the editor answers `{"attached": true}` (or `{"error": …}`
 * and closes). From then on the socket carries MCP messages, one JSON-RPC message a line.
 * `mgp metrics` sends `{"token": …, "metrics": true}` instead: the editor answers
 * `{"metrics": {"contentType": …, "body": …}}` (its kernel's metrics, when the person turned them on)
 * or `{"error": …}`, and closes.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import type { GatewayMode } from '../toolListing';

export const DESCRIPTOR_FILE = 'editor.json';
/** The handshake line's limit: anything longer is not a handshake. */
const MAX_HANDSHAKE_BYTES = 4096;
/** The metrics answer's limit: a label per server and tool, never megabytes more. */
export const MAX_METRICS_BYTES = 16 * 1024 * 1024;

export interface EditorDescriptor {
  socket: string;
  token: string;
  pid: number;
  folder: string;
}

export interface AttachRequest {
  token: string;
  mode: GatewayMode;
}

/** A scrape of the editor kernel's metrics, in Prometheus's text format. */
export interface MetricsText {
  contentType: string;
  body: string;
}

export function descriptorPath(stateDir: string): string {
  return join(stateDir, DESCRIPTOR_FILE);
}

/** A socket path short enough for every platform's limit (Unix sockets: about 100 bytes). */
export function socketPath(runtimeDir: string, stateDir: string, nonce: string): string {
  const key = createHash('sha256').update(stateDir).digest('hex').slice(0, 12);
  return process.platform === 'win32'
    ? `\\\\.\\pipe\\mgp-${key}-${nonce}`
    : join(runtimeDir, `${key}-${nonce}.sock`);
}

/** Reads the first line of a socket; resolves with it parsed and the bytes after it. */
export function readHandshake(
  socket: Socket,
  timeoutMs: number,
  maxBytes = MAX_HANDSHAKE_BYTES,
): Promise<{ line: unknown; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const done = (error?: Error, result?: { line: unknown; rest: Buffer }) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      if (error) reject(error);
      else resolve(result!);
    };
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\n');
      if (end === -1) {
        if (buffered.length > maxBytes) done(new Error('the handshake is too long'));
        return;
      }
      try {
        const line: unknown = JSON.parse(buffered.subarray(0, end).toString('utf8'));
        done(undefined, { line, rest: buffered.subarray(end + 1) });
      } catch {
        done(new Error('the handshake is not JSON'));
      }
    };
    const onClose = () => done(new Error('the socket closed during the handshake'));
    const timer = setTimeout(() => done(new Error('no handshake in time')), timeoutMs);
    socket.on('data', onData);
    socket.on('close', onClose);
  });
}

export function writeLine(socket: Socket, value: unknown): void {
  socket.write(`${JSON.stringify(value)}\n`);
}
