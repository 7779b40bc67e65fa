import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IconCache } from '../../client/src/kernel/icons/iconCache';
import { fetchIcon } from '../../client/src/kernel/icons/iconFetch';
import { markUsed, pruneShelf } from '../../client/src/kernel/icons/iconShelf';
import {
  ICON_MAX_BYTES,
  iconsOf,
  judgeIcon,
  pickIcons,
  type ServerIcon,
} from '../../client/src/kernel/icons/iconPolicy';
import { repoRoot } from '../repoRoot';
import { HANG_MS } from '../support/patience';

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAAAAACwAAAAAAQABAAA=', 'base64');
const dataUri = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;
const refusal = (icon: ServerIcon) => {
  const verdict = judgeIcon(icon);
  assert.equal(verdict.ok, false, `${icon.src.slice(0, 60)} was accepted`);
  return (verdict as { reason: string }).reason;
};

describe('server icons: which the kernel shows', () => {
  it('takes a base64 data: URI of a PNG, and of a GIF, JPEG or WebP that is one', () => {
    const png = judgeIcon({ src: dataUri('image/png', PNG), mimeType: 'image/png' });
    assert.ok(png.ok && png.source.kind === 'data' && png.source.mimeType === 'image/png');
    assert.ok(judgeIcon({ src: dataUri('image/gif', GIF) }).ok);
  });

  it('takes an https URL to a public host, to be fetched by the kernel', () => {
    const verdict = judgeIcon({ src: 'https://cdn.example.com/icon.png' });
    assert.ok(verdict.ok && verdict.source.kind === 'https');
  });

  it('refuses SVG, as a data: URI, by its mime type, and as bytes under a raster label', () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>x</script></svg>');
    assert.match(refusal({ src: dataUri('image/svg+xml', svg) }), /image\/svg\+xml/);
    assert.match(
      refusal({ src: 'https://cdn.example.com/i.svg', mimeType: 'image/svg+xml' }),
      /svg/,
    );
    assert.match(refusal({ src: dataUri('image/png', svg) }), /not a PNG/);
  });

  it('refuses bytes that are another image than they claim', () => {
    assert.match(refusal({ src: dataUri('image/png', GIF) }), /says image\/png but is image\/gif/);
  });

  it('refuses http:, file:, javascript:, other schemes and relative URIs', () => {
    assert.match(refusal({ src: 'http://cdn.example.com/icon.png' }), /http: URI/);
    assert.match(refusal({ src: 'file:///etc/passwd' }), /file: URI/);
    assert.match(refusal({ src: 'javascript:alert(1)' }), /javascript: URI/);
    assert.match(refusal({ src: 'vscode-file://vscode-app/x.png' }), /vscode-file: URI/);
    assert.match(refusal({ src: 'icon.png' }), /relative URI/);
  });

  it('refuses https URLs to loopback, private, link-local and metadata hosts, and with credentials', () => {
    assert.match(refusal({ src: 'https://127.0.0.1/i.png' }), /loopback/);
    assert.match(refusal({ src: 'https://localhost/i.png' }), /loopback/);
    assert.match(refusal({ src: 'https://0x7f000001/i.png' }), /loopback/);
    assert.match(refusal({ src: 'https://[::1]/i.png' }), /loopback/);
    assert.match(refusal({ src: 'https://192.168.1.10/i.png' }), /private/);
    assert.match(refusal({ src: 'https://169.254.169.254/i.png' }), /metadata/);
    assert.match(refusal({ src: 'https://printer.local/i.png' }), /private-use/);
    assert.match(refusal({ src: 'https://user:pw@cdn.example.com/i.png' }), /credentials/);
  });

  it('refuses a data: URI over the size bound, not in base64, or malformed', () => {
    const big = Buffer.concat([PNG, Buffer.alloc(ICON_MAX_BYTES)]);
    assert.match(refusal({ src: dataUri('image/png', big) }), /longer than|larger than/);
    assert.match(refusal({ src: `data:image/png,${PNG.toString('latin1')}` }), /not in base64/);
    assert.match(refusal({ src: 'data:image/png;base64' }), /malformed/);
  });

  it('reads only well-formed icon lists, and picks each theme’s icon among those it may show', () => {
    assert.deepEqual(iconsOf('not a list'), []);
    assert.deepEqual(iconsOf([{ src: 1 }, null, 'x']), []);
    const light = { src: dataUri('image/png', PNG), theme: 'light' as const };
    const dark = { src: dataUri('image/gif', GIF), theme: 'dark' as const };
    const svg = { src: 'https://cdn.example.com/a.svg', mimeType: 'image/svg+xml' };
    assert.deepEqual(pickIcons([svg, light, dark]), { light, dark });
    assert.deepEqual(pickIcons([svg, light]), { light, dark: light });
    assert.equal(pickIcons([svg]), undefined);
  });
});

describe('server icons: fetched over https by the kernel', () => {
  const tls = (name: string) => readFileSync(join(repoRoot(), 'test/fixtures/tls', name));
  const ca = tls('icons-test.crt');
  let server: HttpsServer;
  let port: number;
  const routes: Record<string, (res: import('node:http').ServerResponse) => void> = {
    '/icon.png': (res) => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG),
    '/big.png': (res) =>
      res
        .writeHead(200, { 'content-type': 'image/png' })
        .end(Buffer.concat([PNG, Buffer.alloc(ICON_MAX_BYTES)])),
    '/moved.png': (res) => res.writeHead(302, { location: '/icon.png' }).end(),
    '/page.png': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'),
    '/slow.png': () => undefined,
  };
  // The test host name resolves to loopback, which only these tests allow.
  // A deadline only a hang can miss, but for the server that never answers.
  const options = (timeoutMs = HANG_MS) => ({
    ca,
    resolve: async () => ['127.0.0.1'],
    addressAllowed: () => true,
    timeoutMs,
  });
  const url = (path: string) => new URL(`https://icons.test:${port}${path}`);

  before(async () => {
    server = createHttpsServer({ key: tls('icons-test.key'), cert: ca }, (req, res) =>
      (routes[req.url ?? ''] ?? ((r) => r.writeHead(404).end()))(res),
    );
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('fetches a PNG and checks its bytes', async () => {
    const fetched = await fetchIcon(url('/icon.png'), options());
    assert.ok(fetched.ok, JSON.stringify(fetched));
    assert.deepEqual(fetched.bytes, PNG);
  });

  it('refuses a body over the size bound, a redirect, a page that is not an image, a server too slow', async () => {
    const reason = async (path: string, timeoutMs?: number) => {
      const fetched = await fetchIcon(url(path), options(timeoutMs));
      assert.equal(fetched.ok, false, path);
      return (fetched as { reason: string }).reason;
    };
    assert.match(await reason('/big.png'), /larger than/);
    assert.match(await reason('/moved.png'), /HTTP 302 \(redirects are not followed\)/);
    assert.match(await reason('/page.png'), /not a PNG/);
    assert.match(await reason('/slow.png', 100), /no answer within 100 ms/);
  });

  it('never connects to a name that resolves to a loopback or private address', async () => {
    let connections = 0;
    const listener = createTcpServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
    const tcpPort = (listener.address() as AddressInfo).port;
    try {
      for (const addresses of [['127.0.0.1'], ['93.184.215.14', '10.0.0.7']]) {
        const fetched = await fetchIcon(new URL(`https://icons.test:${tcpPort}/i.png`), {
          resolve: async () => addresses,
        });
        assert.equal(fetched.ok, false);
        assert.match(
          (fetched as { reason: string }).reason,
          /resolves to (127\.0\.0\.1|10\.0\.0\.7)/,
        );
      }
      assert.equal(connections, 0, 'no connection was made');
    } finally {
      listener.close();
    }
  });

  it('refuses http even when asked directly', async () => {
    const fetched = await fetchIcon(new URL('http://cdn.example.com/i.png'));
    assert.deepEqual(fetched, { ok: false, reason: 'not an https URL' });
  });
});

describe('server icons: kept as files', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'mgp-icons-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes a data: icon once, named by a hash of its source, and refuses without a file', async () => {
    const cache = new IconCache(dir);
    const src = dataUri('image/png', PNG);
    const first = await cache.resolve({ src });
    assert.ok(first.ok);
    assert.match(first.icon.path, /[0-9a-f]{64}\.png$/);
    assert.deepEqual(readFileSync(first.icon.path), PNG);
    const refused = await cache.resolve({ src: 'file:///etc/passwd' });
    assert.equal(refused.ok, false);
    assert.deepEqual(await readdir(dir), [first.icon.path.slice(dir.length + 1)]);
  });

  /** Icons kept by earlier sessions, the first used longest ago. */
  async function keptBefore(names: string[], size = 10): Promise<void> {
    for (const [i, name] of names.entries()) {
      await writeFile(join(dir, name), Buffer.alloc(size));
      const at = new Date(Date.UTC(2026, 0, 1 + i));
      await utimes(join(dir, name), at, at);
    }
  }

  it('keeps the folder within its bounds, removing the icons used longest ago', async () => {
    await keptBefore(['a.png', 'b.png', 'c.png', 'd.png']);
    await pruneShelf(dir, { maxFiles: 3, maxBytes: 1000 });
    assert.deepEqual((await readdir(dir)).sort(), ['b.png', 'c.png', 'd.png']);
    await markUsed(join(dir, 'b.png'));
    await pruneShelf(dir, { maxFiles: 10, maxBytes: 25 });
    assert.deepEqual((await readdir(dir)).sort(), ['b.png', 'd.png'], 'by bytes, b now newest');
  });

  it('a session that writes an icon brings a folder over its bounds back within them', async () => {
    await keptBefore(['old1.png', 'old2.png', 'old3.png']);
    const cache = new IconCache(dir, {}, { maxFiles: 2, maxBytes: 1024 });
    const written = await cache.resolve({ src: dataUri('image/png', PNG) });
    assert.ok(written.ok);
    const name = written.icon.path.slice(dir.length + 1);
    assert.deepEqual((await readdir(dir)).sort(), [name, 'old3.png'].sort());
  });
});
