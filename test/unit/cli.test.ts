import { strict as assert } from 'node:assert';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../client/src/cli/main';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

describe('mgp CLI', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mgp-cli-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lists servers as JSON for scripts', async () => {
    writeFileSync(
      join(dir, 'mgp.toml'),
      '[[servers]]\nid = "a"\ncommand = "node"\nargs = ["s.js"]\n',
    );
    const { code, out } = await run(['servers', '--json', '--cwd', dir]);
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(out), [
      {
        id: 'a',
        transport: 'stdio',
        command: 'node',
        args: ['s.js'],
        source: { file: join(dir, 'mgp.toml'), line: 1, format: 'mgp', origin: 'workspace' },
        enabled: true,
        approval: 'new',
        isolation: {
          sandboxed: true,
          kind: 'bubblewrap',
          write: [realpathSync(dir)],
          network: 'all',
          ports: [],
          domains: [],
        },
      },
    ]);
    // The text listing marks it, and says what to run.
    const listed = await run(['servers', '--cwd', dir]);
    assert.match(
      listed.out,
      /^a\tstdio\tnode s\.js\t.*\twaits for your yes\tsandboxed \(bubblewrap\): writes .* and its own \/tmp; full network$/m,
    );
    assert.match(listed.err, /mgp servers allow a --cwd /);
  });

  it('exits 1 and names file, line and column when a config has an error', async () => {
    writeFileSync(join(dir, 'mgp.toml'), '[[servers]]\nid = "a\n');
    const { code, err } = await run(['servers', '--cwd', dir]);
    assert.equal(code, 1);
    assert.match(
      err,
      new RegExp(
        `^${join(dir, 'mgp.toml').replace(/[.]/g, '\\.')}:2:\\d+: error: TOML syntax error`,
      ),
    );
  });

  it("checks files with the language server's diagnostics, as stable JSON with 0-based positions", async () => {
    const file = join(dir, 'mgp.toml');
    writeFileSync(file, '[[servers]]\nid = "a"\ncommand = "node"\ntransport = "carrier-pigeon"\n');
    const { code, out } = await run(['check', file, '--json']);
    assert.equal(code, 1);
    assert.deepEqual(JSON.parse(out), [
      {
        file,
        range: { start: { line: 3, character: 12 }, end: { line: 3, character: 28 } },
        severity: 'error',
        code: 'schema/enum',
        message: 'transport must be one of stdio, http, sse; got "carrier-pigeon"',
      },
    ]);
  });

  it('checks several files in human form and exits 0 when there are only warnings', async () => {
    const mgp = join(dir, 'mgp.toml');
    const cargo = join(dir, 'config.toml');
    writeFileSync(mgp, '[[servers]]\nid = "a"\ncommand = "not-a-real-command-anywhere"\n');
    writeFileSync(cargo, '[build]\ntarget = "x\n');
    const { code, out, err } = await run(['check', mgp, cargo]);
    assert.equal(code, 0);
    assert.equal(
      out.trim(),
      `${mgp}:3:11: warning: command "not-a-real-command-anywhere" is not found on PATH [semantic/command-not-found]`,
    );
    assert.match(err, /2 file\(s\) checked: 0 error\(s\), 1 warning\(s\)/);
  });

  it('reports a missing file as an error, and no file as bad usage', async () => {
    const missing = await run(['check', join(dir, 'nope.toml'), '--json']);
    assert.equal(missing.code, 1);
    assert.equal(JSON.parse(missing.out)[0].code, 'file-unreadable');
    assert.equal((await run(['check'])).code, 2);
  });

  it('exits 2 on an unknown command', async () => {
    const { code, err } = await run(['frobnicate']);
    assert.equal(code, 2);
    assert.match(err, /unknown command "frobnicate"/);
  });
});
