/**
 * The sandbox as an attacker meets it: real servers (a rogue fixture, desktop-commander, the
 * filesystem server) doing the harm for real, and the files, keys and ports outside seeing nothing.
 * The validators are turned off for these tools where they would refuse first: the sandbox is the
 * boundary, and must hold on its own.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { sandboxPlatform } from '../../client/src/kernel/sandbox/platform';
import { repoRoot } from '../repoRoot';
import { eventually } from '../support/patience';
import { fixtureServer, node, startKernel, TestKernel } from './support/kernelHarness';

const root = repoRoot();
const desktopCommander = JSON.stringify(
  join(root, 'tools/servers/node_modules/@wonderwhy-er/desktop-commander/dist/index.js'),
);
const filesystemServer = JSON.stringify(
  join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'),
);

function textOf(result: { content?: unknown }): string {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  return content.map((c) => c.text ?? '').join('\n');
}

/** A TCP listener on loopback that counts the connections it took. */
async function listener(): Promise<{ port: number; accepted: number; server: Server }> {
  const state = { port: 0, accepted: 0, server: createServer() };
  state.server.on('connection', (socket) => {
    state.accepted++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.port = (state.server.address() as { port: number }).port;
  return state;
}

/** dir/ws is the workspace; dir/outside and dir/home (HOME, with its keys) lie beside it. */
function layout(dir: string) {
  const ws = join(dir, 'ws');
  const outside = join(dir, 'outside');
  const home = join(dir, 'home');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  mkdirSync(ws, { recursive: true });
  mkdirSync(join(outside, 'deep'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY');
  writeFileSync(join(home, '.bashrc'), 'original\n');
  writeFileSync(join(outside, 'deep', 'keep.txt'), 'keep');
  return { ws, outside, home };
}

describe('the OS sandbox around stdio servers', function () {
  this.timeout(180_000);
  let t: TestKernel | undefined;
  let dir = '';

  before(async () => {
    const platform = await sandboxPlatform(process.env);
    assert.ok(platform.available, `no sandbox here: ${platform.available ? '' : platform.reason}`);
  });

  afterEach(async () => {
    await t?.dispose();
    t = undefined;
  });

  async function start(toml: string, network = '') {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    dir = mkdtempSync(join(tmpdir(), 'mgp-sandbox-test-'));
    const paths = layout(dir);
    t = await startKernel(toml + network, {
      dir,
      workingFolder: () => paths.ws,
      // No roots: the workspace folder is what a sandboxed server may write, and the filesystem
      // server, offered no roots, believes its command line's "/".
      roots: () => [],
      hostEnv: { PATH: process.env.PATH, HOME: paths.home },
    });
    return paths;
  }

  async function call(serverId: string, toolName: string, args: Record<string, unknown>) {
    t!.operator.toolAnswers = ['once'];
    const outcome = await t!.kernel.call({ serverId, toolName, args });
    return textOf(outcome.result as { content?: unknown });
  }

  it('a rogue server cannot read your keys, change files outside the workspace, or keep its temp files', async () => {
    const paths = await start(
      `[[servers]]\nid = "rogue"\ncommand = ${node}\nargs = [${fixtureServer('rogue.js')}]\n`,
    );
    assert.match(t!.kernel.manager.get('rogue').isolation?.sandboxed ? 'yes' : 'no', /yes/);
    assert.equal(
      await call('rogue', 'read', { path: join(paths.home, '.ssh', 'id_ed25519') }),
      'EACCES',
    );
    assert.equal(await call('rogue', 'remove', { path: join(paths.outside, 'deep') }), 'EROFS');
    assert.equal(await call('rogue', 'write', { path: join(paths.home, '.bashrc') }), 'EROFS');
    assert.equal(await call('rogue', 'write', { path: join(paths.ws, 'made.txt') }), 'done');
    assert.equal(await call('rogue', 'write', { path: '/tmp/left-behind' }), 'done');
    assert.deepEqual(JSON.parse(await call('rogue', 'env', {})), {
      HOME: '/tmp/home',
      TMPDIR: '/tmp',
    });
    assert.equal(readFileSync(join(paths.outside, 'deep', 'keep.txt'), 'utf8'), 'keep');
    assert.equal(readFileSync(join(paths.home, '.bashrc'), 'utf8'), 'original\n');
    assert.ok(existsSync(join(paths.ws, 'made.txt')));
    assert.ok(!existsSync('/tmp/left-behind'), 'its /tmp is its own');
  });

  it('refuses the system calls a server has no use for: the kernel keyring, terminal injection', async () => {
    await start(
      `[[servers]]\nid = "rogue"\ncommand = ${node}\nargs = [${fixtureServer('rogue.js')}]\n` +
        `[servers.tools.exec]\nvalidator = "none"\n`,
    );
    const probe = [
      'import ctypes, errno, fcntl, termios',
      'libc = ctypes.CDLL(None, use_errno=True)',
      'libc.syscall(250 if ctypes.sizeof(ctypes.c_void_p) == 8 and __import__("platform").machine() == "x86_64" else 219, 0, 0, 0, 0)',
      'print("keyctl", errno.errorcode.get(ctypes.get_errno()))',
      'try:',
      '    fcntl.ioctl(0, termios.TIOCSTI, b"x")',
      'except OSError as e:',
      '    print("tiocsti", errno.errorcode[e.errno])',
    ].join('\n');
    const answer = await call('rogue', 'exec', { file: 'python3', args: ['-c', probe] });
    assert.match(answer, /keyctl EPERM/);
    assert.match(answer, /tiocsti EPERM/);
  });

  it('desktop-commander runs every shell bypass of the review, and nothing outside the workspace changes', async () => {
    const paths = await start(
      `[[servers]]\nid = "dc"\ncommand = ${node}\nargs = [${desktopCommander}]\n` +
        `[servers.tools.start_process]\nvalidator = "none"\n`,
    );
    const victims = ['a', 'b', 'c', 'd', 'e'].map((name) => {
      mkdirSync(join(paths.outside, name, 'sub'), { recursive: true });
      writeFileSync(join(paths.outside, name, 'sub', 'file'), name);
      return join(paths.outside, name);
    });
    const commands = [
      `bash -c -- 'r""m -rf ${victims[0]}'`,
      `rm --rec ${victims[1]}`,
      `/bin/r? -rf ${victims[2]}`,
      `find ${victims[3]} -exec sh -c 'rm -rf "$1"' _ {} \\;`,
      `bash -c -x 'true; rm -rf ${victims[4]}'`,
      `sort -o ${join(paths.home, '.bashrc')} /etc/hostname`,
      `bash <<< 'rm -rf ${victims[0]}'`,
      `env -S 'rm -rf ${victims[1]}'`,
      `tar -C ${paths.home} -cf ${join(paths.home, 'x.tar')} /etc/hostname`,
      `rm -rf ${join(paths.home, '.ssh')}`,
    ];
    for (const command of commands)
      await call('dc', 'start_process', { command, timeout_ms: 8000 });
    for (const [i, victim] of victims.entries())
      assert.equal(readFileSync(join(victim, 'sub', 'file'), 'utf8'), ['a', 'b', 'c', 'd', 'e'][i]);
    assert.equal(readFileSync(join(paths.home, '.bashrc'), 'utf8'), 'original\n');
    assert.ok(existsSync(join(paths.home, '.ssh', 'id_ed25519')));
    assert.ok(!existsSync(join(paths.home, 'x.tar')));
    // The same command inside the workspace does its harm: the commands really ran.
    mkdirSync(join(paths.ws, 'scratch', 'sub'), { recursive: true });
    await call('dc', 'start_process', {
      command: `bash -c -- 'r""m -rf ${join(paths.ws, 'scratch')}'`,
      timeout_ms: 8000,
    });
    assert.ok(!existsSync(join(paths.ws, 'scratch')));
  });

  it('the filesystem server, told it may use everything, still writes only the workspace', async () => {
    const paths = await start(
      `[[servers]]\nid = "fs"\ncommand = ${node}\nargs = [${filesystemServer}, "/"]\n`,
    );
    const outsideFile = join(paths.outside, 'deep', 'keep.txt');
    await call('fs', 'write_file', { path: outsideFile, content: 'overwritten' });
    await call('fs', 'move_file', { source: outsideFile, destination: join(paths.ws, 'stolen') });
    const key = await call('fs', 'read_text_file', {
      path: join(paths.home, '.ssh', 'id_ed25519'),
    });
    assert.doesNotMatch(key, /PRIVATE KEY/);
    assert.equal(readFileSync(outsideFile, 'utf8'), 'keep');
    await call('fs', 'write_file', { path: join(paths.ws, 'notes.md'), content: 'mine' });
    assert.equal(readFileSync(join(paths.ws, 'notes.md'), 'utf8'), 'mine');
  });

  it('reaches the loopback ports it is allowed, and no other', async () => {
    const [allowed, other] = [await listener(), await listener()];
    try {
      await start(
        `[[servers]]\nid = "rogue"\ncommand = ${node}\nargs = [${fixtureServer('rogue.js')}]\n`,
        `[servers.sandbox]\nnetwork = "loopback"\nports = [${allowed.port}]\n`,
      );
      assert.equal(await call('rogue', 'connect', { port: allowed.port }), 'connected');
      assert.equal(await call('rogue', 'connect', { port: other.port }), 'ECONNREFUSED');
      // The bridge connects on to the allowed port once the server's connection reached it.
      await eventually(() => allowed.accepted === 1, 'the allowed port took the connection');
      assert.equal(other.accepted, 0);
    } finally {
      allowed.server.close();
      other.server.close();
    }
  });

  it('with no network reaches nothing; with all of it, what you reach', async () => {
    const open = await listener();
    try {
      await start(
        `[[servers]]\nid = "none"\ncommand = ${node}\nargs = [${fixtureServer('rogue.js')}]\n` +
          `[servers.sandbox]\nnetwork = "none"\n` +
          `[[servers]]\nid = "all"\ncommand = ${node}\nargs = [${fixtureServer('rogue.js')}]\n`,
      );
      assert.equal(await call('none', 'connect', { port: open.port }), 'ECONNREFUSED');
      assert.equal(open.accepted, 0);
      assert.equal(await call('all', 'connect', { port: open.port }), 'connected');
    } finally {
      open.server.close();
    }
  });

  it('with domains, its proxy refuses other hosts and private addresses', async () => {
    const open = await listener();
    try {
      await start(
        `[[servers]]\nid = "rogue"\ncommand = ${node}\nargs = [${fixtureServer('rogue.js')}]\n`,
        `[servers.sandbox]\nnetwork = "domains"\ndomains = ["localhost"]\n` +
          `[servers.tools.fetch]\nvalidator = "none"\n`,
      );
      assert.match(
        await call('rogue', 'fetch', { url: `http://example.com:${open.port}/` }),
        /^HTTP\/1\.1 403/,
      );
      assert.match(
        await call('rogue', 'fetch', { url: `http://localhost:${open.port}/` }),
        /^HTTP\/1\.1 403/,
      );
      assert.equal(await call('rogue', 'connect', { port: open.port }), 'ECONNREFUSED');
      assert.equal(open.accepted, 0);
    } finally {
      open.server.close();
    }
  });

  it('a server that requires a sandbox the platform cannot give does not start, and says why', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    dir = mkdtempSync(join(tmpdir(), 'mgp-sandbox-test-'));
    const marker = join(dir, 'started');
    t = await startKernel(
      `[[servers]]\nid = "strict"\ncommand = "sh"\nargs = ["-c", "touch ${marker}"]\n` +
        `[servers.mgp]\ntrust_level = "sandboxed"\n` +
        `[[servers]]\nid = "loose"\ncommand = ${node}\nargs = [${fixtureServer('rogue.js')}]\n`,
      { dir, hostEnv: { PATH: process.env.PATH, MGP_BWRAP: join(dir, 'no-bwrap') } },
    );
    const strict = t.kernel.manager.get('strict');
    assert.equal(strict.state, 'error');
    assert.match(strict.lastError ?? '', /must run in a sandbox, and none is available/);
    assert.ok(!existsSync(marker));
    const loose = t.kernel.manager.get('loose');
    assert.equal(loose.state, 'connected');
    assert.deepEqual(loose.isolation, {
      sandboxed: false,
      reason: loose.isolation?.sandboxed === false ? loose.isolation.reason : '',
    });
    assert.match(JSON.stringify(loose.isolation), /cannot run/);
  });
});
