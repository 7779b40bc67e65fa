import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../repoRoot';
import { node } from './support/kernelHarness';
import { startSecretService } from './support/secretService';

// The MCP draft extensions (Nov 2025) as a person meets them: the built `mgp` against the drafts
// example server, over stdio and over Streamable HTTP (where the server cuts the connection of a
// call's stream in the middle, and the client resumes it).

const root = repoRoot();
const cli = join(root, 'dist/cli.js');
const script = join(root, 'examples/servers/dist/drafts-example-server.js');

interface Ran {
  code: number | null;
  out: string;
  err: string;
}

function mgp(args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

/** The example server over Streamable HTTP with `flags`, on a free port; its stderr kept. */
async function startHttpServer(
  flags: string[],
): Promise<{ url: string; child: ChildProcess; log: () => string }> {
  const child = spawn(process.execPath, [script, '--port', '0', ...flags], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const match = /listening on (\S+)/.exec(log);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${log}`)));
  });
  return { url, child, log: () => log };
}

/** The `[phase] type #id` lines of a streamed call's stderr, as `phase #id`. */
function eventLines(err: string): string[] {
  return [...err.matchAll(/^\[(\w+)\] \w+ #(\d+):/gm)].map((m) => `${m[1]} #${m[2]}`);
}

const EVERY_EVENT = ['observe', 'abstract', 'decide', 'act', 'verify'].flatMap((phase, i) => [
  `${phase} #${2 * i + 1}`,
  `${phase} #${2 * i + 2}`,
]);

describe('MCP draft extensions: mgp against the drafts example server', function () {
  let dir: string;
  let config: string;
  let env: NodeJS.ProcessEnv;
  const servers: ChildProcess[] = [];

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-drafts-'));
    config = join(dir, 'mgp.toml');
    writeFileSync(
      config,
      `[[servers]]\nid = "drafts"\ncommand = ${node}\nargs = [${JSON.stringify(script)}]\n`,
    );
    env = {
      ...process.env,
      XDG_STATE_HOME: join(dir, 'state'),
      MGP_OAUTH_TOKEN_STORE: 'file',
      MGP_CLIENT_RESOURCE_HINTS: undefined,
    };
  });
  after(() => {
    for (const child of servers) child.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = (tool: string, ...flags: string[]) =>
    mgp(['call', 'drafts', tool, '--config', config, ...flags], env);
  const auditRecords = async (tool: string) => {
    const ran = await mgp(
      ['audit', 'tail', '-n', '200', '--json', '--tool', tool, '--cwd', dir],
      env,
    );
    return ran.out
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { event_type: string; details: Record<string, unknown> });
  };

  describe('seeds (§2)', () => {
    it('the same seed twice gives the same result, and says the seed it used', async () => {
      const first = await call('roll_dice', '--args', '{"count":8}', '--seed', '42', '--json');
      const second = await call('roll_dice', '--args', '{"count":8}', '--seed', '42', '--json');
      assert.equal(first.code, 0, first.err);
      const [a, b] = [first, second].map((r) => JSON.parse(r.out) as Record<string, unknown>);
      assert.deepEqual(a.structuredContent, b.structuredContent);
      assert.deepEqual(a.content, b.content);
      assert.deepEqual((a._kernel as Record<string, unknown>).seed_used, 42);
      assert.deepEqual((a._kernel as Record<string, unknown>).determinism, 'strict');
      const other = await call('roll_dice', '--args', '{"count":8}', '--seed', '43', '--json');
      assert.notDeepEqual(JSON.parse(other.out).structuredContent, a.structuredContent);
    });

    it('--repeat N --seed S says how many of the N results were identical', async () => {
      const seeded = await call('roll_dice', '--seed', '7', '--prng', 'lcg', '--repeat', '5');
      assert.equal(seeded.code, 0, seeded.err);
      assert.match(
        seeded.err,
        /repeat: 5 of 5 results identical to the first \(seed 7; seed_used 7; 1 distinct\)/,
      );
      const unseeded = await call('roll_dice', '--args', '{"count":20}', '--repeat', '4', '--json');
      const report = JSON.parse(unseeded.out) as {
        runs: number;
        identical: number;
        distinct: number;
      };
      assert.equal(report.runs, 4);
      // Without a seed the server picks one per run: 20 dice coincide by chance almost never.
      assert.ok(report.distinct > 1, unseeded.out);
    });

    it('records the seed asked for and the one the server used in the audit trail', async () => {
      await call('roll_dice', '--seed', '1234');
      const executed = (await auditRecords('roll_dice')).filter(
        (r) => r.event_type === 'TOOL_EXECUTED' && r.details.seed === 1234,
      );
      assert.equal(executed.length, 1);
      assert.equal(executed[0].details.seed_used, 1234);
      assert.equal(executed[0].details.determinism, 'strict');
    });

    it('a tool whose schema has no seed never gets one', async () => {
      const refused = await call('echo_arguments', '--args', '{"text":"hi"}', '--seed', '5');
      assert.equal(refused.code, 2, refused.err);
      assert.match(refused.err, /echo_arguments: its input schema declares no `seed`/);
      // Nothing went to the server: no call of it is in the audit trail.
      assert.deepEqual(await auditRecords('echo_arguments'), []);
      // A caller that puts draft fields in the arguments itself: the server gets none of them.
      const given = await call(
        'echo_arguments',
        '--args',
        '{"text":"hi","seed":5,"prng":"lcg","agent_mode":"implicit","algebra":"I(A(R(O(K))))"}',
      );
      assert.equal(given.code, 0, given.err);
      assert.deepEqual(JSON.parse(given.out), { text: 'hi' });
      const [record] = await auditRecords('echo_arguments');
      assert.deepEqual(record.details.draft_fields_dropped, [
        'agent_mode',
        'algebra',
        'seed',
        'prng',
      ]);
      assert.equal(record.details.seed, undefined);
    });
  });

  it('implicit cognition fields (§1) reach a tool that declares them, as given', async () => {
    const args = {
      query: 'Phase-lock derivation',
      agent_mode: 'explicit',
      algebra: 'I(A(R(O(K))))',
      resource_hints: { max_context: 32768, rope_scale: 2.0, device: 'webgpu' },
      steps: 1,
      step_ms: 0,
    };
    const ran = await call('research', '--args', JSON.stringify(args), '--json');
    assert.equal(ran.code, 0, ran.err);
    const { received } = JSON.parse(ran.out).structuredContent as { received: unknown };
    assert.deepEqual(received, {
      agent_mode: 'explicit',
      algebra: 'I(A(R(O(K))))',
      resource_hints: { max_context: 32768, rope_scale: 2.0, device: 'webgpu' },
    });
    // The kernel adds none of its own: without them, the tool receives none.
    const bare = await call('research', '--args', '{"query":"q","steps":1,"step_ms":0}', '--json');
    assert.deepEqual(JSON.parse(bare.out).structuredContent.received, {});
  });

  describe('phased job events (§4)', () => {
    const research = (cfg: string) =>
      mgp(
        [
          'call',
          'drafts',
          'research',
          '--stream',
          '--seed',
          '9',
          '--args',
          '{"query":"q","steps":2,"step_ms":100}',
          '--config',
          cfg,
        ],
        env,
      );

    it('are shown by phase, each once, in order', async () => {
      const ran = await research(config);
      assert.equal(ran.code, 0, ran.err);
      assert.deepEqual(eventLines(ran.err), EVERY_EVENT);
      assert.match(ran.err, /10 job events \(observe 2, abstract 2, decide 2, act 2, verify 2\)/);
      assert.match(ran.err, /seed_used 9, determinism best_effort/);
    });

    for (const redeliver of [false, true])
      it(`a stream whose connection drops resumes from the last event id, without loss or duplicates${redeliver ? ' (the server sends the last event again)' : ''}`, async () => {
        const server = await startHttpServer([
          '--drop-after',
          '4',
          ...(redeliver ? ['--redeliver'] : []),
        ]);
        servers.push(server.child);
        const httpConfig = join(dir, `http-${redeliver}.toml`);
        writeFileSync(
          httpConfig,
          `[[servers]]\nid = "drafts"\ntransport = "http"\nurl = "${server.url}"\n`,
        );
        const ran = await research(httpConfig);
        assert.equal(ran.code, 0, ran.err);
        assert.match(server.log(), /dropping the connection of call \S+ after event 4/);
        assert.match(ran.err, /SSE stream disconnected/);
        assert.deepEqual(eventLines(ran.err), EVERY_EVENT);
        if (redeliver) assert.match(ran.err, /; 1 replayed event dropped/);
        else assert.doesNotMatch(ran.err, /replayed event/);
        // The result is the one the same seed gives without a drop.
        const calm = await research(config);
        assert.equal(ran.out, calm.out);
      });
  });

  it('client resource hints (§5) are sent only when the user turned them on', async () => {
    const off = await call('client_hints', '--json');
    assert.equal(JSON.parse(off.out).structuredContent.hints, null);
    const on = await mgp(['call', 'drafts', 'client_hints', '--config', config, '--json'], {
      ...env,
      MGP_CLIENT_RESOURCE_HINTS: 'gpu',
    });
    const { hints } = JSON.parse(on.out).structuredContent as {
      hints: { mem_mb: number; cores: number; gpu: boolean };
    };
    assert.ok(hints.mem_mb > 0 && hints.cores > 0, on.out);
    assert.equal(hints.gpu, true);
    const bad = await mgp(['call', 'drafts', 'client_hints', '--config', config], {
      ...env,
      MGP_CLIENT_RESOURCE_HINTS: 'maybe',
    });
    assert.equal(bad.code, 2);
    assert.match(bad.err, /MGP_CLIENT_RESOURCE_HINTS is "maybe"/);
  });

  it('an encrypted export (§3) decrypts back to the export, and amb-3body-xor is refused', async () => {
    const out = join(dir, 'trace.json');
    const plain = await mgp(['audit', 'export', '--cwd', dir], env);
    const encrypted = await mgp(['audit', 'export', '--encrypt', '--out', out, '--cwd', dir], env);
    assert.equal(encrypted.code, 0, encrypted.err);
    const file = readFileSync(out, 'utf8');
    assert.deepEqual(Object.keys(JSON.parse(file)).sort(), [
      'algo',
      'ciphertext',
      'key_id',
      'key_store',
    ]);
    assert.doesNotMatch(file, /TOOL_EXECUTED/);
    const back = await mgp(['audit', 'decrypt', out], env);
    assert.equal(back.code, 0, back.err);
    assert.equal(back.out, plain.out);
    const amb = await mgp(
      ['audit', 'export', '--encrypt', '--algo', 'amb-3body-xor', '--cwd', dir],
      env,
    );
    assert.equal(amb.code, 2);
    assert.match(amb.err, /amb-3body-xor is refused: it is not a vetted cipher/);
  });
});

describe('MCP draft encrypted traces: the key in a real OS keyring', function () {
  it('is made in the keyring at the first export, never in a file, and decrypts there', async function () {
    if (process.platform !== 'linux') this.skip();
    const dir = mkdtempSync(join(tmpdir(), 'mgp-drafts-keyring-'));
    const keyring = await startSecretService(join(dir, 'keyring'));
    try {
      const env = {
        ...process.env,
        ...keyring.env,
        XDG_STATE_HOME: join(dir, 'state'),
        MGP_OAUTH_TOKEN_STORE: undefined,
      };
      const config = join(dir, 'mgp.toml');
      writeFileSync(
        config,
        `[[servers]]\nid = "drafts"\ncommand = ${node}\nargs = [${JSON.stringify(script)}]\n`,
      );
      const called = await mgp(
        ['call', 'drafts', 'roll_dice', '--seed', '3', '--config', config],
        env,
      );
      assert.equal(called.code, 0, called.err);
      const out = join(dir, 'trace.json');
      const exported = await mgp(['audit', 'export', '--encrypt', '--out', out, '--cwd', dir], env);
      assert.equal(exported.code, 0, exported.err);
      assert.match(exported.err, /made the key of encrypted traces, kept in the OS keyring/);
      const key = await keyring.lookup({ service: 'mgp', username: 'mgp.audit-trace-key' });
      assert.match(key ?? '', /^[A-Za-z0-9_-]{43}$/);
      assert.ok(!readFileSync(out, 'utf8').includes(key!));
      const keyFile = join(dir, 'state', 'mgp', 'audit-keys.json');
      assert.ok(!existsSync(keyFile) || !readFileSync(keyFile, 'utf8').includes(key!));
      const back = await mgp(['audit', 'decrypt', out], env);
      assert.equal(back.code, 0, back.err);
      assert.match(back.out, /"seed_used":3/);
      // Another user's machine (no key here): the file says nothing.
      const elsewhere = await mgp(['audit', 'decrypt', out], {
        ...env,
        XDG_STATE_HOME: join(dir, 'other'),
        DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(dir, 'no-bus')}`,
      });
      assert.equal(elsewhere.code, 1);
      assert.match(elsewhere.err, /there is no key to decrypt it with/);
    } finally {
      await keyring.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
