import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchFingerprint } from '../../client/src/kernel/config/launchFingerprint';
import { loadKernelConfig, parseConfigText } from '../../client/src/kernel/config/load';
import {
  invalidValue,
  newServerFrom,
  splitCommandLine,
} from '../../client/src/kernel/config/newServer';
import { appendBlocks, serverBlock } from '../../client/src/kernel/config/serverBlock';

describe('Add Server: from what a person types to a server', () => {
  it('splits a command line as a shell would for words and quotes, with no expansion', () => {
    assert.deepEqual(splitCommandLine(`node  "my server.js" --name 'a b' x\\ y $HOME ""`), [
      'node',
      'my server.js',
      '--name',
      'a b',
      'x y',
      '$HOME',
      '',
    ]);
    assert.deepEqual(splitCommandLine(`say "a \\"quoted\\" \\n"`), ['say', 'a "quoted" \\n']);
    assert.equal(splitCommandLine(`node "open`), undefined);
  });

  it('makes an npm package server run with npx, named after the package', () => {
    assert.deepEqual(newServerFrom('npm', ' @modelcontextprotocol/server-everything '), {
      id: 'everything',
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-everything'],
    });
    assert.equal(newServerFrom('npm', '@scope/mcp-server-git@1.2.0').id, 'git');
    assert.equal(newServerFrom('npm', 'weather-mcp').id, 'weather');
  });

  it('names a command server after its script or program', () => {
    const server = newServerFrom('command', 'node ./servers/files.js --root .');
    assert.deepEqual(server, {
      id: 'files',
      transport: 'stdio',
      command: 'node',
      args: ['./servers/files.js', '--root', '.'],
    });
    assert.equal(newServerFrom('command', '/usr/bin/my-tool serve').id, 'my-tool');
  });

  it('connects by URL over Streamable HTTP, or legacy SSE at /sse', () => {
    assert.deepEqual(newServerFrom('http', 'https://mcp.example.com/mcp'), {
      id: 'example.com',
      transport: 'http',
      url: 'https://mcp.example.com/mcp',
    });
    assert.equal(newServerFrom('http', 'http://localhost:3001/sse').transport, 'sse');
  });

  it('says what is wrong with a value before anything is written', () => {
    assert.match(invalidValue('npm', 'Not A Package') ?? '', /Not an npm package name/);
    assert.equal(invalidValue('npm', '@modelcontextprotocol/server-everything'), undefined);
    assert.match(invalidValue('http', 'example.com/mcp') ?? '', /Not a URL/);
    assert.match(invalidValue('http', 'file:///etc/passwd') ?? '', /file: is not http/);
    assert.match(invalidValue('command', 'node "x') ?? '', /quote is not closed/);
    assert.match(invalidValue('command', '  ') ?? '', /Type a value/);
  });

  describe('the approval recorded before the file is written', () => {
    let workspace: string;
    let home: string;
    beforeEach(() => {
      workspace = mkdtempSync(join(tmpdir(), 'mgp-add-ws-'));
      home = mkdtempSync(join(tmpdir(), 'mgp-add-home-'));
    });
    afterEach(() => {
      rmSync(workspace, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    });

    it('is the fingerprint the loaded workspace config gives the same server', async () => {
      const path = join(workspace, 'mgp.toml');
      const before = '# mine\n[kernel]\napproval_policy = "interactive"\n';
      const server = { ...newServerFrom('npm', 'weather-mcp'), env: { KEY: '${secret:K}' } };
      const text = appendBlocks(before, [serverBlock(server)]);
      const [predicted] = parseConfigText(text, {
        path,
        format: 'mgp',
        origin: 'workspace',
      }).servers;
      writeFileSync(path, text);
      const config = await loadKernelConfig({ workspaceFolders: [workspace], home, env: {} });
      assert.equal(config.servers.length, 1);
      assert.equal(launchFingerprint(predicted), launchFingerprint(config.servers[0]));
    });
  });
});
