/**
 * The fetch for requests made on a server's word (net/guardedFetch.ts), against real HTTP servers on
 * loopback. Loopback is refused by default, so these tests name what stands for the public internet:
 * names resolved by a test resolver to 127.0.0.1, which the test's `restrictionOf` lets through.
 * 127.0.0.2 stays refused: a listener there counts what a guard failure would send it.
 */
import { strict as assert } from 'node:assert';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { judgeResolved } from '../../../client/src/kernel/net/hosts';
import {
  guardedFetch,
  type GuardedFetchOptions,
  MAX_REDIRECTS,
} from '../../../client/src/kernel/net/guardedFetch';

interface Seen {
  method: string;
  path: string;
  host: string;
  authorization?: string;
  contentType?: string;
  body: string;
}

async function serve(
  host: string,
  port: number,
  route: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ server: Server; port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk));
    request.on('end', () => {
      seen.push({
        method: request.method ?? '',
        path: request.url ?? '',
        host: request.headers.host ?? '',
        authorization: request.headers.authorization,
        contentType: request.headers['content-type'],
        body,
      });
      route(request, response);
    });
  });
  await new Promise<void>((done) => server.listen(port, host, done));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

describe('the guarded fetch: each request and each redirect judged before anything is sent', () => {
  let allowed: Awaited<ReturnType<typeof serve>>;
  let forbidden: Awaited<ReturnType<typeof serve>>;
  let resolutions: string[];
  let refusals: string[];
  /**
   * `*.public.test` resolves to 127.0.0.1, but `rebind.public.test` only the first time it is asked
   * (then to 127.0.0.2, as a DNS rebinding attack answers); `*.private.test` to 10.0.0.7.
   */
  const options = (more: Partial<GuardedFetchOptions> = {}): GuardedFetchOptions => ({
    resolve: async (host) => {
      resolutions.push(host);
      if (host.endsWith('.private.test')) return ['10.0.0.7'];
      const again = resolutions.filter((h) => h === host).length > 1;
      return [host === 'rebind.public.test' && again ? '127.0.0.2' : '127.0.0.1'];
    },
    restrictionOf: (address) => (address === '127.0.0.1' ? undefined : judgeResolved(address)),
    onRefused: (message) => refusals.push(message),
    ...more,
  });
  const at = (name: string, path: string) => `http://${name}:${allowed.port}${path}`;

  beforeEach(async () => {
    resolutions = [];
    refusals = [];
    allowed = await serve('127.0.0.1', 0, (request, response) => {
      const [path, query] = (request.url ?? '').split('?');
      const to = new URLSearchParams(query).get('to');
      if (path === '/redirect' && to)
        return response
          .writeHead(Number(new URLSearchParams(query).get('status') ?? 302), { location: to })
          .end();
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    // The same port on 127.0.0.2: where a second resolution of the same name would connect.
    forbidden = await serve('127.0.0.2', allowed.port, (_request, response) => response.end('{}'));
  });
  afterEach(() => {
    for (const { server } of [allowed, forbidden]) {
      server.closeAllConnections();
      server.close();
    }
  });

  it('connects to the address it checked: the name is resolved once, no rebinding in between', async () => {
    const response = await guardedFetch(options())(at('rebind.public.test', '/token'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'MGP Kernel' }),
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { ok: true });
    assert.deepEqual(resolutions, ['rebind.public.test']);
    assert.deepEqual(forbidden.seen, []);
    assert.deepEqual(
      allowed.seen.map(({ method, host, contentType, body }) => ({
        method,
        host,
        contentType,
        body,
      })),
      [
        {
          method: 'POST',
          host: `rebind.public.test:${allowed.port}`,
          contentType: 'application/json',
          body: '{"client_name":"MGP Kernel"}',
        },
      ],
      'the Host header and the body are the request’s own',
    );
  });

  it('refuses a name that resolves to a private address before connecting anywhere', async () => {
    await assert.rejects(
      guardedFetch(options())(at('vault.private.test', '/')),
      /vault\.private\.test resolves to 10\.0\.0\.7, a private address/,
    );
    assert.match(refusals[0], /^refused a request to http:\/\/vault\.private\.test:\d+\/:/);
  });

  it('judges every redirect again: one to a refused address is never followed', async () => {
    const targets = [
      `http://127.0.0.2:${allowed.port}/steal`,
      `http://2130706434:${allowed.port}/steal`,
      `http://[::ffff:127.0.0.2]:${allowed.port}/steal`,
      `http://vault.private.test:${allowed.port}/steal`,
      `http://localhost:${allowed.port}/steal`,
    ];
    for (const to of targets)
      await assert.rejects(
        guardedFetch(options())(at('as.public.test', `/redirect?to=${encodeURIComponent(to)}`)),
        /refused a request to http:\/\/[^ ]+\/steal/,
        to,
      );
    assert.deepEqual(forbidden.seen, []);
    assert.ok(
      allowed.seen.every((s) => s.path.startsWith('/redirect')),
      'nothing else was asked',
    );
  });

  it('follows a redirect the guard lets through, as a browser would: 303 turns POST into GET, credentials stay at their origin', async () => {
    const to = encodeURIComponent(at('other.public.test', '/landed'));
    const response = await guardedFetch(options())(
      at('as.public.test', `/redirect?status=303&to=${to}`),
      {
        method: 'POST',
        headers: { authorization: 'Bearer secret', 'content-type': 'text/plain' },
        body: 'x',
      },
    );
    assert.equal(response.status, 200);
    const landed = allowed.seen.at(-1);
    assert.equal(landed?.path, '/landed');
    assert.equal(landed?.method, 'GET');
    assert.equal(landed?.body, '');
    assert.equal(landed?.authorization, undefined, 'not carried to another origin');
    assert.deepEqual(resolutions, ['as.public.test', 'other.public.test']);
  });

  it('hands a redirect back when asked to, fails on one when asked to, and stops after a few', async () => {
    const away = `/redirect?to=${encodeURIComponent(`http://127.0.0.2:${allowed.port}/`)}`;
    const manual = await guardedFetch(options())(at('as.public.test', away), {
      redirect: 'manual',
    });
    assert.equal(manual.status, 302);
    assert.equal(manual.headers.get('location'), `http://127.0.0.2:${allowed.port}/`);
    await assert.rejects(
      guardedFetch(options())(at('as.public.test', away), { redirect: 'error' }),
      /redirected; no redirect is taken here/,
    );
    const named = { origins: [`http://127.0.0.1:${allowed.port}`] };
    let hops = `/redirect?to=${encodeURIComponent('/ok')}`;
    for (let i = 0; i <= MAX_REDIRECTS; i++) hops = `/redirect?to=${encodeURIComponent(hops)}`;
    await assert.rejects(
      guardedFetch(options({ named }))(`http://127.0.0.1:${allowed.port}${hops}`),
      new RegExp(`more than ${MAX_REDIRECTS} redirects`),
    );
    assert.deepEqual(forbidden.seen, []);
  });

  it('reaches a named origin as usual, yet judges where it redirects', async () => {
    const named = { origins: [`http://127.0.0.1:${allowed.port}`] };
    const ok = await guardedFetch({ named })(`http://127.0.0.1:${allowed.port}/metadata`);
    assert.equal(ok.status, 200);
    const away = encodeURIComponent(`http://127.0.0.2:${allowed.port}/steal`);
    await assert.rejects(
      guardedFetch({ named })(`http://127.0.0.1:${allowed.port}/redirect?to=${away}`),
      /127\.0\.0\.2 is a loopback address/,
    );
    await assert.rejects(
      guardedFetch({ named })(`http://127.0.0.1:${allowed.port + 1}/`),
      /127\.0\.0\.1 is a loopback address/,
      'the named origin is one port, not the host',
    );
    assert.deepEqual(forbidden.seen, []);
  });
});
