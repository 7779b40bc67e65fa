import { strict as assert } from 'node:assert';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  EndedSession,
  HttpFront,
  HttpFrontOptions,
} from '../../../client/src/kernel/gateway/http/httpFront';

// The HTTP front over real loopback HTTP, each session served by a real SDK McpServer: when sessions
// end, and that ending one closes what serves it.

interface Served {
  front: HttpFront;
  /** Sessions whose server was closed, by the order they closed. */
  closedServers: number;
  ended: EndedSession[];
  /** Resolves with the next session that ends. */
  nextEnded(): Promise<EndedSession>;
  /** Released: the `wait` tool's calls answer. */
  release(): void;
}

async function serve(options: Partial<HttpFrontOptions>): Promise<Served> {
  const waiting: (() => void)[] = [];
  const endedListeners: ((ended: EndedSession) => void)[] = [];
  const served: Served = {
    front: undefined as unknown as HttpFront,
    closedServers: 0,
    ended: [],
    nextEnded: () => new Promise((resolve) => endedListeners.push(resolve)),
    release: () => waiting.splice(0).forEach((go) => go()),
  };
  served.front = await HttpFront.listen({
    port: 0,
    ...options,
    onSessionEnded: (ended) => {
      served.ended.push(ended);
      endedListeners.splice(0).forEach((listener) => listener(ended));
    },
    connect: async (transport) => {
      const server = new McpServer({ name: 'front-test', version: '1' });
      server.registerTool('wait', { description: 'answers when released' }, async () => {
        await new Promise<void>((resolve) => waiting.push(resolve));
        return { content: [{ type: 'text', text: 'released' }] };
      });
      server.server.onclose = () => void served.closedServers++;
      await server.connect(transport);
    },
  });
  return served;
}

async function client(served: Served, name: string): Promise<Client> {
  const sdk = new Client({ name, version: '1' });
  await sdk.connect(
    new StreamableHTTPClientTransport(new URL(served.front.url), {
      requestInit: { headers: { authorization: `Bearer ${served.front.token}` } },
    }),
  );
  return sdk;
}

/** A raw initialize, its answer read to the end: the session is then idle. Its session id. */
function openAndAbandon(served: Served, name: string): Promise<string> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      served.front.url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${served.front.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(String(res.headers['mcp-session-id']))
            : reject(new Error(`initialize answered ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('mgp serve --http sessions: idle expiry and room for new clients', function () {
  this.timeout(60_000);
  let served: Served | undefined;
  afterEach(async () => {
    served?.release();
    await served?.front.close();
    served = undefined;
  });

  it('an idle session expires and closes what served it', async () => {
    served = await serve({ idleTimeoutMs: 300 });
    const ended = served.nextEnded();
    const id = await openAndAbandon(served, 'forgetful');
    assert.deepEqual(await ended, { id, client: 'forgetful', why: 'idle' });
    assert.equal(served.front.sessionCount, 0);
    assert.equal(served.closedServers, 1);
  });

  it('an active session is not expired: a call in progress, then the next one', async () => {
    // Long enough that a loaded machine sets up the SDK client (initialize, its stream, the call)
    // well within it: the test is about activity, not about how fast the client is.
    served = await serve({ idleTimeoutMs: 2_000 });
    const busy = await client(served, 'busy');
    const call = busy.callTool({ name: 'wait', arguments: {} });
    const ended = served.nextEnded();
    await openAndAbandon(served, 'idle one');
    assert.equal((await ended).client, 'idle one', 'the idle timeout has passed');
    assert.equal(served.front.sessionCount, 1);
    served.release();
    assert.deepEqual((await call).content, [{ type: 'text', text: 'released' }]);
    assert.ok((await busy.listTools()).tools.some((t) => t.name === 'wait'));
    assert.ok(
      served.ended.every((e) => e.client !== 'busy'),
      JSON.stringify(served.ended),
    );
    await busy.close();
  });

  it('64 sessions opened and abandoned do not lock out a new client', async () => {
    served = await serve({});
    const first = await openAndAbandon(served, 'leaky 0');
    for (let i = 1; i < 64; i++) await openAndAbandon(served, `leaky ${i}`);
    assert.equal(served.front.sessionCount, 64);
    const newcomer = await client(served, 'newcomer');
    assert.ok((await newcomer.listTools()).tools.length > 0);
    assert.deepEqual(served.ended, [{ id: first, client: 'leaky 0', why: 'evicted' }]);
    assert.equal(served.closedServers, 1);
    await newcomer.close();
  });

  it("one client's sessions past its share push out its own oldest, not others'", async () => {
    served = await serve({ maxSessionsPerClient: 4 });
    const other = await openAndAbandon(served, 'other');
    const own: string[] = [];
    for (let i = 0; i < 10; i++) own.push(await openAndAbandon(served, 'leaky'));
    assert.equal(served.front.sessionCount, 5);
    assert.deepEqual(
      served.ended.map((e) => [e.id, e.client, e.why]),
      own.slice(0, 6).map((id) => [id, 'leaky', 'evicted']),
    );
    assert.ok(!served.ended.some((e) => e.id === other));
  });
});
