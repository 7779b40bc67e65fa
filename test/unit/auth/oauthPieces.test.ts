import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AuthorizationStore, authorizationKey } from '../../../client/src/kernel/auth/authStore';
import { FileSecrets } from '../../../client/src/kernel/auth/fileSecrets';
import { LoopbackRedirect } from '../../../client/src/kernel/auth/loopbackRedirect';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { checkResponseIssuer, metadataIssuerProblem } from '../../../client/src/kernel/auth/issuer';
import { headlessUserAgent } from '../../../client/src/kernel/auth/userAgent';
import { guardedFetch } from '../../../client/src/kernel/net/guardedFetch';
import { signInFlow } from '../../../client/src/cli/cliAuthorization';
import {
  isAuthorizationFailure,
  isLegacySseSignal,
} from '../../../client/src/kernel/connection/transports';
import { oauthSettings } from '../../../client/src/kernel/config/settings';
import {
  elicitationDefaults,
  withElicitationDefaults,
} from '../../../client/src/kernel/host/elicitationDefaults';

describe('OAuth: the loopback redirect (RFC 8252 §7.3)', () => {
  it('hands back the code of the redirect that carries its state, and answers the browser', async () => {
    const redirect = await LoopbackRedirect.open();
    try {
      assert.match(redirect.url, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const code = redirect.waitForCode('state-1');
      const stranger = await fetch(`${redirect.url}?code=evil&state=other`);
      assert.equal(stranger.status, 400, 'a redirect with another state is not ours');
      const answer = await fetch(`${redirect.url}?code=abc&state=state-1`);
      assert.equal(answer.status, 200);
      assert.match(await answer.text(), /You can close this tab/);
      assert.equal(await code, 'abc');
    } finally {
      await redirect.close();
    }
  });

  it('rejects with what the authorization server said when it refuses', async () => {
    const redirect = await LoopbackRedirect.open();
    try {
      const refused = assert.rejects(redirect.waitForCode('s'), /access_denied \(no thanks\)/);
      await fetch(`${redirect.url}?error=access_denied&error_description=no%20thanks&state=s`);
      await refused;
    } finally {
      await redirect.close();
    }
  });

  it('the headless agent follows redirects to the loopback, and stops at a page that needs a person', async () => {
    const redirect = await LoopbackRedirect.open();
    const elsewhere = await countingListener();
    try {
      const code = redirect.waitForCode('s');
      const hops = new Map<string, Response>([
        [
          'https://as.example/authorize',
          new Response(null, { status: 302, headers: { location: '/step' } }),
        ],
        [
          'https://as.example/step',
          new Response(null, {
            status: 302,
            headers: { location: `${redirect.url}?code=c1&state=s` },
          }),
        ],
        ['https://as.example/login', new Response('<form>', { status: 200 })],
        [
          'https://as.example/astray',
          new Response(null, { status: 302, headers: { location: `${elsewhere.url}/steal` } }),
        ],
      ]);
      const authorizationServer = async (input: URL | string) =>
        hops.get(String(input)) ?? new Response(null, { status: 404 });
      // As the sign-in gives it: the destination guard, the authorization server's host named.
      const context = {
        fetch: guardedFetch({ named: { hosts: ['as.example'] }, base: authorizationServer }),
        redirectUrl: redirect.url,
      };
      const agent = headlessUserAgent();
      await agent.open(new URL('https://as.example/authorize'), context);
      assert.equal(await code, 'c1');
      await assert.rejects(
        agent.open(new URL('https://as.example/login'), context),
        /answered 200 instead of redirecting: it needs a person/,
      );
      await assert.rejects(
        agent.open(new URL('https://as.example/astray'), context),
        /refused a request to http:\/\/127\.0\.0\.1:\d+\/steal: 127\.0\.0\.1 is a loopback address/,
      );
      assert.equal(
        elsewhere.requests(),
        0,
        'a loopback address other than the redirect URI is not visited',
      );
    } finally {
      await redirect.close();
      await elsewhere.close();
    }
  });

  it('takes authorization server metadata only from the issuer it was looked up for (RFC 8414 §3.3)', () => {
    const state = (asked: string, issuer: string, resource: boolean = true) =>
      ({
        authorizationServerUrl: asked,
        authorizationServerMetadata: { issuer },
        ...(resource && { resourceMetadata: { resource: 'x', authorization_servers: [asked] } }),
      }) as unknown as OAuthDiscoveryState;
    assert.equal(
      metadataIssuerProblem(state('https://as.example/t1', 'https://as.example/t1')),
      undefined,
    );
    assert.equal(
      metadataIssuerProblem(state('https://as.example/', 'https://as.example')),
      undefined,
    );
    for (const [asked, issuer] of [
      ['https://as.example', 'https://attacker.example.com'],
      ['https://as.example/t1', 'https://as.example/t2'],
      ['https://as.example', 'https://AS.example'],
      ['https://as.example', 'https://as.example:443'],
    ])
      assert.match(
        metadataIssuerProblem(state(asked, issuer)) ?? '',
        /names the issuer .* \(RFC 8414 §3\.3\): refused/,
        `${asked} ≠ ${issuer}`,
      );
    // No protected-resource metadata (MCP 2025-03-26): the server's origin is its authorization server.
    assert.equal(
      metadataIssuerProblem(state('https://mcp.example/', 'https://mcp.example/oauth', false)),
      undefined,
    );
    assert.match(
      metadataIssuerProblem(state('https://mcp.example/', 'https://attacker.example.com', false)) ??
        '',
      /RFC 8414 §3\.3/,
    );
  });

  it('refuses an authorization response from another issuer, or without the iss it promised (RFC 9207)', async () => {
    const issuer = 'https://as.example';
    const cases = [
      {
        iss: 'https://evil.example.com',
        required: false,
        refused: /from the issuer "https:\/\/evil\.example\.com", not "https:\/\/as\.example"/,
      },
      { iss: `${issuer}/`, required: true, refused: /from the issuer "https:\/\/as\.example\/"/ },
      { iss: undefined, required: true, refused: /has no iss/ },
      { iss: issuer, required: true, refused: undefined },
      { iss: undefined, required: false, refused: undefined },
    ];
    for (const { iss, required, refused } of cases) {
      const redirect = await LoopbackRedirect.open();
      try {
        const code = redirect.waitForCode('s', undefined, (params) =>
          checkResponseIssuer(params.get('iss'), { issuer, required }),
        );
        const query = new URLSearchParams({ code: 'c', state: 's', ...(iss ? { iss } : {}) });
        const answer = await fetch(`${redirect.url}?${query}`);
        if (refused) {
          await assert.rejects(code, refused);
          assert.equal(answer.status, 400);
        } else assert.equal(await code, 'c');
      } finally {
        await redirect.close();
      }
    }
  });
});

/** A listener on loopback that only counts the requests reaching it. */
async function countingListener(): Promise<{
  url: string;
  requests(): number;
  close(): Promise<void>;
}> {
  let count = 0;
  const server = createServer((_request, response) => {
    count++;
    response.end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => count,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

describe('OAuth: where sign-ins are kept', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'mgp-oauth-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('the CLI file is readable by the user only and keeps concurrent writes', async () => {
    const path = join(folder, 'state', 'oauth-tokens.json');
    const store = new AuthorizationStore(new FileSecrets(path));
    await Promise.all([
      store.write('a', { tokens: { access_token: 'A', token_type: 'Bearer' } }),
      store.write('b', { tokens: { access_token: 'B', token_type: 'Bearer' } }),
    ]);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(join(folder, 'state')).mode & 0o777, 0o700);
    assert.equal((await store.read('a')).tokens?.access_token, 'A');
    assert.equal((await store.read('b')).tokens?.access_token, 'B');
    assert.equal(await store.clear('a'), true);
    assert.deepEqual(await store.read('a'), {});
    assert.equal(await store.clear('a'), false);
  });

  it('a server keeps its sign-in per id and URL', () => {
    assert.equal(authorizationKey('s', 'https://a/mcp'), authorizationKey('s', 'https://a/mcp'));
    assert.notEqual(authorizationKey('s', 'https://a/mcp'), authorizationKey('s', 'https://b/mcp'));
    assert.notEqual(authorizationKey('s', 'https://a/mcp'), authorizationKey('t', 'https://a/mcp'));
  });
});

describe('OAuth: a 401 is no legacy-SSE signal', () => {
  it('401 and 403 ask for authorization; other 4xx to POST initialize mean legacy SSE', () => {
    assert.equal(isLegacySseSignal(new StreamableHTTPError(401, 'Unauthorized')), false);
    assert.equal(isLegacySseSignal(new StreamableHTTPError(403, 'Forbidden')), false);
    assert.equal(isLegacySseSignal(new UnauthorizedError('x')), false);
    assert.equal(isAuthorizationFailure(new StreamableHTTPError(401, 'Unauthorized')), true);
    assert.equal(isLegacySseSignal(new StreamableHTTPError(405, 'Method Not Allowed')), true);
    assert.equal(isLegacySseSignal(new StreamableHTTPError(404, 'Not Found')), true);
    assert.equal(isLegacySseSignal(new StreamableHTTPError(500, 'oops')), false);
  });
});

describe('OAuth: settings', () => {
  it('[servers.oauth] defaults: enabled, authorization code, no scopes', () => {
    assert.deepEqual(oauthSettings({}), {
      enabled: true,
      grantType: 'authorization_code',
      clientId: undefined,
      clientSecret: undefined,
      clientMetadataUrl: undefined,
      scopes: [],
      privateKey: undefined,
      signingAlgorithm: 'ES256',
    });
    const set = oauthSettings({
      client_id: 'c',
      scopes: ['a', 'b'],
      grant_type: 'client_credentials',
    });
    assert.equal(set.clientId, 'c');
    assert.deepEqual(set.scopes, ['a', 'b']);
    assert.equal(set.grantType, 'client_credentials');
  });

  it('MGP_OAUTH_FLOW chooses the sign-in; a terminal means the browser, none without one', () => {
    assert.equal(signInFlow({}, true), 'browser');
    assert.equal(signInFlow({}, false), 'none');
    assert.equal(signInFlow({ MGP_OAUTH_FLOW: 'headless' }, false), 'headless');
    assert.throws(() => signInFlow({ MGP_OAUTH_FLOW: 'popup' }, true), /browser, headless or none/);
  });
});

describe('elicitation defaults (SEP-1034)', () => {
  const schema = {
    type: 'object' as const,
    properties: {
      name: { type: 'string' as const, default: 'Ada' },
      age: { type: 'integer' as const, default: 30 },
      ok: { type: 'boolean' as const, default: true },
      tags: {
        type: 'array' as const,
        items: { type: 'string' as const, enum: ['a', 'b'] },
        default: ['a'],
      },
      free: { type: 'string' as const },
    },
  };

  it('collects the declared defaults and fills only what the answer leaves out', () => {
    assert.deepEqual(elicitationDefaults(schema as never), {
      name: 'Ada',
      age: 30,
      ok: true,
      tags: ['a'],
    });
    assert.deepEqual(withElicitationDefaults(schema as never, { name: 'Grace', free: 'x' }), {
      name: 'Grace',
      age: 30,
      ok: true,
      tags: ['a'],
      free: 'x',
    });
  });
});
