import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverConfigFiles } from '../../client/src/kernel/config/discover';
import { loadKernelConfig, parseConfigText } from '../../client/src/kernel/config/load';

describe('config discovery and loading', () => {
  let scratch: string;
  let workspace: string;
  let home: string;

  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'mgp-config-'));
    workspace = join(scratch, 'ws');
    home = join(scratch, 'home');
    mkdirSync(workspace);
    mkdirSync(join(home, '.config/mgp'), { recursive: true });
    mkdirSync(join(home, '.openfang'), { recursive: true });
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  const write = (path: string, text: string) => writeFileSync(path, text);

  it('finds config files nearest first, and only those that exist', () => {
    write(join(workspace, 'mgp.toml'), '');
    write(join(workspace, 'mcp.toml'), '');
    write(join(home, '.config/mgp/servers.toml'), '');
    write(join(scratch, 'extra.toml'), '');
    write(join(home, '.openfang/config.toml'), '');
    const found = discoverConfigFiles({
      workspaceFolders: [workspace],
      home,
      env: { MGP_CONFIG_PATH: join(scratch, 'extra.toml') },
    });
    assert.deepEqual(
      found.map((f) => [f.path.slice(scratch.length + 1), f.format, f.origin]),
      [
        ['ws/mgp.toml', 'mgp', 'workspace'],
        ['ws/mcp.toml', 'mgp', 'workspace'],
        ['home/.config/mgp/servers.toml', 'mgp', 'user'],
        ['extra.toml', 'mgp', 'env'],
        ['home/.openfang/config.toml', 'openfang', 'user'],
      ],
    );
  });

  it('reads MGP [[servers]] with the line of each table header', () => {
    const text =
      '# comment\n[[servers]]\nid = "a"\ncommand = "node"\nargs = ["x.js"]\n\n[[servers]]\nid = "b"\nurl = "https://example.com/mcp"\n';
    const file = parseConfigText(text, { path: '/w/mgp.toml', format: 'mgp', origin: 'workspace' });
    assert.deepEqual(file.problems, []);
    assert.deepEqual(
      file.servers.map((s) => [s.id, s.transport, s.command ?? s.url, s.args, s.source.line]),
      [
        ['a', 'stdio', 'node', ['x.js'], 2],
        ['b', 'http', 'https://example.com/mcp', [], 7],
      ],
    );
  });

  it('reads OpenFang [[mcp_servers]] and ignores a config.toml that is not OpenFang', () => {
    const openfang =
      '[[mcp_servers]]\nname = "github"\ntimeout_secs = 30\n[mcp_servers.transport]\ntype = "stdio"\ncommand = "npx"\nargs = ["-y", "@modelcontextprotocol/server-github"]\n';
    const file = parseConfigText(openfang, {
      path: '/w/config.toml',
      format: 'openfang',
      origin: 'workspace',
    });
    assert.deepEqual(
      file.servers.map((s) => [s.id, s.transport, s.command, s.source.line]),
      [['github', 'stdio', 'npx', 1]],
    );
    const cargo = parseConfigText('[build]\ntarget = "wasm32"\n', {
      path: '/w/config.toml',
      format: 'openfang',
      origin: 'workspace',
    });
    assert.equal(cargo.ignored, true);
    assert.deepEqual(cargo.problems, []);
  });

  it('names file, line and column of a TOML syntax error', () => {
    const file = parseConfigText('[[servers]]\nid = "a\n', {
      path: '/w/mgp.toml',
      format: 'mgp',
      origin: 'workspace',
    });
    assert.equal(file.problems.length, 1);
    assert.deepEqual([file.problems[0].file, file.problems[0].line], ['/w/mgp.toml', 2]);
    assert.match(file.problems[0].message, /^TOML syntax error/);
  });

  it('reports problems with the line and key path the checker gives, and does not load a broken server', () => {
    const file = parseConfigText(
      '[[servers]]\nid = "a"\ntransport = "carrier-pigeon"\n[[servers]]\nid = "b"\ntransport = "stdio"\n[[servers]]\nid = "c"\ncommand = "node"\n',
      { path: '/w/mgp.toml', format: 'mgp', origin: 'workspace' },
    );
    assert.deepEqual(
      file.problems.map((p) => [p.line, p.column, p.key, p.message]),
      [
        [
          3,
          13,
          'servers[0].transport',
          'transport must be one of stdio, http, sse; got "carrier-pigeon"',
        ],
        [4, 1, 'servers[1]', 'server "b" uses the stdio transport but has no `command`'],
      ],
    );
    assert.deepEqual(
      file.servers.map((s) => s.id),
      ['c'],
    );
  });

  it('lets the nearer file win for the same id and tells about the farther one', async () => {
    write(join(workspace, 'mgp.toml'), '[[servers]]\nid = "shared"\ncommand = "near"\n');
    write(
      join(home, '.config/mgp/servers.toml'),
      '[[servers]]\nid = "shared"\ncommand = "far"\n[[servers]]\nid = "only-far"\ncommand = "x"\n',
    );
    const config = await loadKernelConfig({
      workspaceFolders: [workspace],
      home,
      env: { PATH: process.env.PATH },
    });
    assert.deepEqual(
      config.servers.map((s) => [s.id, s.command]),
      [
        ['shared', 'near'],
        ['only-far', 'x'],
      ],
    );
    assert.equal(config.shadowed.length, 1);
    assert.equal(config.shadowed[0].server.command, 'far');
    const info = config.problems.find((p) => p.severity === 'information');
    assert.ok(info, 'an information problem for the shadowed server');
    assert.equal(info.file, join(home, '.config/mgp/servers.toml'));
    assert.equal(info.line, 1);
  });

  it('marks a duplicate id within one file as an error', async () => {
    write(
      join(workspace, 'mgp.toml'),
      '[[servers]]\nid = "a"\ncommand = "node"\nargs = ["x"]\n[[servers]]\nid = "a"\ncommand = "node"\nargs = ["y"]\n',
    );
    const config = await loadKernelConfig({
      workspaceFolders: [workspace],
      home,
      env: { PATH: process.env.PATH },
    });
    assert.deepEqual(
      config.problems.map((p) => [p.severity, p.line, p.key, p.message]),
      [['error', 6, 'servers[1].id', 'duplicate server id "a": already used at line 2']],
    );
    assert.deepEqual(
      config.servers.map((s) => s.args),
      [['x']],
    );
  });
});
