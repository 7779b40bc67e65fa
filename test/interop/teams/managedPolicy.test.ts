import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../client/src/cli/main';
import { repoRoot } from '../../repoRoot';
import { GatewayWorkspace, stdioGateway } from '../support/gatewayProcess';

// A server the machine's managed policy denies starts nowhere: not for the terminal, not through
// the gateway, not when registered at run time; each refusal is in the audit trail. Real processes,
// the real example server, a real policy file named by MGP_MANAGED_POLICY.

const node = JSON.stringify(process.execPath);
const example = JSON.stringify(join(repoRoot(), 'examples/servers/dist/mgp-example-server.js'));
const everything = JSON.stringify(
  join(repoRoot(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
);
const CONFIG =
  `[[servers]]\nid = "example"\ncommand = ${node}\nargs = [${example}]\n\n` +
  `[[servers]]\nid = "everything"\ncommand = ${node}\nargs = [${everything}]\n`;
const POLICY = '[servers]\ndeny = ["command:*server-everything*"]\n';

interface AuditLine {
  event_type: string;
  result: string;
  target: { server_id?: string };
  details: Record<string, unknown>;
}

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    out: (t) => (out += `${t}\n`),
    err: (t) => (err += `${t}\n`),
    write: (t) => (out += t),
  });
  return { code, out, err };
}

describe('the managed policy: a denied server starts nowhere (real processes)', function () {
  this.timeout(120000);
  let dir: string;
  let policy: string;
  const saved: Record<string, string | undefined> = {};
  const at = (...args: string[]) => run([...args, '--config', join(dir, 'mgp.toml'), '--trust']);

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-policy-'));
    policy = join(dir, 'policy.toml');
    writeFileSync(policy, POLICY);
    writeFileSync(join(dir, 'mgp.toml'), CONFIG);
    for (const name of ['XDG_STATE_HOME', 'MGP_MANAGED_POLICY']) saved[name] = process.env[name];
    process.env.XDG_STATE_HOME = join(dir, 'state');
    process.env.MGP_MANAGED_POLICY = policy;
  });
  after(() => {
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    rmSync(dir, { recursive: true, force: true });
  });

  it('`mgp servers` says which server the policy blocked, why, and where', async () => {
    const listed = await run(['servers', '--config', join(dir, 'mgp.toml')]);
    assert.equal(listed.code, 0, listed.err);
    const line = listed.out.split('\n').find((l) => l.startsWith('everything\t'));
    assert.match(
      line ?? '',
      new RegExp(
        `blocked by policy: denied by the managed policy \\(servers.deny "command:\\*server-everything\\*"\\) \\(${policy}:2\\)`,
      ),
    );
    const json = await run(['servers', '--json', '--config', join(dir, 'mgp.toml')]);
    const servers = JSON.parse(json.out) as { id: string; blocked_by_policy?: { key: string } }[];
    assert.equal(
      servers.find((s) => s.id === 'everything')?.blocked_by_policy?.key,
      'servers.deny',
    );
    assert.equal(servers.find((s) => s.id === 'example')?.blocked_by_policy, undefined);
  });

  it('the terminal: its tools are not listed, a call is refused naming the policy, and both are audited', async () => {
    const tools = await at('tools', '--json');
    assert.equal(tools.code, 0, tools.err);
    const names = (JSON.parse(tools.out) as { tools: { name: string }[] }).tools.map((t) => t.name);
    assert.ok(names.includes('example.echo'));
    assert.ok(!names.some((n) => n.startsWith('everything.')), names.join(', '));

    const call = await at('call', 'everything', 'echo', '--args', '{"message":"hi"}');
    assert.notEqual(call.code, 0);
    assert.match(call.err, /everything is not started: denied by the managed policy/);

    const trail = await run(['audit', 'tail', '--json', '-n', '200', '--cwd', dir]);
    assert.equal(trail.code, 0, trail.err);
    const records = trail.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as AuditLine);
    const blocked = records.filter(
      (r) =>
        r.event_type === 'dev.mgp-kernel.server_blocked' && r.target.server_id === 'everything',
    );
    assert.ok(blocked.length >= 1, 'the refused start is audited');
    assert.equal(blocked[0].result, 'BLOCKED');
    assert.equal(blocked[0].details.policy, policy);
    const refusedCall = records.find(
      (r) => r.event_type === 'TOOL_BLOCKED' && r.target.server_id === 'everything',
    );
    assert.equal(refusedCall?.details.check, 'managed_policy');
    assert.ok(
      !records.some(
        (r) => r.event_type === 'SERVER_CONNECTED' && r.target.server_id === 'everything',
      ),
      'it never connected',
    );
  });

  it('the gateway: a client neither sees nor reaches its tools', async () => {
    const workspace = new GatewayWorkspace(CONFIG);
    try {
      const gateway = await stdioGateway(workspace, ['--expose', 'all'], { name: 'policy-test' });
      try {
        const names = (await gateway.client.listTools()).tools.map((t) => t.name);
        assert.ok(names.includes('example__write_note'), names.join(', '));
        assert.ok(!names.some((name) => name.includes('get-sum')), names.join(', '));
        const refused = await gateway.client.callTool({
          name: 'get-sum',
          arguments: { a: 1, b: 2 },
        });
        assert.equal(refused.isError, true);
      } finally {
        await gateway.close();
      }
      const records = await workspace.audit();
      assert.ok(
        records.some(
          (r) =>
            r.event_type === 'dev.mgp-kernel.server_blocked' &&
            r.target?.server_id === 'everything',
        ),
      );
      assert.ok(
        !records.some(
          (r) => r.event_type === 'SERVER_CONNECTED' && r.target?.server_id === 'everything',
        ),
      );
    } finally {
      workspace.remove();
    }
  });

  it('the same server registered at run time (MGP §15.4) is refused and audited', async () => {
    const registered = await at(
      'call',
      'mgp',
      'mgp.discovery.register',
      '--approve',
      'once',
      '--args',
      JSON.stringify({
        id: 'sneaky',
        command: process.execPath,
        args: [JSON.parse(everything)],
        transport: 'stdio',
        created_by: 'agent.x',
        justification: 'test',
      }),
    );
    assert.notEqual(registered.code, 0, registered.out);
    assert.match(
      registered.err + registered.out,
      /sneaky.*may not start: denied by the managed policy/,
    );
    const trail = await run(['audit', 'tail', '--json', '-n', '200', '--cwd', dir]);
    assert.match(
      trail.out,
      /"event_type":"dev.mgp-kernel.server_blocked"[^\n]*"server_id":"sneaky"/,
    );
  });
});
