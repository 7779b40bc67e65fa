import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { runCli } from '../../../client/src/cli/main';
import { repoRoot } from '../../repoRoot';
import { PostgresCluster } from '../../support/postgresCluster';

// Two machines' worth of kernels (two state folders) ship into one database through the mgp
// command a person runs, and `mgp audit query` / `verify --postgres` answer across both.

const example = JSON.stringify(join(repoRoot(), 'examples/servers/dist/mgp-example-server.js'));

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    out: (t) => (out += `${t}\n`),
    err: (t) => (err += `${t}\n`),
    write: (t) => (out += t),
    data: (t) => void (out += t),
  });
  return { code, out, err };
}

describe('mgp audit query and verify --postgres: two machines, one database (real cluster)', function () {
  this.timeout(300000);
  let cluster: PostgresCluster;
  let dir: string;
  const saved: Record<string, string | undefined> = {};
  const machines = ['alice-laptop', 'bob-desktop'];

  /** A command on one "machine": its own state folder, the same config and database. */
  async function on(machine: string, args: string[]) {
    process.env.XDG_STATE_HOME = join(dir, machine);
    return run([...args, '--config', join(dir, 'mgp.toml'), '--trust', '--approve', 'session']);
  }

  before(async () => {
    cluster = await PostgresCluster.create();
    dir = mkdtempSync(join(tmpdir(), 'mgp-team-'));
    for (const name of ['XDG_STATE_HOME', 'TEAM_DB', 'MGP_MANAGED_POLICY'])
      saved[name] = process.env[name];
    process.env.TEAM_DB = cluster.url;
    process.env.MGP_MANAGED_POLICY = join(dir, 'no-policy.toml');
    writeFileSync(
      join(dir, 'mgp.toml'),
      `[kernel.audit.postgres]\nurl = "\${TEAM_DB}"\n\n[[servers]]\nid = "example"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${example}]\n`,
    );
    for (const machine of machines) {
      const echo = await on(machine, ['call', 'example', 'echo', '--args', '{"text":"hi"}']);
      assert.equal(echo.code, 0, echo.err);
      const refused = await on(machine, ['call', 'example', 'nope', '--args', '{}']);
      assert.notEqual(refused.code, 0);
    }
  });
  after(async () => {
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    await cluster.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers what agents did across both machines, by tool and by decision, as JSON and CSV', async () => {
    const executed = await run([
      'audit',
      'query',
      '--postgres',
      '${TEAM_DB}',
      '--tool',
      'echo',
      '--type',
      'TOOL_EXECUTED',
      '--json',
    ]);
    assert.equal(executed.code, 0, executed.err);
    const rows = executed.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(rows.length, 2, executed.out);
    assert.equal(new Set(rows.map((r) => r.machine)).size, 2, 'one from each machine');
    assert.ok(rows.every((r) => r.actor_id === 'agent.cli' && r.server_id === 'example'));

    const refused = await run([
      'audit',
      'query',
      '--postgres',
      '${secret:TEAM_DB}',
      '--decision',
      'not_found',
      '--json',
    ]);
    const refusals = refused.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      refusals.map((r) => [r.event_type, r.tool_name]),
      [
        ['TOOL_BLOCKED', 'nope'],
        ['TOOL_BLOCKED', 'nope'],
      ],
    );

    const csv = await run([
      'audit',
      'query',
      '--postgres',
      cluster.url,
      '--agent',
      'agent.*',
      '--tool',
      'echo',
      '--csv',
    ]);
    const lines = csv.out.split('\r\n');
    assert.equal(
      lines[0],
      'machine,host,chain,seq,timestamp,event_type,actor_type,actor_id,server_id,tool_name,result,trace_id,details',
    );
    assert.ok(lines.slice(1).filter(Boolean).length >= 2);
    const none = await run([
      'audit',
      'query',
      '--postgres',
      cluster.url,
      '--agent',
      'agent.nobody',
    ]);
    assert.match(none.out, /no records match/);
  });

  it('verifies every chain, and catches a row edited, a column edited and a row deleted', async () => {
    const ok = await run(['audit', 'verify', '--postgres', cluster.url, '--json']);
    assert.equal(ok.code, 0, ok.out + ok.err);
    const report = JSON.parse(ok.out);
    assert.equal(report.chains.length, 2);
    const pool = new Pool({ connectionString: cluster.url });
    try {
      const [first, second] = report.chains;
      await pool.query(
        `UPDATE mgp_audit_records SET line = replace(line, '"result":"NOT_FOUND"', '"result":"SUCCESS"')
         WHERE machine = $1 AND chain = $2 AND result = 'NOT_FOUND'`,
        [first.machine, first.chain],
      );
      await pool.query(
        `UPDATE mgp_audit_records SET actor_id = 'agent.someone-else' WHERE machine = $1 AND chain = $2 AND seq = 2`,
        [second.machine, second.chain],
      );
      await pool.query(
        'DELETE FROM mgp_audit_records WHERE machine = $1 AND chain = $2 AND seq = 1',
        [second.machine, second.chain],
      );
      const broken = await run(['audit', 'verify', '--postgres', cluster.url]);
      assert.equal(broken.code, 1);
      assert.match(broken.out, /seq \d+: edited: the record's content does not match its hash/);
      assert.match(broken.out, /seq 2: edited: its actor_id column differs from its record/);
      assert.match(broken.out, /seq 2: gap: record 1 is missing/);
      assert.match(broken.out, /broken: 2 of 2 chains/);
    } finally {
      await pool.end();
    }
  });

  it('says clearly when the database cannot be reached, and never prints its password', async () => {
    const away = await run([
      'audit',
      'query',
      '--postgres',
      'postgres://mgp:hunter22@127.0.0.1:1/postgres',
    ]);
    assert.equal(away.code, 1);
    assert.match(away.err, /mgp audit: postgres:\/\/mgp@127\.0\.0\.1:1\/postgres: .*ECONNREFUSED/);
    assert.doesNotMatch(away.err + away.out, /hunter22/);
    const unset = await run(['audit', 'query', '--postgres', '${NOT_SET_ANYWHERE}']);
    assert.equal(unset.code, 2);
    assert.match(unset.err, /\$\{NOT_SET_ANYWHERE\} has no value in the environment/);
  });
});
