import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Pool } from 'pg';
import { repoRoot } from '../../repoRoot';
import { eventually } from '../../support/patience';
import { PostgresCluster } from '../../support/postgresCluster';
import { Prometheus } from '../../support/prometheus';
import { refusalResult } from '../support/refusals';

// The team gateway: `mgp serve --http` as an OAuth 2.1 resource server of the team's authorization
// server (oidc-provider), two people signed in through it, each a caller of their own for access
// grants and approvals, both in the central audit table (a real PostgreSQL cluster), metrics scraped.

const root = repoRoot();
const node = JSON.stringify(process.execPath);
const example = JSON.stringify(join(root, 'examples/servers/dist/mgp-example-server.js'));
const paramsEcho = JSON.stringify(join(root, 'test/fixtures/servers/params-echo.js'));

const CONFIG = `[kernel.audit.postgres]
url = "\${TEAM_DB}"

[[kernel.access_grants]]
agent_id = "agent.gateway.team-client@bob"
server_id = "example"
tool_name = "write_note"
permission = "deny"

[[servers]]
id = "example"
command = ${node}
args = [${example}]
approved_tools = ["write_note"]
[servers.mgp]
permissions_required = ["memory.write"]

[[servers]]
id = "plain"
command = ${node}
args = [${paramsEcho}]
[servers.tools.echo]
risk_level = "dangerous"
`;

interface TeamAs {
  issuer: string;
  signIn(login: string, resource: string): Promise<string>;
  close(): Promise<void>;
}

interface Served {
  url: string;
  metricsToken: string;
  child: ChildProcess;
  stderr: () => string;
  stop(): Promise<void>;
}

async function serve(dir: string, env: NodeJS.ProcessEnv, args: string[]): Promise<Served> {
  const child = spawn(
    process.execPath,
    [join(root, 'dist/cli.js'), 'serve', '--http', '0', '--config', join(dir, 'mgp.toml'), ...args],
    { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const printed = await new Promise<{ url: string; metricsToken: string }>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /MCP endpoint: (\S+)/.exec(stdout)?.[1];
      const metricsToken = /Metrics token: (\S+)/.exec(stdout)?.[1];
      if (url && metricsToken && /Metrics: /.test(stdout)) resolve({ url, metricsToken });
    });
    child.once('exit', (code) => reject(new Error(`mgp serve exited (${code}): ${stderr}`)));
  });
  return {
    ...printed,
    child,
    stderr: () => stderr,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** An MCP client of one person: their token on every request, their answers to approvals. */
async function personClient(url: string, token: string, answers: string[], asked: string[]) {
  const client = new Client(
    { name: 'team-client', version: '1.0.0' },
    { capabilities: { elicitation: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { decision: answers.shift() ?? 'deny' } };
  });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return { client, transport };
}

describe('the team gateway: OAuth per person, central audit, metrics (real parts)', function () {
  this.timeout(300000);
  let as: TeamAs;
  let cluster: PostgresCluster;
  let dir: string;
  let served: Served;

  before(async () => {
    const { startTeamAuthorizationServer } = (await import(
      join(root, 'test/fixtures/oauth/teamAuthorizationServer.mjs')
    )) as { startTeamAuthorizationServer(): Promise<TeamAs> };
    as = await startTeamAuthorizationServer();
    cluster = await PostgresCluster.create();
    dir = mkdtempSync(join(tmpdir(), 'mgp-team-gateway-'));
    writeFileSync(join(dir, 'mgp.toml'), CONFIG);
    const env = {
      ...process.env,
      XDG_STATE_HOME: join(dir, 'state'),
      TEAM_DB: cluster.url,
      MGP_MANAGED_POLICY: join(dir, 'no-policy.toml'),
    };
    served = await serve(dir, env, [
      '--oauth-issuer',
      as.issuer,
      '--metrics',
      '--expose',
      'all',
      '--user-rate',
      '60',
    ]);
  });
  after(async () => {
    await served?.stop();
    await as?.close();
    await cluster?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a request without a token, pointing at its RFC 9728 metadata, which names the issuer', async () => {
    const response = await fetch(served.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    assert.equal(response.status, 401);
    const origin = new URL(served.url).origin;
    const metadataUrl = `${origin}/.well-known/oauth-protected-resource/mcp`;
    assert.equal(
      response.headers.get('www-authenticate'),
      `Bearer resource_metadata="${metadataUrl}"`,
    );
    const metadata = await (await fetch(metadataUrl)).json();
    assert.deepEqual(metadata.authorization_servers, [as.issuer]);
    assert.equal(metadata.resource, served.url);
  });

  it("refuses a token the team's server signed for another resource (audience checked)", async () => {
    const elsewhere = await as.signIn('alice', 'http://127.0.0.1:1/mcp');
    const response = await fetch(served.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${elsewhere}`, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(response.status, 401);
    assert.match(response.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    const forged = `${elsewhere.split('.').slice(0, 2).join('.')}.c2lnbmF0dXJl`;
    const bad = await fetch(served.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${forged}` },
      body: '{}',
    });
    assert.equal(bad.status, 401);
  });

  it("two people: each their own caller for grants and approvals, never in each other's session", async () => {
    const aliceAsked: string[] = [];
    const alice = await personClient(
      served.url,
      await as.signIn('alice', served.url),
      ['session'],
      aliceAsked,
    );
    const bobAsked: string[] = [];
    const bob = await personClient(
      served.url,
      await as.signIn('bob', served.url),
      ['deny', 'deny'],
      bobAsked,
    );
    try {
      const note = await alice.client.callTool({
        name: 'write_note',
        arguments: { title: 'a', body: 'from alice' },
      });
      assert.notEqual(note.isError, true, JSON.stringify(note));
      const denied = await refusalResult(
        bob.client.callTool({ name: 'write_note', arguments: { title: 'b', body: 'from bob' } }),
      );
      assert.equal(denied.code, 1001);
      assert.match(
        denied.violations[0],
        /agent\.gateway\.team-client@bob has no access to example\.write_note/,
      );

      // Alice allows plain.echo for her session: asked once, then not again.
      for (const text of ['one', 'two']) {
        const echoed = await alice.client.callTool({ name: 'plain.echo', arguments: { text } });
        assert.notEqual(echoed.isError, true, JSON.stringify(echoed));
      }
      assert.equal(aliceAsked.length, 1);
      // Her answer is hers: Bob is asked for his own call, and his no refuses it.
      const refused = await refusalResult(
        bob.client.callTool({ name: 'plain.echo', arguments: { text: 'bob' } }),
      );
      assert.equal(refused.code, 1000);
      assert.equal(bobAsked.length, 1);

      // Bob cannot use Alice's session, nor learn that it exists.
      const hijack = await fetch(served.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${await as.signIn('bob', served.url)}`,
          'mcp-session-id': alice.transport.sessionId ?? '',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
      assert.equal(hijack.status, 404);
    } finally {
      await alice.client.close();
      await bob.client.close();
    }
  });

  it("limits each person's requests a minute, without touching anyone else", async () => {
    const carol = await as.signIn('carol', served.url);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      const response = await fetch(served.url, { headers: { authorization: `Bearer ${carol}` } });
      await response.body?.cancel();
      statuses.push(response.status);
    }
    assert.ok(
      statuses.slice(0, 60).every((s) => s === 400),
      statuses.join(','),
    );
    assert.equal(statuses[60], 429);
    const dave = await fetch(served.url, {
      headers: { authorization: `Bearer ${await as.signIn('dave', served.url)}` },
    });
    assert.equal(dave.status, 400, 'another person is not limited by carol');
  });

  it('serves /metrics in Prometheus text format, to the metrics token and to no one else', async () => {
    const metricsUrl = served.url.replace(/\/mcp$/, '/metrics');
    assert.equal((await fetch(metricsUrl)).status, 401);
    const text = await (
      await fetch(metricsUrl, { headers: { authorization: `Bearer ${served.metricsToken}` } })
    ).text();
    assert.match(text, /^mgp_tool_calls_total\{server="plain",tool="echo",result="SUCCESS"\} 2$/m);
    assert.match(
      text,
      /^mgp_tool_call_refusals_total\{check="access_denied",result="DENIED"\} 1$/m,
    );
    assert.match(text, /^mgp_approvals_asked_total\{server="plain",tool="echo"\} 2$/m);
    assert.match(
      text,
      /^mgp_approvals_given_total\{server="plain",tool="echo",scope="session"\} 1$/m,
    );
    assert.match(text, /^mgp_servers_up 2$/m);
    assert.match(text, /^mgp_tool_call_duration_seconds_count\{server="plain"\} 2$/m);
  });

  it("is scraped by Debian's Prometheus, and a PromQL query answers over what it scraped", async () => {
    const url = new URL(served.url);
    const prometheus = await Prometheus.start(url.host, '/metrics', served.metricsToken);
    try {
      await eventually(
        async () => (await prometheus.query('sum(mgp_tool_calls_total)')) === 3,
        'Prometheus to have scraped three executed calls',
      );
      assert.equal((await prometheus.target())?.health, 'up');
      assert.equal(
        await prometheus.query('sum by (server) (mgp_tool_calls_total{server="plain"})'),
        2,
      );
      assert.equal(await prometheus.query('sum(mgp_tool_call_refusals_total)'), 2);
      assert.equal(await prometheus.query('mgp_servers_up'), 2);
      assert.equal(await prometheus.query('sum(mgp_tool_call_duration_seconds_count)'), 3);
    } finally {
      await prometheus.stop();
    }
  });

  it('puts both people in the central audit table, each under their own identity', async () => {
    const pool = new Pool({ connectionString: cluster.url });
    try {
      const who = async (agent: string) =>
        (
          await pool.query<{ event_type: string; tool_name: string; result: string }>(
            `SELECT event_type, tool_name, result FROM mgp_audit_records
             WHERE actor_id = $1 AND event_type LIKE 'TOOL_%' ORDER BY seq`,
            [agent],
          )
        ).rows.map((r) => `${r.event_type} ${r.tool_name} ${r.result}`);
      await eventually(
        async () => (await who('agent.gateway.team-client@bob')).length === 2,
        "bob's records to reach the database",
      );
      assert.deepEqual(await who('agent.gateway.team-client@alice'), [
        'TOOL_EXECUTED write_note SUCCESS',
        'TOOL_EXECUTED echo SUCCESS',
        'TOOL_EXECUTED echo SUCCESS',
      ]);
      assert.deepEqual(await who('agent.gateway.team-client@bob'), [
        'TOOL_BLOCKED write_note DENIED',
        'TOOL_BLOCKED echo DENIED',
      ]);
    } finally {
      await pool.end();
    }
  });
});
