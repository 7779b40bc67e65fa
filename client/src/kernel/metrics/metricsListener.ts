/**
 * `/metrics` on a listener of its own, for a kernel that serves no HTTP gateway (the editor's, read
 * by `mgp metrics --http PORT`): on 127.0.0.1 only, behind the request guard (a loopback Host and
 * Origin, then the printed bearer token). Each scrape reads the metrics afresh; a source that fails
 * (the editor closed) answers 503 with the reason.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { refusal } from '../gateway/http/requestGuard';

export interface MetricsListener {
  /** `http://127.0.0.1:PORT/metrics` */
  url: string;
  token: string;
  close(): Promise<void>;
}

type MetricsSource = () => Promise<{ contentType: string; body: string }>;

function plain(res: ServerResponse, status: number, text: string, headers = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end(`${text}\n`);
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  token: string,
  read: MetricsSource,
) {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  if (path !== '/metrics') return plain(res, 404, 'Not found');
  const refused = refusal(req.headers, token);
  if (refused)
    return plain(res, refused.status, refused.message, {
      ...(refused.status === 401 ? { 'www-authenticate': 'Bearer' } : {}),
    });
  if (req.method !== 'GET') return plain(res, 405, 'Method not allowed', { allow: 'GET' });
  try {
    const metrics = await read();
    res.writeHead(200, { 'content-type': metrics.contentType });
    res.end(metrics.body);
  } catch (error) {
    plain(res, 503, error instanceof Error ? error.message : String(error));
  }
}

export function listenForMetrics(port: number, read: MetricsSource): Promise<MetricsListener> {
  const token = randomBytes(32).toString('base64url');
  const server = createServer((req, res) => void answer(req, res, token, read));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const { port: bound } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${bound}/metrics`,
        token,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
