import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../client/src/cli/main';
import { repoRoot } from '../repoRoot';

// `mgp featuresets`, `mgp checkpoints` and `mgp channels` against the example MCPL server.

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    out: (t) => (out += `${t}\n`),
    err: (t) => (err += `${t}\n`),
    write: (t) => (out += t),
  });
  return { code, out, err };
}

describe('mgp CLI: MCPL commands (real example MCPL server)', function () {
  let dir: string;
  let stateHome: string | undefined;
  const at = (...args: string[]) => run([...args, '--cwd', dir]);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-cli-mcpl-'));
    stateHome = process.env.XDG_STATE_HOME;
    process.env.XDG_STATE_HOME = join(dir, 'state');
    const server = JSON.stringify(join(repoRoot(), 'examples/servers/dist/mcpl-example-server.js'));
    writeFileSync(
      join(dir, 'mgp.toml'),
      `[[servers]]\nid = "live"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${server}]\napproved_tools = ["remember"]\n\n[servers.mcpl]\nenabled_feature_sets = ["memory.facts", "chat.room"]\n`,
    );
    // The folder's server, allowed to start as a person would allow it.
    assert.equal((await at('servers', 'allow', 'live')).code, 0);
  });
  after(() => {
    if (stateHome === undefined) delete process.env.XDG_STATE_HOME;
    else process.env.XDG_STATE_HOME = stateHome;
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists feature sets, and a switch holds for the next run', async () => {
    const listed = await at('featuresets', '--json');
    assert.equal(listed.code, 0, listed.err);
    const [server] = JSON.parse(listed.out) as {
      serverId: string;
      featureSets: { name: string; enabled: boolean }[];
    }[];
    assert.equal(server.serverId, 'live');
    assert.equal(server.featureSets.find((s) => s.name === 'alerts.push')?.enabled, false);
    assert.equal((await at('featuresets', 'enable', 'alerts.*', '--server', 'live')).code, 0);
    const again = await at('featuresets');
    assert.match(again.out, /live\talerts\.push\ton \(user\)/);
    const reset = await at('featuresets', 'reset', 'alerts.*', '--server', 'live');
    assert.match(reset.out, /^live: reset to the defaults alerts\.push/m);
  });

  it('lists checkpoints; a rollback the server cannot do, or to an unknown checkpoint, fails clearly', async () => {
    for (const fact of ['one', 'two'])
      assert.equal(
        (await at('call', 'live', 'remember', '--args', JSON.stringify({ fact }))).code,
        0,
      );
    const listed = await at('checkpoints', '--json');
    const sets = JSON.parse(listed.out) as Record<string, Record<string, { current: string }>>;
    assert.equal(sets.live['memory.facts'].current, 'chk_002');
    // Each command is a new server process: this server keeps checkpoints in memory, so it no
    // longer has chk_001, says -32005 (§8.7), and the host forgets it too.
    const back = await at(
      'checkpoints',
      'rollback',
      'chk_001',
      '--server',
      'live',
      '--set',
      'memory.facts',
    );
    assert.equal(back.code, 1);
    assert.match(back.err, /Checkpoint not found/);
    assert.doesNotMatch((await at('checkpoints')).out, /chk_001/);
    const unknown = await at(
      'checkpoints',
      'rollback',
      'chk_999',
      '--server',
      'live',
      '--set',
      'memory.facts',
    );
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /no checkpoint "chk_999"/);
  });

  it('lists the channels and posts into one', async () => {
    assert.match((await at('channels')).out, /live\troom:general\tbidirectional/);
    const posted = await at(
      'channels',
      'post',
      'room:general',
      'hello',
      'room',
      '--server',
      'live',
      '--json',
    );
    assert.equal(posted.code, 0, posted.err);
    assert.equal(JSON.parse(posted.out).delivered, true);
  });
});
