import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResult,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  McpError,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { repoRoot } from '../repoRoot';
import { refusalResult } from './support/refusals';
import {
  GatewayWorkspace,
  nextEvent,
  stdioGateway,
  type StdioGateway,
} from './support/gatewayProcess';

const root = repoRoot();
const node = JSON.stringify(process.execPath);
const path = (p: string) => JSON.stringify(join(root, p));

/**
 * Real servers behind the gateway: the example server, our conformance server (sampling, elicitation,
 * logging, progress), the filesystem server with no folder of its own (it asks for roots), a plain
 * server whose `echo` clashes with the example's, and one that dies at its first call.
 */
function config(): string {
  return `[[servers]]
id = "example"
command = ${node}
args = [${path('examples/servers/dist/mgp-example-server.js')}]

[[servers]]
id = "conformance"
command = ${node}
args = [${path('test/fixtures/servers/conformance-server.js')}]

[[servers]]
id = "files"
command = ${node}
args = [${path('node_modules/@modelcontextprotocol/server-filesystem/dist/index.js')}]

[[servers]]
id = "plain"
command = ${node}
args = [${path('test/fixtures/servers/params-echo.js')}]

[[servers]]
id = "fragile"
command = ${node}
args = [${path('test/fixtures/servers/crash-after-calls.js')}, "1"]
[servers.mgp]
restart_policy = "never"

[[kernel.access_grants]]
agent_id = "agent.gateway.denied-client"
server_id = "plain"
permission = "deny"
`;
}

describe('mgp serve --expose all: every server through the kernel', function () {
  this.timeout(90000);
  let workspace: GatewayWorkspace;
  let gateway: StdioGateway;
  const roots = () => [
    { uri: pathToFileURL(join(workspace.dir, 'client-root')).href, name: 'client root' },
  ];
  const sampled: string[] = [];
  const logs: LoggingMessageNotification['params'][] = [];
  let rootsAsked: () => void;
  const askedForRoots = new Promise<void>((resolve) => (rootsAsked = resolve));

  before(async () => {
    workspace = new GatewayWorkspace(config());
    mkdirSync(join(workspace.dir, 'client-root'));
    gateway = await stdioGateway(workspace, ['--expose', 'all'], {
      name: 'all-client',
      capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } },
      setUp: (client: Client) => {
        client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
          const first = request.params.messages[0].content;
          sampled.push(!Array.isArray(first) && first.type === 'text' ? first.text : '?');
          return {
            role: 'assistant',
            content: { type: 'text', text: 'sampled upstream' },
            model: 'client-model',
          };
        });
        client.setRequestHandler(ElicitRequestSchema, async () => ({
          action: 'accept',
          content: { username: 'ada', email: 'ada@example.com' },
        }));
        client.setRequestHandler(ListRootsRequestSchema, async () => {
          rootsAsked();
          return { roots: roots() };
        });
        client.setNotificationHandler(
          LoggingMessageNotificationSchema,
          (n) => void logs.push(n.params),
        );
      },
    });
  });
  after(async () => {
    await gateway?.close();
    workspace.remove();
  });

  it("lists every server's tools named by their server, in names a model API accepts", async () => {
    const names = (await gateway.client.listTools()).tools.map((t) => t.name);
    for (const name of [
      'example__add',
      'conformance__test_simple_text',
      'files__list_allowed_directories',
      'example__echo',
      'plain__echo',
      'fragile__echo',
      'mgp_tools_discover',
    ])
      assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
    for (const name of names) assert.match(name, /^[A-Za-z0-9_-]{1,64}$/);
    assert.ok(!names.includes('echo'));
    assert.ok(!names.some((n) => n.startsWith('mgp_access') || n.startsWith('mgp_lifecycle')));
    const clash = await refusalResult(
      gateway.client.callTool({ name: 'echo', arguments: { text: 'x' } }),
    );
    assert.equal(clash.code, 4001);
    assert.match(
      clash.violations[0],
      /example\.echo, plain\.echo, fragile\.echo|example\.echo.*plain\.echo/,
    );
    for (const name of ['example__add', 'example.add', 'add']) {
      const called = await gateway.client.callTool({ name, arguments: { a: 1, b: 2 } });
      assert.deepEqual(called.structuredContent, { sum: 3 }, `called as ${name}`);
    }
  });

  it('gives a client that speaks MGP the names as MGP writes them', async () => {
    const mgpClient = await stdioGateway(workspace, ['--expose', 'all'], {
      name: 'MGP Client',
      capabilities: { mgp: { version: '0.5.2', extensions: ['security'] } } as never,
    });
    try {
      const names = (await mgpClient.client.listTools()).tools.map((t) => t.name);
      for (const name of ['mgp.tools.discover', 'example.add', 'plain.echo'])
        assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
    } finally {
      await mgpClient.close();
    }
  });

  it('passes resources, templates, prompts and completions through, URIs unchanged', async () => {
    const uris = (await gateway.client.listResources()).resources.map((r) => r.uri);
    assert.ok(
      uris.includes('test://static-text') && uris.includes('mgp-example://about'),
      uris.join(', '),
    );
    const templates = (await gateway.client.listResourceTemplates()).resourceTemplates;
    assert.ok(templates.some((t) => t.uriTemplate === 'test://template/{id}/data'));
    const read = await gateway.client.readResource({ uri: 'test://template/42/data' });
    assert.match(String((read.contents[0] as { text?: string }).text), /Data for ID: 42/);
    const prompt = await gateway.client.getPrompt({
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'hello', arg2: 'world' },
    });
    assert.match(JSON.stringify(prompt.messages), /arg1='hello', arg2='world'/);
    const completed = await gateway.client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'par' },
    });
    assert.deepEqual(completed.completion.values, ['paris', 'park', 'party']);
  });

  it("passes progress and the server's log messages on, at the level the client set", async () => {
    const progress: number[] = [];
    await gateway.client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, {
      onprogress: (p) => void progress.push(p.progress),
    });
    // The SDK client handles a notification a microtask after the response read with it, so a last
    // progress sent right before the result can arrive after its call is over (over stdio, directly
    // connected or not). Those sent before it pass through in order.
    assert.deepEqual(progress.slice(0, 2), [0, 50]);
    await gateway.client.setLoggingLevel('info');
    await gateway.client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    const fromTool = logs.filter((l) => l.logger === 'conformance').map((l) => l.data);
    assert.deepEqual(fromTool.slice(-3), [
      'Tool execution started',
      'Tool processing data',
      'Tool execution completed',
    ]);
    await gateway.client.setLoggingLevel('error');
    const before = logs.length;
    await gateway.client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.equal(logs.length, before, 'info lines are held back at level error');
  });

  it("takes a server's sampling and elicitation up to the client whose call caused them", async () => {
    const sampling = await gateway.client.callTool({
      name: 'test_sampling',
      arguments: { prompt: 'Say hi' },
    });
    assert.deepEqual(sampled, ['Say hi']);
    assert.match(JSON.stringify(sampling.content), /LLM response: sampled upstream/);
    const elicited = await gateway.client.callTool({
      name: 'test_elicitation',
      arguments: { message: 'Who are you?' },
    });
    assert.match(JSON.stringify(elicited.content), /action=accept.*ada@example\.com/);
  });

  it("answers a server's roots/list with the client's roots", async () => {
    // The client's arrival made the kernel tell servers their roots changed; the filesystem server asks.
    await askedForRoots;
    const deadline = Date.now() + 20000;
    let allowed = '';
    while (!allowed.includes('client-root') && Date.now() < deadline) {
      const result = await gateway.client.callTool({
        name: 'list_allowed_directories',
        arguments: {},
      });
      allowed = JSON.stringify(result.content);
    }
    assert.match(allowed, /client-root/);
  });

  it('cancels a call in the kernel when the client cancels it', async () => {
    const controller = new AbortController();
    const started = nextEvent<void>((done) => {
      const call = gateway.client.callTool(
        { name: 'long_task', arguments: { steps: 100, delay_ms: 100 } },
        undefined,
        { signal: controller.signal, onprogress: () => done() },
      );
      void call.catch(() => undefined);
    });
    await started;
    controller.abort();
    const after = await gateway.client.callTool({ name: 'add', arguments: { a: 2, b: 2 } });
    assert.deepEqual(after.structuredContent, { sum: 4 });
  });

  it('tells the client its tools changed when a server goes away', async () => {
    const changed = nextEvent<void>((done) =>
      gateway.client.setNotificationHandler(ToolListChangedNotificationSchema, () => done()),
    );
    const crashed = await gateway.client
      .callTool({ name: 'fragile__echo', arguments: { text: 'bye' } })
      .catch((error: unknown) => error);
    assert.ok(
      crashed instanceof McpError || (crashed as CallToolResult).isError,
      JSON.stringify(crashed),
    );
    await changed;
    const names = (await gateway.client.listTools()).tools.map((t) => t.name);
    assert.ok(!names.includes('fragile__echo'), names.join(', '));
    assert.ok(names.includes('example__echo') && names.includes('plain__echo'));
  });

  it('hides a server the client has no access to, and refuses its tools (MGP 1001)', async () => {
    const denied = await stdioGateway(workspace, ['--expose', 'all'], { name: 'Denied Client' });
    try {
      const names = (await denied.client.listTools()).tools.map((t) => t.name);
      assert.ok(!names.some((n) => n.startsWith('plain__')), names.join(', '));
      const error = await refusalResult(
        denied.client.callTool({ name: 'plain.echo', arguments: { text: 'x' } }),
      );
      assert.equal(error.code, 1001);
    } finally {
      await denied.close();
    }
  });

  it("recorded every call in the audit log under the client's identity", async () => {
    await gateway.close();
    const records = await workspace.audit();
    const mine = (type: string, tool: string) =>
      records.filter(
        (r) =>
          r.event_type === type &&
          r.target.tool_name === tool &&
          r.actor.id === 'agent.gateway.all-client',
      );
    assert.equal(mine('TOOL_EXECUTED', 'test_sampling').length, 1);
    const cancelled = mine('TOOL_EXECUTED', 'long_task');
    assert.equal(cancelled.length, 1);
    assert.equal(cancelled[0].result, 'FAILURE');
    assert.match(String(cancelled[0].details.error), /long_task was cancelled/);
    const sampling = records.filter((r) => r.event_type === 'dev.mgp-kernel.sampling');
    assert.equal(sampling.at(-1)?.details.answered_by, 'agent.gateway.all-client');
    const reads = records.filter((r) => r.event_type === 'dev.mgp-kernel.resource_read');
    assert.deepEqual(reads.at(-1)?.details, { uri: 'test://template/42/data' });
  });
});
