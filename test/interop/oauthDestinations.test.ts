/**
 * A hostile server cannot aim the kernel's sign-in at this machine or its network (SSRF): its 401,
 * its protected-resource metadata and its authorization server metadata name a service on another
 * loopback address (127.0.0.2, a host the config does not name), and nothing reaches that service.
 * The configured server itself is on 127.0.0.1, which the user's config names. Everything is real: the
 * kernel, its headless sign-in, HTTP servers on loopback.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthorizationStore } from '../../client/src/kernel/auth/authStore';
import { Authorizations } from '../../client/src/kernel/auth/authorizations';
import { FileSecrets } from '../../client/src/kernel/auth/fileSecrets';
import { headlessUserAgent } from '../../client/src/kernel/auth/userAgent';
import {
  countingListener,
  type HostilePlan,
  type Listener,
  startHostileResource,
} from './support/hostileResource';
import { startKernel, type TestKernel } from './support/kernelHarness';

const serverToml = (url: string, extra = '') =>
  `${extra}\n[[servers]]\nid = "hostile"\nurl = "${url}/mcp"\ntransport = "http"\n`;

describe('OAuth sign-in goes nowhere a server names on this machine or its network', function () {
  this.timeout(60_000);
  let folder: string;
  let forbidden: Listener;
  let hostile: Listener | undefined;
  let kernel: TestKernel | undefined;
  let logs: string[];

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'mgp-oauth-ssrf-'));
    forbidden = await countingListener('127.0.0.2');
    logs = [];
  });
  /** Stops the kernel and the hostile server of the last sign-in. */
  async function reset(): Promise<void> {
    await kernel?.dispose();
    kernel = undefined;
    await hostile?.close();
    hostile = undefined;
  }
  afterEach(async () => {
    await reset();
    await forbidden.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** Starts the hostile server and a kernel whose config names it (the user's own, or a workspace's). */
  async function signInTo(
    plan: HostilePlan,
    config: { workspace?: boolean; kernelTable?: string } = {},
  ): Promise<string> {
    hostile = await startHostileResource(plan);
    const toml = serverToml(hostile.url, config.kernelTable);
    kernel = await startKernel(config.workspace ? '' : toml, {
      workspaceToml: config.workspace ? toml : undefined,
      authorization: new Authorizations({
        store: new AuthorizationStore(new FileSecrets(join(folder, 'tokens.json'))),
        userAgent: headlessUserAgent(),
        signInWithoutAsking: true,
      }),
      configure: (k) => k.manager.bus.on('log', (line) => logs.push(line.message)),
    });
    const server = kernel.kernel.manager.get('hostile');
    assert.notEqual(server.state, 'connected');
    return server.lastError ?? '';
  }

  const refusals = () => logs.filter((line) => line.startsWith('refused a request to'));

  it('does not fetch protected-resource metadata a 401 names there', async () => {
    await signInTo({
      resourceMetadata: () => `${forbidden.url}/.well-known/oauth-protected-resource`,
    });
    assert.deepEqual(forbidden.requests, []);
    assert.match(refusals()[0] ?? '', /127\.0\.0\.2 is a loopback address \(127\.0\.0\.0\/8\)/);
  });

  it('does not look up an authorization server its metadata names there', async () => {
    const error = await signInTo({ authorizationServers: () => [forbidden.url] });
    assert.deepEqual(forbidden.requests, []);
    assert.match(error, /refused a request to http:\/\/127\.0\.0\.2:\d+\/\.well-known/);
  });

  it('does not register there, however the address is spelled', async () => {
    const port = new URL(forbidden.url).port;
    for (const host of [
      '127.0.0.2',
      '2130706434',
      '0177.0.0.2',
      '0x7f000002',
      '[::ffff:127.0.0.2]',
    ]) {
      const error = await signInTo({
        metadata: () => ({ registration_endpoint: `http://${host}:${port}/register` }),
      });
      await reset();
      assert.deepEqual(forbidden.requests, [], host);
      assert.match(
        error,
        /refused a request to http:\/\/(127\.0\.0\.2|\[::ffff:7f00:2\]):\d+\/register/,
        host,
      );
    }
  });

  it('neither opens an authorization endpoint there nor follows a redirect to it', async () => {
    await signInTo({ metadata: () => ({ authorization_endpoint: `${forbidden.url}/authorize` }) });
    await reset();
    const error = await signInTo({ authorizeRedirect: () => `${forbidden.url}/steal` });
    assert.deepEqual(forbidden.requests, []);
    assert.match(error, /refused a request to http:\/\/127\.0\.0\.2:\d+\/steal/);
    assert.ok(hostile?.requests.includes('GET /as/authorize'), 'the sign-in got that far');
  });

  it('refuses metadata that names another issuer before using any of its endpoints (RFC 8414 §3.3)', async () => {
    const error = await signInTo({ metadata: () => ({ issuer: 'https://attacker.example.com' }) });
    assert.match(error, /names the issuer "https:\/\/attacker\.example\.com" \(RFC 8414 §3\.3\)/);
    assert.ok(hostile?.requests.includes('GET /.well-known/oauth-authorization-server/as'));
    assert.ok(!hostile?.requests.includes('POST /as/register'), 'no registration was sent');
  });

  it('a workspace file names nothing: not the host of its server, nor private_hosts', async () => {
    const sameHost = await countingListener('127.0.0.1');
    try {
      const plan = { authorizationServers: () => [sameHost.url] };
      await signInTo(plan, { workspace: true });
      assert.deepEqual(sameHost.requests, [], 'another port of the workspace server’s host');
      await reset();
      await signInTo(plan);
      assert.notDeepEqual(sameHost.requests, [], 'the host the user’s own config names is reached');
    } finally {
      await sameHost.close();
    }
    await reset();
    const plan = { authorizationServers: () => [forbidden.url] };
    const kernelTable = '[kernel]\nprivate_hosts = ["127.0.0.2"]';
    await signInTo(plan, { workspace: true, kernelTable });
    assert.deepEqual(forbidden.requests, []);
    assert.ok(
      kernel?.config.problems.some(
        (p) => p.key === 'kernel.private_hosts' && /ignored/.test(p.message),
      ),
    );
    await reset();
    await signInTo(plan, { kernelTable });
    assert.notDeepEqual(
      forbidden.requests,
      [],
      'private_hosts in the user’s own config is honoured',
    );
  });
});
