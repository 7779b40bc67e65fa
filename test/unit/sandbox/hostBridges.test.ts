import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openHostBridges } from '../../../client/src/kernel/sandbox/hostBridges';
import { portSocket, PROXY_SOCKET } from '../../../client/src/kernel/sandbox/bridgeNames';

/** Sends `request` over the Unix socket and answers everything that came back. */
function exchange(socketPath: string, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath, () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.once('end', () => resolve(answer));
    socket.once('error', reject);
  });
}

describe('the kernel’s end of a sandbox’s network', () => {
  let folder = '';
  const site = createHttpServer((_req, res) => res.end('hello from the allowed host'));
  let port = 0;

  before(async () => {
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    port = (site.address() as { port: number }).port;
  });
  after(() => site.close());
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'mgp-bridges-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('passes an allowed port through its socket to the host’s loopback', async () => {
    const bridges = await openHostBridges({ folder, ports: [port], guard: async () => ({}) });
    try {
      const answer = await exchange(
        join(folder, portSocket(port)),
        'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      );
      assert.match(answer, /hello from the allowed host/);
    } finally {
      await bridges.close();
    }
  });

  it('proxies a listed domain to the address the guard checked, and refuses the rest', async () => {
    const asked: string[] = [];
    const bridges = await openHostBridges({
      folder,
      ports: [],
      domains: ['allowed.test', '*.also.test'],
      guard: async (host) => {
        asked.push(host);
        return host === 'private.also.test'
          ? { refused: `${host} resolves to 10.0.0.1, a private address` }
          : { address: '127.0.0.1' };
      },
    });
    const proxy = join(folder, PROXY_SOCKET);
    const get = (host: string) =>
      exchange(
        proxy,
        `GET http://${host}:${port}/ HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      );
    try {
      assert.match(await get('allowed.test'), /hello from the allowed host/);
      assert.match(await get('elsewhere.test'), /^HTTP\/1\.1 403[\s\S]*not among the domains/);
      assert.match(await get('private.also.test'), /^HTTP\/1\.1 403[\s\S]*private address/);
      const tunnel = await exchange(
        proxy,
        `CONNECT allowed.test:${port} HTTP/1.1\r\nHost: allowed.test\r\n\r\nGET / HTTP/1.1\r\nHost: allowed.test\r\nConnection: close\r\n\r\n`,
      );
      assert.match(
        tunnel,
        /^HTTP\/1\.1 200 Connection Established[\s\S]*hello from the allowed host/,
      );
      assert.deepEqual(asked, ['allowed.test', 'private.also.test', 'allowed.test']);
    } finally {
      await bridges.close();
    }
  });
});
