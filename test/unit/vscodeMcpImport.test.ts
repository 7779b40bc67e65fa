import { strict as assert } from 'node:assert';
import { parseConfigText } from '../../client/src/kernel/config/load';
import {
  appendBlocks,
  serverBlock,
  serverIdsOf,
  tomlString,
  uniqueServerId,
} from '../../client/src/kernel/config/serverBlock';
import { importVscodeMcpJson } from '../../client/src/kernel/config/vscodeMcpImport';
import { parseTomlDocument } from '../../shared/src/configCheck/parse';

/** The servers the kernel loads from a workspace mgp.toml with this text, and its error problems. */
function load(text: string) {
  const loaded = parseConfigText(
    text,
    { path: '/ws/mgp.toml', format: 'mgp', origin: 'workspace' },
    { env: { HOME: '/home/me', GITHUB: 'x' }, commandOnPath: () => true, fileExists: () => true },
  );
  return {
    servers: loaded.servers,
    errors: loaded.problems.filter((p) => p.severity === 'error').map((p) => p.message),
  };
}

const VSCODE_MCP_JSON = `{
  // VS Code's own example: a prompt for a key, a stdio server and a remote one.
  "inputs": [
    { "type": "promptString", "id": "perplexity-key", "description": "Perplexity API Key", "password": true },
    { "type": "pickString", "id": "region", "options": ["eu", "us"], "default": "eu" },
    { "type": "command", "id": "picked", "command": "extension.pick" }
  ],
  "servers": {
    "Perplexity": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "server-perplexity-ask", "--region", "\${input:region}"],
      "env": { "PERPLEXITY_API_KEY": "\${input:perplexity-key}", "TOKEN": "\${env:GITHUB}" },
      "envFile": "\${workspaceFolder}/.env",
    },
    "github": {
      "type": "http",
      "url": "https://api.githubcopilot.com/mcp/",
      "headers": { "Authorization": "Bearer \${input:perplexity-key}" }
    },
    "legacy": { "type": "sse", "url": "http://localhost:3001/sse" },
    "memory": { "command": "node", "args": ["\${workspaceFolder}/tools/memory.js"] },
    "inner": {
      "command": "node",
      "args": ["\${workspaceFolder}/server.js", "main.js"],
      "cwd": "\${workspaceFolder}/sub/dir"
    },
    "picker": { "command": "node", "args": ["\${input:picked}"], "dev": { "watch": "src/**" } },
    "websocket": { "type": "ws", "url": "ws://localhost:1" }
  }
}`;

describe('import of .vscode/mcp.json', () => {
  const imported = importVscodeMcpJson(VSCODE_MCP_JSON, { existingIds: new Set(['memory']) });
  const byId = new Map(imported.servers.map((s) => [s.id, s]));

  it('translates stdio, http and sse servers, comments and trailing commas allowed', () => {
    assert.equal(imported.error, undefined);
    assert.deepEqual(
      imported.servers.map((s) => [s.id, s.transport]),
      [
        ['Perplexity', 'stdio'],
        ['github', 'http'],
        ['legacy', 'sse'],
        ['memory-2', 'stdio'],
        ['inner', 'stdio'],
        ['picker', 'stdio'],
      ],
    );
    assert.equal(byId.get('legacy')?.url, 'http://localhost:3001/sse');
  });

  it('turns ${input:…} into ${secret:…} and lists the inputs to ask, in order of use', () => {
    const perplexity = byId.get('Perplexity');
    assert.deepEqual(perplexity?.args, [
      '-y',
      'server-perplexity-ask',
      '--region',
      '${secret:region}',
    ]);
    assert.equal(perplexity?.env?.PERPLEXITY_API_KEY, '${secret:perplexity-key}');
    assert.equal(byId.get('github')?.headers?.Authorization, 'Bearer ${secret:perplexity-key}');
    assert.deepEqual(
      imported.inputs.map((i) => [i.id, i.secretName, i.password, i.options]),
      [
        ['region', 'region', false, ['eu', 'us']],
        ['perplexity-key', 'perplexity-key', true, undefined],
      ],
    );
  });

  it('maps ${env:X} and ${workspaceFolder} to what the kernel reads, relative to cwd', () => {
    assert.equal(byId.get('Perplexity')?.env?.TOKEN, '${GITHUB}');
    assert.deepEqual(byId.get('memory-2')?.args, ['./tools/memory.js']);
    const inner = byId.get('inner');
    assert.equal(inner?.cwd, './sub/dir');
    assert.deepEqual(inner?.args, ['../../server.js', 'main.js']);
  });

  it('reports what it could not translate, naming the server and the key', () => {
    const notes = imported.notes.join('\n');
    assert.match(notes, /"Perplexity": "envFile" is not read/);
    assert.match(
      notes,
      /"picker": \$\{input:picked\} was kept as written: input "picked" is of type command/,
    );
    assert.match(notes, /"picker": "dev" not imported/);
    assert.match(notes, /"websocket" was not imported: type "ws" is not stdio, http or sse/);
    assert.match(notes, /"memory" was imported as "memory-2"/);
  });

  it('writes TOML the kernel loads without errors, with the references intact', () => {
    const text = appendBlocks(
      '# my servers\n[[servers]]\nid = "memory"\ncommand = "node"\n',
      imported.servers.filter((s) => s.id !== 'picker').map((s) => serverBlock(s)),
    );
    assert.ok(text.startsWith('# my servers\n[[servers]]\nid = "memory"\ncommand = "node"\n\n'));
    const { servers, errors } = load(text);
    assert.deepEqual(errors, []);
    assert.deepEqual(
      servers.map((s) => s.id),
      ['memory', 'Perplexity', 'github', 'legacy', 'memory-2', 'inner'],
    );
    const perplexity = servers.find((s) => s.id === 'Perplexity');
    assert.equal(perplexity?.settings.env.PERPLEXITY_API_KEY, '${secret:perplexity-key}');
    assert.equal(
      servers.find((s) => s.id === 'github')?.settings.headers.Authorization,
      'Bearer ${secret:perplexity-key}',
    );
  });

  it('says why when the file does not parse or lists no servers', () => {
    assert.match(
      importVscodeMcpJson('{ "servers": { "a": } }', { existingIds: new Set() }).error ?? '',
      /does not parse: ValueExpected at line 1/,
    );
    assert.match(
      importVscodeMcpJson('{ "inputs": [] }', { existingIds: new Set() }).error ?? '',
      /lists no servers/,
    );
  });
});

describe('server blocks for mgp.toml', () => {
  it('escapes what TOML must and parses back to the same values', () => {
    const nasty = 'a "quoted" \\ path\twith\nlines \u0001';
    const block = serverBlock({
      id: 'x',
      transport: 'stdio',
      command: nasty,
      args: [nasty],
      env: { 'ODD KEY': nasty, PLAIN: 'v' },
    });
    const parsed = parseTomlDocument(block);
    assert.ok(parsed.ok);
    const server = (parsed.value.servers as Record<string, unknown>[])[0];
    assert.equal(server.command, nasty);
    assert.deepEqual(server.args, [nasty]);
    assert.deepEqual({ ...(server.env as object) }, { 'ODD KEY': nasty, PLAIN: 'v' });
    assert.equal(tomlString('"'), '"\\""');
  });

  it('makes ids the config accepts, unique among the ones taken', () => {
    const taken = serverIdsOf({ servers: [{ id: 'files' }, { id: 'files-2' }, {}] });
    assert.deepEqual([...taken], ['files', 'files-2']);
    assert.equal(uniqueServerId('files', taken), 'files-3');
    assert.equal(uniqueServerId('My Server!', taken), 'My-Server');
    assert.equal(uniqueServerId('???', taken), 'server');
  });

  it('appends after existing text, comments kept, and starts an empty file plainly', () => {
    const block = serverBlock({ id: 'a', transport: 'http', url: 'http://h/mcp' }, 'added');
    assert.equal(
      block,
      '# added\n[[servers]]\nid = "a"\nurl = "http://h/mcp"\ntransport = "http"\n',
    );
    assert.equal(appendBlocks('', [block]), block);
    assert.equal(appendBlocks('# keep me', [block]), `# keep me\n\n${block}`);
  });
});
