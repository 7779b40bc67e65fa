import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { AuthorizationStore } from '../../client/src/kernel/auth/authStore';
import { Authorizations } from '../../client/src/kernel/auth/authorizations';
import { FileSecrets } from '../../client/src/kernel/auth/fileSecrets';
import { repoRoot } from '../repoRoot';
import { startKernel, TestKernel, textOf } from './support/kernelHarness';

/** `url` with `name` set to `value`, or removed. */
function withParam(url: URL, name: string, value: string | undefined): URL {
  const changed = new URL(url);
  if (value === undefined) changed.searchParams.delete(name);
  else changed.searchParams.set(name, value);
  return changed;
}

interface ProtectedServer {
  mcpUrl: string;
  issuer: string;
  issuers: string[];
  requests: { method: string; path: string; rpc?: string; bearer: boolean }[];
  /** What authorization server `index` received. */
  authorizationRequests(index?: number): { method: string; path: string; clientId?: string }[];
  /** The metadata authorization server `index` keeps for a registered client. */
  registeredClient(clientId: string, index?: number): Promise<Record<string, unknown> | undefined>;
  /** The server trusts the next authorization server from now on. */
  switchAuthorizationServer(): void;
  /** Every access token the server has been shown is expired from now on. */
  expireAccessTokens(): void;
  close(): Promise<void>;
}
/** The scripted person at the browser (test/fixtures/oauth/browserPerson.mjs). */
interface Person {
  open(url: URL): Promise<void>;
}
interface Page {
  url: string;
  title: string;
}

function fixtures(): {
  startProtectedServer(o?: { authorizationServers?: number }): Promise<ProtectedServer>;
  browserPerson(o: { login?: string; pages?: Page[]; rewriteAnswer?(url: URL): URL }): Person;
} {
  // The fixtures are ES modules shared with the real-VS-Code harness.
  /* eslint-disable @typescript-eslint/no-require-imports */
  return {
    ...require(join(repoRoot(), 'test/fixtures/oauth/protectedServer.mjs')),
    ...require(join(repoRoot(), 'test/fixtures/oauth/browserPerson.mjs')),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

const configFor = (url: string) => `[[servers]]
id = "secure"
url = "${url}"
transport = "http"
approved_tools = ["whoami", "write_note"]
`;

/**
 * OAuth 2.1 against real parts: oidc-provider as the authorization server (OpenID discovery, dynamic
 * registration, PKCE S256, resource indicators, refresh tokens, its login and consent pages) in front
 * of an MCP server on the SDK's bearer-auth middleware. The person at the browser is scripted.
 */
describe('OAuth sign-in against oidc-provider and the SDK bearer-auth middleware', function () {
  this.timeout(60_000);
  let server: ProtectedServer;
  let kernel: TestKernel | undefined;
  let opened: string[];
  let pages: Page[];
  let tokenFile: string;

  const authorizations = (person: Person | undefined, withoutAsking: boolean) =>
    new Authorizations({
      store: new AuthorizationStore(new FileSecrets(tokenFile)),
      userAgent: person && {
        open: async (url) => {
          opened.push(String(url));
          await person.open(url);
        },
      },
      signInWithoutAsking: withoutAsking,
    });

  beforeEach(async () => {
    server = await fixtures().startProtectedServer();
    opened = [];
    pages = [];
    tokenFile = join(repoRoot(), 'out', `oauth-tokens-${process.pid}-${Date.now()}.json`);
  });
  afterEach(async () => {
    await kernel?.dispose();
    kernel = undefined;
    await server.close();
  });

  it('refuses to start without a sign-in, saying what the server asked for, and never tries SSE', async () => {
    kernel = await startKernel(configFor(server.mcpUrl), {
      authorization: authorizations(fixtures().browserPerson({ pages }), false),
    });
    const secure = kernel.kernel.manager.get('secure');
    assert.equal(secure.state, 'error');
    assert.equal(secure.needsSignIn, true);
    assert.match(secure.lastError ?? '', /secure requires you to sign in/);
    assert.deepEqual(opened, [], 'no browser opened without the person asking');
    const toMcp = server.requests.filter((r) => r.path === '/mcp');
    assert.deepEqual(
      toMcp.map((r) => `${r.method} ${r.rpc}`),
      ['POST initialize'],
      'one initialize refused with 401, and no legacy SSE GET after it',
    );
  });

  it('signs in through the browser, calls a tool with the token, and steps up for a wider scope', async () => {
    kernel = await startKernel(configFor(server.mcpUrl), {
      authorization: authorizations(fixtures().browserPerson({ login: 'ada', pages }), false),
    });
    const secure = kernel.kernel.manager.get('secure');
    await secure.signIn();
    assert.equal(secure.state, 'connected', secure.lastError);
    assert.equal(opened.length, 1);
    const authorize = new URL(opened[0]);
    assert.equal(authorize.origin, server.issuer);
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authorize.searchParams.get('resource'), server.mcpUrl);
    assert.equal(authorize.searchParams.get('scope'), 'mcp:tools', 'the scope of WWW-Authenticate');
    assert.match(
      authorize.searchParams.get('redirect_uri') ?? '',
      /^http:\/\/127\.0\.0\.1:\d+\/callback$/,
    );
    assert.ok(
      pages.some((p) => /sign-in/i.test(p.title)),
      `the login page was shown: ${JSON.stringify(pages)}`,
    );

    const whoami = await kernel.kernel.call({ serverId: 'secure', toolName: 'whoami', args: {} });
    assert.equal((whoami.result.content as { text: string }[])[0].text, 'signed in as ada');

    const note = await kernel.kernel.call({ serverId: 'secure', toolName: 'write_note', args: {} });
    assert.equal((note.result.content as { text: string }[])[0].text, 'note written');
    assert.equal(opened.length, 2, 'one more sign-in for the step-up');
    assert.equal(new URL(opened[1]).searchParams.get('scope'), 'mcp:tools mcp:write');
  });

  it('keeps the sign-in for the next run, and refreshes an expired access token without a browser', async () => {
    kernel = await startKernel(configFor(server.mcpUrl), {
      authorization: authorizations(fixtures().browserPerson({ pages }), false),
    });
    await kernel.kernel.manager.get('secure').signIn();
    assert.equal(kernel.kernel.manager.get('secure').state, 'connected');
    await kernel.stop();
    server.expireAccessTokens();
    const tokenRequests = () => server.authorizationRequests().filter((r) => r.path === '/token');
    const signedIn = tokenRequests().length;
    // A new run with no browser at all: the stored refresh token brings a new access token.
    kernel = await startKernel(configFor(server.mcpUrl), {
      dir: kernel.dir,
      authorization: authorizations(undefined, false),
    });
    const secure = kernel.kernel.manager.get('secure');
    assert.equal(secure.state, 'connected', secure.lastError);
    const whoami = await kernel.kernel.call({ serverId: 'secure', toolName: 'whoami', args: {} });
    assert.match((whoami.result.content as { text: string }[])[0].text, /signed in as/);
    assert.equal(opened.length, 1);
    assert.equal(tokenRequests().length, signedIn + 1, 'one refresh at the token endpoint');
  });

  it('signs out: the next run asks for a sign-in again', async () => {
    const auth = authorizations(fixtures().browserPerson({ pages }), false);
    kernel = await startKernel(configFor(server.mcpUrl), { authorization: auth });
    await kernel.kernel.manager.get('secure').signIn();
    assert.equal(await auth.isSignedIn(kernel.kernel.manager.get('secure').config), true);
    assert.equal(await kernel.kernel.manager.get('secure').signOut(), true);
    assert.equal(await auth.isSignedIn(kernel.kernel.manager.get('secure').config), false);
    assert.equal(kernel.kernel.manager.get('secure').needsSignIn, true);
    assert.equal(opened.length, 1, 'signing out opens no browser');
  });
  it('registers as a native app (OpenID Connect Dynamic Client Registration §2)', async () => {
    kernel = await startKernel(configFor(server.mcpUrl), {
      authorization: authorizations(fixtures().browserPerson({ pages }), false),
    });
    const secure = kernel.kernel.manager.get('secure');
    await secure.signIn();
    assert.equal(secure.state, 'connected', secure.lastError);
    const clientId = new URL(opened[0]).searchParams.get('client_id') ?? '';
    const registered = await server.registeredClient(clientId);
    assert.equal(registered?.application_type, 'native');
  });

  it('refuses an answer naming another issuer, or none where it promised one (RFC 9207)', async () => {
    const answers: [(url: URL) => URL, RegExp][] = [
      [
        (url) => withParam(url, 'iss', 'https://evil.example.com'),
        /comes from the issuer "https:\/\/evil\.example\.com", not "http:\/\/127\.0\.0\.1:\d+" \(RFC 9207\)/,
      ],
      [(url) => withParam(url, 'iss', undefined), /has no iss, though .* says it sends one/],
    ];
    for (const [rewriteAnswer, refusal] of answers) {
      const person = fixtures().browserPerson({ pages, rewriteAnswer });
      kernel = await startKernel(configFor(server.mcpUrl), {
        authorization: authorizations(person, false),
      });
      const secure = kernel.kernel.manager.get('secure');
      await secure.signIn();
      assert.notEqual(secure.state, 'connected');
      assert.match(secure.lastError ?? '', refusal);
      assert.ok(
        server.authorizationRequests().some((r) => r.path === '/auth'),
        'the person reached the authorization page',
      );
      assert.deepEqual(
        server.authorizationRequests().filter((r) => r.path === '/token'),
        [],
        'the code never went to the token endpoint',
      );
      await kernel.dispose();
      kernel = undefined;
    }
  });

  it('registers anew when the server moves to another authorization server (SEP-2352)', async () => {
    await server.close();
    server = await fixtures().startProtectedServer({ authorizationServers: 2 });
    kernel = await startKernel(configFor(server.mcpUrl), {
      authorization: authorizations(fixtures().browserPerson({ pages }), true),
    });
    const call = async () =>
      (await kernel!.kernel.call({ serverId: 'secure', toolName: 'whoami', args: {} })).result;
    assert.match(textOf(await call()), /signed in as ada/);
    const firstClient = new URL(opened[0]).searchParams.get('client_id');
    assert.equal(new URL(opened[0]).origin, server.issuers[0]);

    server.switchAuthorizationServer();
    assert.match(textOf(await call()), /signed in as ada/);
    assert.equal(opened.length, 2, 'one sign-in at the new authorization server');
    assert.equal(new URL(opened[1]).origin, server.issuers[1]);
    const second = server.authorizationRequests(1);
    assert.ok(
      second.some((r) => r.method === 'POST' && r.path === '/reg'),
      'a new registration',
    );
    assert.notEqual(new URL(opened[1]).searchParams.get('client_id'), firstClient);
    assert.ok(
      second.every((r) => r.clientId !== firstClient),
      'the old server’s client is never shown to the new one',
    );
  });
});
