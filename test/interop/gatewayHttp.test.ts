import { strict as assert } from 'node:assert';
import { networkInterfaces } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { repoRoot } from '../repoRoot';
import { GatewayWorkspace, httpGateway, type HttpGateway } from './support/gatewayProcess';

const node = JSON.stringify(process.execPath);
const example = JSON.stringify(join(repoRoot(), 'examples/servers/dist/mgp-example-server.js'));

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
});

/** A raw POST of an initialize, with these headers: the status and body the gateway answers. */
function post(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(INITIALIZE);
  });
}

describe('mgp serve --http: Streamable HTTP on loopback, with a token', function () {
  this.timeout(60000);
  let workspace: GatewayWorkspace;
  let gateway: HttpGateway;

  before(async () => {
    workspace = new GatewayWorkspace(
      `[[servers]]\nid = "example"\ncommand = ${node}\nargs = [${example}]\n`,
    );
    gateway = await httpGateway(workspace, ['--expose', 'all']);
  });
  after(async () => {
    await gateway.stop();
    workspace.remove();
  });

  it('prints an endpoint on 127.0.0.1 and a random token', () => {
    assert.match(gateway.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.match(gateway.token, /^[A-Za-z0-9_-]{43}$/);
  });

  it('serves the SDK client that sends the token', async () => {
    const client = new Client({ name: 'http-client', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(gateway.url), {
        requestInit: { headers: { authorization: `Bearer ${gateway.token}` } },
      }),
    );
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('add') && names.includes('mgp_tools_discover'), names.join(', '));
      const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
      assert.deepEqual(sum.structuredContent, { sum: 5 });
      const about = await client.readResource({ uri: 'mgp-example://about' });
      assert.ok(about.contents.length > 0);
    } finally {
      await client.close();
    }
  });

  it('answers 401 to a request without the token, or with a wrong one', async () => {
    const none = await post(gateway.url, {});
    assert.equal(none.status, 401);
    assert.equal(none.headers['www-authenticate'], 'Bearer');
    const wrong = await post(gateway.url, { authorization: `Bearer ${gateway.token}x` });
    assert.equal(wrong.status, 401);
  });

  it('answers 403 to a foreign Origin or Host, even with the token (DNS rebinding)', async () => {
    const authorization = `Bearer ${gateway.token}`;
    const origin = await post(gateway.url, { authorization, origin: 'http://evil.example.com' });
    assert.equal(origin.status, 403);
    assert.match(origin.body, /origin http:\/\/evil\.example\.com/);
    const host = await post(gateway.url, { authorization, host: 'evil.example.com' });
    assert.equal(host.status, 403);
    const local = await post(gateway.url, { authorization, origin: 'http://localhost:3000' });
    assert.equal(local.status, 200);
  });

  it('listens on the loopback interface only', async function () {
    const port = new URL(gateway.url).port;
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address && address.family === 'IPv4' && !address.internal);
    if (others.length === 0) this.skip();
    for (const address of others) {
      const attempt = post(`http://${address!.address}:${port}/mcp`, {
        authorization: `Bearer ${gateway.token}`,
      });
      await assert.rejects(attempt, /ECONNREFUSED/, address!.address);
    }
  });

  it("recorded the calls under the client's identity, once it stopped", async () => {
    await gateway.stop();
    const executed = (await workspace.audit()).filter((r) => r.event_type === 'TOOL_EXECUTED');
    assert.deepEqual(
      executed.map((r) => [r.actor.id, r.target.tool_name]),
      [['agent.gateway.http-client', 'add']],
    );
    const read = (await workspace.audit()).filter(
      (r) => r.event_type === 'dev.mgp-kernel.resource_read',
    );
    assert.deepEqual(
      read.map((r) => [r.actor.id, r.details.uri]),
      [['agent.gateway.http-client', 'mgp-example://about']],
    );
  });
});

describe('mgp serve --http --idle-timeout: an abandoned session ends', function () {
  this.timeout(60000);

  it('ends a session idle for the configured time, says so, and forgets its id', async () => {
    const workspace = new GatewayWorkspace(
      `[[servers]]\nid = "example"\ncommand = ${node}\nargs = [${example}]\n`,
    );
    const gateway = await httpGateway(workspace, ['--idle-timeout', '1']);
    try {
      const said = new Promise<string>((resolve) => {
        const listener = () => {
          const line = /mgp serve: session \w+ of "raw" ended: idle for 1 s/.exec(gateway.stderr());
          if (line) resolve(line[0]);
        };
        gateway.process.stderr?.on('data', listener);
      });
      const opened = await post(gateway.url, { authorization: `Bearer ${gateway.token}` });
      assert.equal(opened.status, 200);
      const id = String(opened.headers['mcp-session-id']);
      assert.match(await said, new RegExp(`session ${id.slice(0, 8)} `));
      const again = await post(gateway.url, {
        authorization: `Bearer ${gateway.token}`,
        'mcp-session-id': id,
      });
      assert.equal(again.status, 404);
    } finally {
      await gateway.stop();
      workspace.remove();
    }
  });
});
