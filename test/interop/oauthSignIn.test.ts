import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { AuthorizationStore } from '../../client/src/kernel/auth/authStore';
import { Authorizations } from '../../client/src/kernel/auth/authorizations';
import { FileSecrets } from '../../client/src/kernel/auth/fileSecrets';
import type { UserAgent } from '../../client/src/kernel/auth/userAgent';
import { repoRoot } from '../repoRoot';
import { startKernel, TestKernel } from './support/kernelHarness';

interface ProtectedServer {
  mcpUrl: string;
  issuer: string;
  requests: { method: string; path: string; rpc?: string; bearer: boolean }[];
  close(): Promise<void>;
}
interface Page {
  url: string;
  title: string;
}

function fixtures(): {
  startProtectedServer(o?: { accessTokenTtl?: number }): Promise<ProtectedServer>;
  browserPerson(o: { login?: string; pages?: Page[] }): UserAgent;
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

  const authorizations = (person: UserAgent | undefined, withoutAsking: boolean) =>
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
    await server.close();
    server = await fixtures().startProtectedServer({ accessTokenTtl: 2 });
    kernel = await startKernel(configFor(server.mcpUrl), {
      authorization: authorizations(fixtures().browserPerson({ pages }), false),
    });
    await kernel.kernel.manager.get('secure').signIn();
    assert.equal(kernel.kernel.manager.get('secure').state, 'connected');
    await kernel.stop();
    await new Promise((resolve) => setTimeout(resolve, 2500));
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
});
