import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { AuditLog } from '../../../client/src/kernel/audit/auditLog';
import { AuditTrail } from '../../../client/src/kernel/audit/auditTrail';
import { AuditShipper } from '../../../client/src/kernel/teamAudit/auditShipper';
import { openTeamDatabase } from '../../../client/src/kernel/teamAudit/database';
import { verifyTeamAudit } from '../../../client/src/kernel/teamAudit/teamVerify';
import { eventually } from '../../support/patience';
import { PostgresCluster } from '../../support/postgresCluster';

// The shipper against Debian's PostgreSQL in a throwaway cluster: every record arrives once, with
// its chain; while the database is away records wait in the local log and arrive when it is back,
// whether it was stopped or killed mid-burst.

describe('audit shipping to PostgreSQL (a real cluster)', function () {
  this.timeout(300000);
  let cluster: PostgresCluster;
  let dir: string;
  let pool: Pool;
  const open: { shipper?: AuditShipper; trail?: AuditTrail }[] = [];

  before(async () => {
    cluster = await PostgresCluster.create();
    pool = new Pool({ connectionString: cluster.url, max: 2 });
    pool.on('error', () => undefined);
  });
  after(async () => {
    await pool.end();
    await cluster.remove();
  });
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-ship-'));
    await pool.query('DROP TABLE IF EXISTS mgp_audit_records, mgp_audit_forks, mgp_audit_schema');
  });
  afterEach(async () => {
    for (const { shipper, trail } of open.splice(0)) {
      await shipper?.close(0);
      await trail?.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  async function shipping(stateRoot = join(dir, 'state'), problems: string[] = []) {
    const logDirectory = join(stateRoot, 'ws-0123456789ab', 'audit');
    const trail = new AuditTrail(
      await AuditLog.open({ directory: logDirectory, writer: 'inline' }),
    );
    const shipper = await AuditShipper.start({
      url: cluster.url,
      logDirectory,
      stateRoot,
      onRecord: (listener) => trail.onRecord(listener),
      onProblem: (message) => problems.push(message),
    });
    open.push({ shipper, trail });
    return { trail, shipper, problems };
  }

  const record = (trail: AuditTrail, n: number) =>
    trail.record({
      event_type: 'TOOL_EXECUTED',
      actor: { type: 'agent', id: `agent.${n % 3}` },
      target: { server_id: 'notes', tool_name: n % 2 ? 'write_note' : 'list_notes' },
      result: n % 5 ? 'SUCCESS' : 'BLOCKED',
      details: { n },
    });

  async function seqsIn(): Promise<number[]> {
    const rows = await pool.query<{ seq: string }>(
      'SELECT seq FROM mgp_audit_records ORDER BY seq',
    );
    return rows.rows.map((row) => Number(row.seq));
  }

  const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

  it('ships every record once, with its hash chain, into a table the migration made', async () => {
    const { trail, shipper } = await shipping();
    for (let n = 1; n <= 40; n++) await record(trail, n);
    await shipper.shipped(40);
    assert.deepEqual(await seqsIn(), oneTo(40));
    const schema = await pool.query('SELECT version FROM mgp_audit_schema');
    assert.deepEqual(schema.rows, [{ version: 1 }]);
    const local = await trail.log.tail(40);
    const rows = await pool.query<{ seq: string; hash: string; prev_hash: string; line: string }>(
      'SELECT seq, hash, prev_hash, line FROM mgp_audit_records ORDER BY seq',
    );
    assert.deepEqual(
      rows.rows.map((row) => [Number(row.seq), row.hash, row.prev_hash]),
      local.map((r) => [r.seq, r.hash, r.prev_hash]),
    );
    const report = await verifyTeamAudit(pool);
    assert.equal(report.ok, true, JSON.stringify(report));
    assert.equal(report.chains[0].chain, 'ws-0123456789ab/audit');
  });

  it('keeps records in the local log while the database is down, and ships them, once each, when it returns', async () => {
    const { trail, shipper, problems } = await shipping();
    for (let n = 1; n <= 10; n++) await record(trail, n);
    await shipper.shipped(10);
    await cluster.stop('fast');
    for (let n = 11; n <= 30; n++) await record(trail, n);
    await eventually(() => problems.length > 0, 'the shipper to say the database is away');
    assert.match(problems[0], /audit records wait in the local log: .*127\.0\.0\.1/);
    assert.equal(shipper.status().shipped, 10);
    await cluster.start();
    await shipper.shipped(30);
    assert.deepEqual(await seqsIn(), oneTo(30), 'nothing lost, nothing doubled');
    assert.match(problems[problems.length - 1], /reach .* again/);
    assert.equal((await verifyTeamAudit(pool)).ok, true);
  });

  it('loses nothing when the database is killed mid-burst, nor when the kernel restarts before it returns', async () => {
    const stateRoot = join(dir, 'state');
    const first = await shipping(stateRoot);
    const burst = Array.from({ length: 200 }, (_, i) => record(first.trail, i + 1));
    // The plug is pulled while the burst is being written and shipped.
    await eventually(async () => first.shipper.status().shipped > 0, 'some records to ship');
    await cluster.stop('kill');
    await Promise.all(burst);
    for (let n = 201; n <= 220; n++) await record(first.trail, n);
    // The kernel goes away before the database returns: the log is the spool.
    await first.shipper.close(0);
    await first.trail.close();
    open.splice(0);
    await cluster.start();
    const second = await shipping(stateRoot);
    await record(second.trail, 221);
    await second.shipper.shipped(221);
    assert.deepEqual(await seqsIn(), oneTo(221));
    const distinct = await pool.query('SELECT count(*)::int AS n FROM mgp_audit_records');
    assert.equal(distinct.rows[0].n, 221);
    assert.equal((await verifyTeamAudit(pool)).ok, true);
  });

  it('writes a replay as nothing, and keeps a different record at a held seq as a fork verify reports', async () => {
    const stateRoot = join(dir, 'state');
    const { trail, shipper } = await shipping(stateRoot);
    for (let n = 1; n <= 5; n++) await record(trail, n);
    await shipper.shipped(5);
    await shipper.close(0);
    await trail.close();
    open.splice(0);
    // The cursor is lost (a restored backup of the state folder): everything is shipped again.
    rmSync(join(stateRoot, 'ws-0123456789ab', 'audit', 'postgres-shipped.json'));
    const again = await shipping(stateRoot);
    await again.shipper.shipped(5);
    assert.deepEqual(await seqsIn(), oneTo(5), 'a replay writes no duplicate');
    assert.equal((await verifyTeamAudit(pool)).ok, true);
    await again.shipper.close(0);
    await again.trail.close();
    open.splice(0);
    // The log itself is replaced by another with the same machine and chain: seq 1 differs.
    rmSync(join(stateRoot, 'ws-0123456789ab', 'audit'), { recursive: true });
    const forked = await shipping(stateRoot);
    await record(forked.trail, 99);
    await forked.shipper.shipped(1);
    const report = await verifyTeamAudit(pool);
    assert.equal(report.ok, false);
    assert.deepEqual(
      report.chains[0].problems.map((p) => [p.kind, p.seq]),
      [['fork', 1]],
    );
  });

  it('uses TLS when the URL asks for it, and checks the server against the CA it names', async () => {
    const certs = mkdtempSync(join(tmpdir(), 'mgp-pg-tls-'));
    const cert = join(certs, 'server.crt');
    const key = join(certs, 'server.key');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'pipe' },
    );
    chmodSync(certs, 0o755);
    chmodSync(cert, 0o644);
    chmodSync(key, 0o600);
    if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres:postgres', certs]);
    const tls = await PostgresCluster.create({
      settings: { ssl: 'on', ssl_cert_file: cert, ssl_key_file: key },
    });
    try {
      const used = async (url: string) => {
        const db = openTeamDatabase(url);
        try {
          const row = await db.pool.query<{ ssl: boolean }>(
            'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()',
          );
          return row.rows[0].ssl;
        } finally {
          await db.pool.end();
        }
      };
      assert.equal(await used(`${tls.url}?sslmode=verify-full&sslrootcert=${cert}`), true);
      assert.equal(await used(`${tls.url}?sslmode=disable`), false);
      // A server whose certificate the named CA did not sign is refused.
      await assert.rejects(
        used(`${tls.url}?sslmode=verify-full&sslrootcert=${join(tmpdir(), 'missing.pem')}`),
      );
      const other = join(certs, 'other.crt');
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=other',
          '-keyout',
          join(certs, 'other.key'),
          '-out',
          other,
        ],
        { stdio: 'pipe' },
      );
      await assert.rejects(
        used(`${tls.url}?sslmode=verify-full&sslrootcert=${other}`),
        /certificate/,
      );
    } finally {
      await tls.remove();
      rmSync(certs, { recursive: true, force: true });
    }
  });
});
