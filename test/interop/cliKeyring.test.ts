import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENTRY_MAX_CHARS, joinValue } from '../../client/src/kernel/auth/keyringChunks';
import { repoRoot } from '../repoRoot';
import { SecretService, startSecretService } from './support/secretService';

// Where the built `mgp` keeps sign-ins: a real Secret Service (gnome-keyring on a private D-Bus
// bus), a real sign-in (oidc-provider in front of the SDK's bearer-auth middleware, the person at
// the browser scripted), and the user-only file when no keyring answers.

const root = repoRoot();
const cli = join(root, 'dist/cli.js');

interface ProtectedServer {
  mcpUrl: string;
  close(): Promise<void>;
}
function fixtures(): {
  startProtectedServer(): Promise<ProtectedServer>;
  browserPerson(o: { login?: string }): { open(url: URL): Promise<void> };
} {
  // The fixtures are ES modules shared with the OAuth interop test and the real-VS-Code harness.
  /* eslint-disable @typescript-eslint/no-require-imports */
  return {
    ...require(join(root, 'test/fixtures/oauth/protectedServer.mjs')),
    ...require(join(root, 'test/fixtures/oauth/browserPerson.mjs')),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

interface Ran {
  code: number | null;
  out: string;
  err: string;
}

/** Runs the built CLI; when it asks for a sign-in in the browser, the scripted person signs in. */
function mgp(args: string[], env: Record<string, string | undefined>): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let signedIn = false;
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => {
      err += chunk;
      const asked = /Sign in to continue: (\S+)/.exec(err);
      if (asked && !signedIn) {
        signedIn = true;
        fixtures().browserPerson({ login: 'ada' }).open(new URL(asked[1])).catch(reject);
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

/** The keyring's sign-in entries (the audit logs' keys live beside them: audit/anchorSeal.ts). */
const signIns = (accounts: string[]) => accounts.filter((a) => a.startsWith('mgp.oauth/')).sort();

const NOT_THE_KEYRING =
  /sign-ins are kept in .*oauth-tokens\.json \(readable by you only\), not the OS keyring: /g;

describe('mgp keeps sign-ins in the OS keyring, else in a user-only file (built CLI)', function () {
  this.timeout(120_000);
  let dir: string;
  let server: ProtectedServer;
  let keyring: SecretService;
  let tokenFile: string;
  let env: Record<string, string | undefined>;
  const withKeyring = () => ({ ...env, ...keyring.env });
  const withoutKeyring = () => ({
    ...env,
    DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(dir, 'no-bus')}`,
  });

  before(async function () {
    if (process.platform !== 'linux') this.skip();
    dir = mkdtempSync(join(tmpdir(), 'mgp-cli-keyring-'));
    server = await fixtures().startProtectedServer();
    keyring = await startSecretService(join(dir, 'keyring'));
    const noPrograms = join(dir, 'bin');
    mkdirSync(noPrograms);
    writeFileSync(
      join(dir, 'mgp.toml'),
      `[[servers]]\nid = "secure"\nurl = "${server.mcpUrl}"\ntransport = "http"\n`,
    );
    env = {
      ...process.env,
      HOME: join(dir, 'home'),
      XDG_STATE_HOME: join(dir, 'state'),
      // No xdg-open: the CLI prints the address and the scripted person opens it.
      PATH: noPrograms,
      MGP_OAUTH_FLOW: 'browser',
      MGP_OAUTH_TOKEN_STORE: undefined,
    };
    tokenFile = join(dir, 'state', 'mgp', 'oauth-tokens.json');
  });
  after(async () => {
    await keyring?.stop();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const signIn = (e: Record<string, string | undefined>) =>
    mgp(['auth', 'login', 'secure', '--config', join(dir, 'mgp.toml')], e);
  const status = (e: Record<string, string | undefined>) =>
    mgp(['auth', 'status', '--config', join(dir, 'mgp.toml')], e);
  /** A sign-in as the keyring keeps it, each of its entries within a Windows credential's size. */
  async function keptInKeyring(account: string) {
    const read = async (username: string) => {
      const value = await keyring.lookup({ service: 'mgp', username });
      assert.ok(value !== undefined, `${username} is in the keyring`);
      assert.ok(value.length <= ENTRY_MAX_CHARS, `${username}: ${value.length} characters`);
      return value;
    };
    const value = await joinValue(await read(account), (i) => read(`${account}#${i}`));
    return JSON.parse(value ?? '{}');
  }
  const fileEntries = (): Record<string, string> =>
    existsSync(tokenFile) ? JSON.parse(readFileSync(tokenFile, 'utf8')) : {};

  it('without a Secret Service, keeps the sign-in in the user-only file and says why, once', async () => {
    const ran = await signIn(withoutKeyring());
    assert.equal(ran.code, 0, ran.err);
    assert.match(ran.out, /signed in to secure/);
    const said = ran.err.match(NOT_THE_KEYRING) ?? [];
    assert.equal(said.length, 1, ran.err);
    assert.match(ran.err, /not the OS keyring: the OS keyring failed: .*no-bus/);
    const [key, ...more] = Object.keys(fileEntries());
    assert.match(key, /^mgp\.oauth\/secure\//);
    assert.deepEqual(more, []);
    assert.ok(JSON.parse(fileEntries()[key]).tokens.access_token);
    assert.equal(statSync(tokenFile).mode & 0o777, 0o600);
    assert.deepEqual(await keyring.accounts({ service: 'mgp' }), []);
  });

  it('moves that sign-in into the keyring at its first read, and out of the file', async () => {
    const [key] = Object.keys(fileEntries());
    const ran = await status(withKeyring());
    assert.equal(ran.code, 0, ran.err);
    assert.match(ran.out, /^secure\tsigned in\t/m);
    assert.match(ran.out, /sign-ins are kept in the OS keyring/);
    assert.doesNotMatch(ran.err, /not the OS keyring/);
    assert.deepEqual(fileEntries(), {});
    const kept = await keptInKeyring(key);
    assert.ok(kept.tokens?.access_token, 'the sign-in is in the keyring');
  });

  it('signs in with the keyring: the tokens are in the keyring, not in the file; sign-out removes them', async () => {
    rmSync(tokenFile, { force: true });
    const out = await mgp(
      ['auth', 'logout', 'secure', '--config', join(dir, 'mgp.toml')],
      withKeyring(),
    );
    assert.match(out.out, /signed out of secure: its sign-in is removed from the OS keyring/);
    assert.deepEqual(signIns(await keyring.accounts({ service: 'mgp' })), []);

    const ran = await signIn(withKeyring());
    assert.equal(ran.code, 0, ran.err);
    assert.match(ran.out, /signed in to secure/);
    assert.doesNotMatch(ran.err, /not the OS keyring/);
    const accounts = await keyring.accounts({ service: 'mgp' });
    assert.ok(
      accounts.some((a) => a.startsWith('mgp.audit-anchor/')),
      "the audit log's key is in the keyring too",
    );
    const [account, ...parts] = signIns(accounts);
    assert.match(account, /^mgp\.oauth\/secure\//);
    // The probe entry is gone; a token set too long for one Windows credential is in parts.
    assert.deepEqual(
      parts,
      parts.map((_, i) => `${account}#${i + 1}`),
    );
    const kept = await keptInKeyring(account);
    assert.ok(kept.tokens?.access_token && kept.tokens?.refresh_token, 'access and refresh token');
    assert.equal(existsSync(tokenFile), false, 'no token file');
    assert.doesNotMatch(JSON.stringify(fileEntries()), new RegExp(kept.tokens.access_token));
    const signedOut = await mgp(
      ['auth', 'logout', 'secure', '--config', join(dir, 'mgp.toml')],
      withKeyring(),
    );
    assert.equal(signedOut.code, 0, signedOut.err);
    assert.deepEqual(
      signIns(await keyring.accounts({ service: 'mgp' })),
      [],
      'every part is removed',
    );
  });

  it("seals the audit log's chain.json with a key in the keyring; verify without it says so", async () => {
    const verify = (e: Record<string, string | undefined>) =>
      mgp(['audit', 'verify', '--cwd', dir], e);
    const sealed = await verify(withKeyring());
    assert.equal(sealed.code, 0, sealed.out + sealed.err);
    assert.match(sealed.out, /sealed up to seq \d+ with the key in the OS keyring/);
    const keyless = await verify(withoutKeyring());
    assert.equal(keyless.code, 1);
    assert.match(
      keyless.out,
      /sealed up to seq \d+ with a key this check cannot read .*\[seal_unverifiable\]/,
    );
  });

  it('a keyring that never answers costs a few seconds, not the command', async () => {
    const silent: Server = createServer(() => undefined);
    const socket = join(dir, 'silent-bus');
    await new Promise<void>((resolve) => silent.listen(socket, resolve));
    try {
      const ran = await status({ ...env, DBUS_SESSION_BUS_ADDRESS: `unix:path=${socket}` });
      assert.equal(ran.code, 0, ran.err);
      assert.match(ran.out, /^secure\tnot signed in\t/m);
      assert.match(ran.err, /not the OS keyring: the OS keyring did not answer within 5 s/);
    } finally {
      silent.close();
    }
  });
});
