import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { stateDirectory } from '../../client/src/kernel/audit/location';
import { runCli } from '../../client/src/cli/main';
import { repoRoot } from '../repoRoot';

// `mgp servers off|on` and `mgp tools off|on`: the switches file the editor reads, and what the
// next command does with it, against the real example server.

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

describe('mgp CLI: turning servers and tools off and on (real example server)', function () {
  this.timeout(60000);
  let dir: string;
  let stateHome: string | undefined;
  const at = (...args: string[]) => run([...args, '--cwd', dir]);
  const switchesFile = () =>
    JSON.parse(
      readFileSync(
        join(
          stateDirectory({ workspaceFolder: dir, env: process.env, home: homedir() }),
          'switches.json',
        ),
        'utf8',
      ),
    ) as { servers: string[]; tools: Record<string, string[]> };
  const toolNames = async () => {
    const listed = await at('tools', '--json');
    assert.equal(listed.code, 0, listed.err);
    return (JSON.parse(listed.out) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-cli-switches-'));
    stateHome = process.env.XDG_STATE_HOME;
    process.env.XDG_STATE_HOME = join(dir, 'state');
    const example = JSON.stringify(join(repoRoot(), 'examples/servers/dist/mgp-example-server.js'));
    writeFileSync(
      join(dir, 'mgp.toml'),
      `[[servers]]\nid = "example"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${example}]\n`,
    );
    // The folder's server, allowed to start as a person would allow it.
    assert.equal((await at('servers', 'allow', 'example')).code, 0);
  });
  after(() => {
    if (stateHome === undefined) delete process.env.XDG_STATE_HOME;
    else process.env.XDG_STATE_HOME = stateHome;
    rmSync(dir, { recursive: true, force: true });
  });

  it('a tool turned off is written to the switches file, left out of `mgp tools`, refused by `mgp call`, and audited', async () => {
    assert.ok((await toolNames()).includes('example.echo'));
    const off = await at('tools', 'off', 'example.echo');
    assert.equal(off.code, 0, off.err);
    assert.match(off.out, /example\.echo: off/);
    assert.deepEqual(switchesFile().tools, { example: ['echo'] });

    const names = await toolNames();
    assert.ok(!names.includes('example.echo'), 'the tool is listed while off');
    assert.ok(names.includes('example.add'), 'the other tools stay');
    const call = await at('call', 'example', 'echo', '--args', '{"text":"hi"}');
    assert.equal(call.code, 3);
    assert.match(call.err, /turned off/);

    const trail = await at('audit', 'tail', '--json', '-n', '50');
    const switched = trail.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event_type: string; result: string; target: object })
      .filter((record) => record.event_type === 'dev.mgp-kernel.switched');
    assert.deepEqual(
      switched.map((record) => [record.result, record.target]),
      [['DISABLED', { server_id: 'example', tool_name: 'echo' }]],
    );

    const on = await at('tools', 'on', 'example.echo', '--json');
    assert.equal(on.code, 0, on.err);
    assert.deepEqual(JSON.parse(on.out), { server: 'example', tool: 'echo', enabled: true });
    assert.deepEqual(switchesFile().tools, {});
    assert.ok((await toolNames()).includes('example.echo'));
  });

  it('a server turned off shows as off in `mgp servers` and does not start; on again, it starts', async () => {
    const off = await at('servers', 'off', 'example');
    assert.equal(off.code, 0, off.err);
    assert.deepEqual(switchesFile().servers, ['example']);
    assert.match((await at('servers')).out, /^example\tstdio\t.*\toff(\t.*)?$/m);
    const json = JSON.parse((await at('servers', '--json')).out) as { enabled: boolean }[];
    assert.equal(json[0].enabled, false);

    const tools = await at('tools', '--json');
    assert.equal(tools.code, 1, 'a run whose server is held back fails');
    assert.match(tools.err, /example: .*turned off by you/);
    const listing = JSON.parse(tools.out) as { tools: unknown[]; not_ready: unknown[] };
    assert.deepEqual(listing.tools, []);
    assert.deepEqual(listing.not_ready, [
      {
        server: 'example',
        state: 'registered',
        starting: false,
        reason: 'not started: turned off by you',
      },
    ]);

    assert.equal((await at('servers', 'on', 'example')).code, 0);
    assert.deepEqual(switchesFile().servers, []);
    assert.doesNotMatch((await at('servers')).out, /\toff/);
    assert.ok((await toolNames()).includes('example.add'));
  });

  it('an unknown server or a malformed line is refused with what would work', async () => {
    const unknown = await at('servers', 'off', 'exmaple');
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /no server "exmaple" is configured; configured: example/);
    const noTool = await at('tools', 'off', 'echo');
    assert.equal(noTool.code, 1);
    assert.match(noTool.err, /write SERVER\.TOOL, e\.g\. example\.add/);
    const missing = await at('tools', 'off');
    assert.equal(missing.code, 2);
    assert.match(missing.err, /off needs SERVER\.TOOL/);
    const flag = await at('servers', 'off', 'example', '--approve', 'once');
    assert.equal(flag.code, 2, 'a switch takes no --approve');
    assert.deepEqual(switchesFile().servers, [], 'nothing was switched');
    const help = await run(['tools', 'on', '--help']);
    assert.match(help.out, /mgp tools off\|on SERVER\.TOOL/);
  });
});
