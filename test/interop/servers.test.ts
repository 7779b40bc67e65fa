import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { repoRoot } from '../repoRoot';

const root = repoRoot();

async function connect(args: string[]): Promise<Client> {
  const client = new Client({ name: 'mgp-kernel-interop', version: '0.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '' },
  });
  await client.connect(transport);
  return client;
}

function text(result: unknown): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('');
}

describe('interop: our example server over stdio', () => {
  let client: Client;
  before(
    async () =>
      (client = await connect([join(root, 'examples/servers/dist/mgp-example-server.js')])),
  );
  after(async () => client?.close());

  it('initializes and names itself', () => {
    assert.equal(client.getServerVersion()?.name, 'mgp-example-server');
    assert.ok(client.getServerCapabilities()?.tools);
  });

  it('lists its tools with their annotations', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['add', 'echo', 'list_notes', 'write_note']);
    assert.equal(tools.find((t) => t.name === 'write_note')?.annotations?.destructiveHint, true);
  });

  it('runs tools, with structured output where declared', async () => {
    assert.equal(
      text(await client.callTool({ name: 'echo', arguments: { text: 'hello' } })),
      'hello',
    );
    const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
    assert.deepEqual(sum.structuredContent, { sum: 42 });
    await client.callTool({ name: 'write_note', arguments: { title: 't', body: 'b' } });
    assert.equal(text(await client.callTool({ name: 'list_notes', arguments: {} })), 't: b');
  });

  it('reports bad arguments as a tool error, not a crash', async () => {
    const result = await client.callTool({ name: 'add', arguments: { a: 'two', b: 1 } });
    assert.equal(result.isError, true);
    assert.equal(
      text(await client.callTool({ name: 'echo', arguments: { text: 'still alive' } })),
      'still alive',
    );
  });

  it('serves its resource and prompt', async () => {
    const resource = await client.readResource({ uri: 'mgp-example://about' });
    assert.match(String((resource.contents[0] as { text?: string }).text), /mgp-example-server/);
    const prompt = await client.getPrompt({
      name: 'summarize-notes',
      arguments: { style: 'terse' },
    });
    assert.match(JSON.stringify(prompt.messages), /terse style/);
  });
});

describe('interop: @modelcontextprotocol/server-everything over stdio', () => {
  let client: Client;
  before(
    async () =>
      (client = await connect([
        join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
        'stdio',
      ])),
  );
  after(async () => client?.close());

  it('lists tools, resources and prompts', async () => {
    const { tools } = await client.listTools();
    assert.ok(
      tools.some((t) => t.name === 'echo'),
      tools.map((t) => t.name).join(', '),
    );
    assert.ok((await client.listResources()).resources.length > 0);
    assert.ok((await client.listPrompts()).prompts.length > 0);
  });

  it('runs its echo tool', async () => {
    assert.match(
      text(await client.callTool({ name: 'echo', arguments: { message: 'ping from mgp' } })),
      /ping from mgp/,
    );
  });
});
