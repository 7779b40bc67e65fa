import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ErrorCode,
  ListResourcesResultSchema,
  McpError,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import {
  FramedStdioClientTransport,
  type FramedStdioOptions,
} from '../../client/src/kernel/transport/contentLengthStdio';
import type { Framing, FramingMode } from '../../client/src/kernel/transport/framing';
import { repoRoot } from '../repoRoot';
import { eventually } from '../support/patience';

const root = repoRoot();
const contentLengthServer = join(root, 'test/fixtures/servers/content-length-server.js');
const exampleServer = join(root, 'examples/servers/dist/mgp-example-server.js');

function text(result: unknown): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('');
}

function assertGone(pid: number | null): void {
  assert.ok(pid, 'the transport gave a pid');
  assert.throws(
    () => process.kill(pid, 0),
    (error: NodeJS.ErrnoException) => error.code === 'ESRCH',
  );
}

const waitFor = (condition: () => boolean) => eventually(condition);

/** A transport for `node -e script`, with what it reports collected. */
function nodeScript(script: string, options: Partial<FramedStdioOptions> = {}) {
  const seen = {
    messages: [] as JSONRPCMessage[],
    errors: [] as Error[],
    closes: 0,
    stderr: [] as string[],
  };
  const transport = new FramedStdioClientTransport({
    command: process.execPath,
    args: ['-e', script],
    framing: 'auto',
    onStderr: (line) => seen.stderr.push(line),
    ...options,
  });
  transport.onmessage = (message) => seen.messages.push(message);
  transport.onerror = (error) => seen.errors.push(error);
  transport.onclose = () => seen.closes++;
  return { transport, seen };
}

const cases: {
  server: string;
  script: string;
  framing: FramingMode;
  detected: Framing;
  name: string;
}[] = [
  {
    server: 'content-length-server.js',
    script: contentLengthServer,
    framing: 'auto',
    detected: 'content-length',
    name: 'content-length-server',
  },
  {
    server: 'content-length-server.js',
    script: contentLengthServer,
    framing: 'content-length',
    detected: 'content-length',
    name: 'content-length-server',
  },
  {
    server: 'the example server (newline)',
    script: exampleServer,
    framing: 'auto',
    detected: 'newline',
    name: 'mgp-example-server',
  },
];

for (const c of cases) {
  describe(`interop: SDK Client over FramedStdioClientTransport (framing ${c.framing}) with ${c.server}`, () => {
    let client: Client;
    let transport: FramedStdioClientTransport;
    const stderr: string[] = [];
    const errors: Error[] = [];

    before(async () => {
      transport = new FramedStdioClientTransport({
        command: process.execPath,
        args: [c.script],
        framing: c.framing,
        onStderr: (line) => stderr.push(line),
      });
      client = new Client({ name: 'mgp-kernel-interop', version: '0.0.0' });
      client.onerror = (error) => errors.push(error);
      await client.connect(transport);
    });
    after(async () => client?.close());

    it(`initializes, with ${c.detected} framing in use`, () => {
      assert.equal(client.getServerVersion()?.name, c.name);
      assert.ok(client.getServerCapabilities()?.tools);
      assert.equal(transport.framing, c.detected);
      assert.deepEqual(errors, []);
    });

    it('lists tools, including echo with its input schema', async () => {
      const { tools } = await client.listTools();
      const echo = tools.find((t) => t.name === 'echo');
      assert.ok(echo, tools.map((t) => t.name).join(', '));
      assert.equal(echo.inputSchema.type, 'object');
      assert.ok(echo.inputSchema.properties?.text);
    });

    it('calls echo, multibyte text included', async () => {
      const sent = 'héllo € 𝄞 日本 — ok';
      assert.equal(text(await client.callTool({ name: 'echo', arguments: { text: sent } })), sent);
      assert.equal(
        text(await client.callTool({ name: 'echo', arguments: { text: 'x'.repeat(100_000) } }))
          .length,
        100_000,
      );
    });

    it('answers ping', async () => {
      assert.deepEqual(await client.ping(), {});
    });

    if (c.name === 'content-length-server') {
      it('answers an unknown method with -32601, and logs to stderr', async () => {
        await assert.rejects(
          client.request({ method: 'resources/list' }, ListResourcesResultSchema),
          (error: unknown) => error instanceof McpError && error.code === ErrorCode.MethodNotFound,
        );
        assert.ok(stderr.includes('content-length-server: ready'), stderr.join('\n'));
      });
    }

    it('closes: onclose once, no process left', async () => {
      let closes = 0;
      client.onclose = () => closes++;
      const pid = transport.pid;
      await client.close();
      assert.equal(closes, 1);
      assertGone(pid);
      await transport.close();
      assert.equal(closes, 1);
    });
  });
}

describe('FramedStdioClientTransport lifecycle', () => {
  it('rejects start() for a missing command, naming it', async () => {
    const { transport, seen } = nodeScript('', { command: 'mgp-no-such-server-4711' });
    await assert.rejects(
      transport.start(),
      /cannot start MCP server "mgp-no-such-server-4711": command not found \(ENOENT\)/,
    );
    await transport.close();
    assert.equal(seen.closes, 1);
  });

  it('blames a missing command, not its working directory, when the folder exists', async () => {
    const { transport } = nodeScript('', {
      command: 'mgp-no-such-server-4711',
      cwd: repoRoot(),
    });
    const error = await transport.start().then(
      () => assert.fail('started'),
      (e: Error) => e,
    );
    assert.match(error.message, /command not found \(ENOENT\)/);
    assert.doesNotMatch(error.message, /working directory/);
    await transport.close();
  });

  it('names a working directory that does not exist', async () => {
    const missing = join(repoRoot(), 'no-such-folder-4711');
    const { transport } = nodeScript('', { cwd: missing });
    await assert.rejects(
      transport.start(),
      new RegExp(`its working directory ${missing} does not exist \\(ENOENT\\)`),
    );
    await transport.close();
  });

  it('fires onclose once when the server exits by itself, and refuses to send afterwards', async () => {
    const { transport, seen } = nodeScript('process.exit(3)');
    await transport.start();
    await waitFor(() => seen.closes > 0);
    await transport.close();
    assert.equal(seen.closes, 1);
    await assert.rejects(
      transport.send({ jsonrpc: '2.0', method: 'ping', id: 1 }),
      /Not connected/,
    );
  });

  it('sends a message that is not JSON-RPC to onerror, not onmessage', async () => {
    const script = `const f = (m) => { const b = Buffer.from(JSON.stringify(m)); process.stdout.write('Content-Length: ' + b.length + '\\r\\n\\r\\n'); process.stdout.write(b); };
      f({ hello: 'world' }); f({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'ü' } });
      console.error('warn: first\\nsecond');`;
    const { transport, seen } = nodeScript(script);
    await transport.start();
    await waitFor(() => seen.closes > 0);
    assert.equal(transport.framing, 'content-length');
    assert.deepEqual(seen.messages, [
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'ü' } },
    ]);
    assert.equal(seen.errors.length, 1);
    assert.match(seen.errors[0].message, /not JSON-RPC 2\.0/);
    assert.deepEqual(seen.stderr, ['warn: first', 'second']);
  });

  it('waits once for a full pipe, however many sends meet it', async () => {
    // The server reads nothing until SIGUSR2, then answers once it has all 40 lines.
    const script = `
      let lines = 0;
      process.on('SIGUSR2', () => process.stdin.on('data', (chunk) => {
        const before = lines;
        lines += chunk.toString().split('\\n').length - 1;
        if (before < 40 && lines >= 40)
          console.log(JSON.stringify({ jsonrpc: '2.0', method: 'received', params: { lines } }));
      }));
      setInterval(() => {}, 1000);
      console.error('up');`;
    const { transport, seen } = nodeScript(script, { framing: 'newline' });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      await transport.start();
      await waitFor(() => seen.stderr.includes('up'));
      const text = 'x'.repeat(100_000);
      let sent = 0;
      const sends = Array.from({ length: 40 }, (_, i) =>
        transport
          .send({ jsonrpc: '2.0', method: 'notifications/message', params: { i, text } })
          .then(() => sent++),
      );
      await new Promise((resolve) => setImmediate(resolve));
      assert.ok(sent < 40, 'the pipe is full: sends wait');
      process.kill(transport.pid as number, 'SIGUSR2');
      await Promise.all(sends);
      await waitFor(() => seen.messages.length > 0);
      assert.deepEqual(seen.messages, [
        { jsonrpc: '2.0', method: 'received', params: { lines: 40 } },
      ]);
      const leaks = warnings.filter((w) => w.name === 'MaxListenersExceededWarning');
      assert.deepEqual(leaks.map(String), []);
    } finally {
      process.off('warning', onWarning);
      await transport.close();
    }
  });

  it('fails the sends that wait on a full pipe when the server exits', async () => {
    const { transport, seen } = nodeScript(
      "process.on('SIGUSR2', () => process.exit(0)); setInterval(() => {}, 1000); console.error('up')",
      { framing: 'newline' },
    );
    await transport.start();
    await waitFor(() => seen.stderr.includes('up'));
    const text = 'x'.repeat(100_000);
    const sends = Array.from({ length: 5 }, (_, i) =>
      transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { i, text } }),
    );
    process.kill(transport.pid as number, 'SIGUSR2');
    const outcomes = await Promise.allSettled(sends);
    assert.ok(
      outcomes.some((o) => o.status === 'rejected'),
      'a send that waited does not hang',
    );
    await waitFor(() => seen.closes === 1);
  });

  it('closes a server that ignores the end of stdin with SIGTERM', async function () {
    const { transport, seen } = nodeScript('setInterval(() => {}, 1000)');
    await transport.start();
    const pid = transport.pid;
    const started = Date.now();
    await transport.close();
    assert.ok(Date.now() - started >= 1900, 'waited for the grace period first');
    assertGone(pid);
    assert.equal(seen.closes, 1);
  });

  it('closes a server that ignores SIGTERM with SIGKILL', async function () {
    const { transport, seen } = nodeScript(
      "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); console.error('up')",
    );
    await transport.start();
    await waitFor(() => seen.stderr.includes('up'));
    const pid = transport.pid;
    const started = Date.now();
    await transport.close();
    assert.ok(Date.now() - started >= 3900, 'waited for both grace periods');
    assertGone(pid);
    assert.equal(seen.closes, 1);
  });
});
