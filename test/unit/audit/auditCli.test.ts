import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAudit } from '../../../client/src/cli/auditCommands';
import { AuditLog } from '../../../client/src/kernel/audit/auditLog';
import type { AuditRecord } from '../../../client/src/kernel/audit/auditEvent';
import { auditDirectory } from '../../../client/src/kernel/audit/location';
import { fileLines, sampleEvent, tempDir, writeLines, writeLog } from './support';

async function run(
  args: string[],
  options: Parameters<typeof runAudit>[2] = {},
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runAudit(
    args,
    { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) },
    options,
  );
  return { code, out, err };
}

describe('mgp audit', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = tempDir()));
  afterEach(() => remove());

  it('tail prints the last N records for people, and as stored JSON lines with --json', async () => {
    await writeLog(dir, 12);
    const human = await run(['tail', '--dir', dir, '-n', '2']);
    assert.equal(human.code, 0);
    const rows = human.out
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    assert.deepEqual(
      rows.map((r) => [r[0], r[2], r[3], r[4], r[5], r[6]]),
      [
        ['11', 'TOOL_EXECUTED', 'SUCCESS', 'server.3/read_file', 'agent:agent.2', 'trace-11'],
        ['12', 'TOOL_EXECUTED', 'SUCCESS', 'server.0/execute_command', 'agent:agent.0', 'trace-12'],
      ],
    );
    const json = await run([
      'tail',
      '--dir',
      dir,
      '-n',
      '3',
      '--json',
      '--type',
      'TOOL_BLOCKED,VALIDATION_FAILED',
    ]);
    assert.equal(
      json.out,
      `${fileLines(join(dir, 'audit-000001.jsonl'))
        .filter((_, i) => [2, 9].includes(i))
        .join('\n')}\n`,
    );
  });

  it('tail filters by server, tool, result, trace and time', async () => {
    await writeLog(dir, 12);
    const seqs = async (...args: string[]) =>
      (await run(['tail', '--dir', dir, '--json', ...args])).out
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as AuditRecord).seq);
    assert.deepEqual(await seqs('--server', 'server.1', '--tool', 'read_file'), [1, 5, 9]);
    assert.deepEqual(await seqs('--result', 'blocked'), [3, 10]);
    assert.deepEqual(await seqs('--trace', 'trace-7'), [7]);
    const third = JSON.parse(fileLines(join(dir, 'audit-000001.jsonl'))[2]) as AuditRecord;
    assert.deepEqual(
      await seqs('--until', third.timestamp, '-n', '1'),
      (await seqs('--until', third.timestamp)).slice(-1),
    );
    assert.deepEqual(await seqs('--since', '2999-01-01T00:00:00Z'), []);
  });

  it('tail --follow prints records appended meanwhile until stopped', async () => {
    const log = await AuditLog.open({ directory: dir });
    await log.append(sampleEvent(1));
    const controller = new AbortController();
    const lines: string[] = [];
    let tailed: () => void = () => undefined;
    const firstLine = new Promise<void>((resolve) => (tailed = resolve));
    const following = runAudit(
      ['tail', '--dir', dir, '--follow', '--json', '-n', '1'],
      {
        out: (t) => {
          lines.push(t);
          if (lines.length === 1) tailed();
          if (lines.length === 3) controller.abort();
        },
        err: () => undefined,
      },
      { signal: controller.signal, pollMs: 10 },
    );
    await firstLine; // the tail is printed: what comes next is followed
    await log.append(sampleEvent(2));
    await log.append(sampleEvent(4));
    assert.equal(await following, 0);
    assert.deepEqual(
      lines.map((l) => (JSON.parse(l) as AuditRecord).seq),
      [1, 2, 3],
    );
    await log.close();
  });

  it('export writes CSV (CRLF) or JSONL, to stdout or a file, with filters', async () => {
    await writeLog(dir, 5);
    const csv = await run(['export', '--dir', dir, '--format', 'csv', '--type', 'TOOL_BLOCKED']);
    assert.equal(csv.code, 0);
    const lines = csv.out.split('\n');
    assert.equal(
      lines[0],
      'seq,timestamp,event_type,actor_type,actor_id,server_id,tool_name,result,trace_id,details\r',
    );
    assert.match(
      lines[1],
      /^3,[^,]+,TOOL_BLOCKED,agent,agent\.0,server\.3,read_file,BLOCKED,trace-3,"\{""arguments"":\{""path"":""\/srv\/project\/file-3\.txt""\},""duration_ms"":9,""i"":3,""risk_level"":""moderate""\}"\r$/,
    );
    assert.equal(lines.length, 3);

    const out = join(dir, 'export.jsonl');
    const toFile = await run(['export', '--dir', dir, '--format', 'jsonl', '--out', out]);
    assert.equal(toFile.code, 0);
    assert.match(toFile.err, /exported 5 record\(s\)/);
    assert.equal(readFileSync(out, 'utf8'), readFileSync(join(dir, 'audit-000001.jsonl'), 'utf8'));
    const csvFile = join(dir, 'export.csv');
    await run(['export', '--dir', dir, '--format', 'csv', '--out', csvFile]);
    assert.equal(readFileSync(csvFile, 'utf8').split('\r\n').length, 7);
  });

  it('verify exits 0 on an intact log and 1 on a tampered one, saying where', async () => {
    await writeLog(dir, 6);
    const ok = await run(['verify', '--dir', dir]);
    assert.equal(ok.code, 0);
    assert.match(
      ok.out,
      /^audit log OK: 6 record\(s\) in 1 file\(s\) \(seq 1–6\), head [0-9a-f]{64}\n$/,
    );

    const path = join(dir, 'audit-000001.jsonl');
    const lines = fileLines(path);
    lines[3] = lines[3].replace('"duration_ms":12', '"duration_ms":13');
    writeLines(path, lines);
    const broken = await run(['verify', '--dir', dir]);
    assert.equal(broken.code, 1);
    assert.match(
      broken.out,
      new RegExp(
        `^audit log BROKEN at seq 4: ${path.replace(/[.]/g, '\\.')}:4: the record's content does not match its hash .*\\[hash_mismatch\\]`,
      ),
    );
    const json = await run(['verify', '--dir', dir, '--json']);
    assert.equal(json.code, 1);
    const report = JSON.parse(json.out) as Record<string, unknown>;
    assert.deepEqual(Object.keys(report), [
      'ok',
      'directory',
      'files',
      'records',
      'first_seq',
      'last_seq',
      'head_hash',
      'problem',
      'notes',
      'seal',
    ]);
    assert.deepEqual(
      { ...(report.problem as object), reason: 'x' },
      { kind: 'hash_mismatch', seq: 4, file: 'audit-000001.jsonl', line: 4, reason: 'x' },
    );
    assert.deepEqual([report.ok, report.records, report.last_seq], [false, 3, 3]);
  });

  it('verify fails when chain.json was deleted and records were cut off the end', async () => {
    await writeLog(dir, 10);
    const { unlinkSync } = await import('node:fs');
    unlinkSync(join(dir, 'chain.json'));
    writeLines(
      join(dir, 'audit-000001.jsonl'),
      fileLines(join(dir, 'audit-000001.jsonl')).slice(0, 6),
    );
    const verified = await run(['verify', '--dir', dir]);
    assert.equal(verified.code, 1);
    assert.match(verified.out, /audit log BROKEN/);
    assert.match(verified.out, /\[missing_anchor\]/);
  });

  it('finds the log of a workspace folder with --cwd', async () => {
    const workspace = join(dir, 'project');
    const env = { XDG_STATE_HOME: join(dir, 'state') };
    await writeLog(auditDirectory({ workspaceFolder: workspace, env, home: dir }), 2);
    const { code, out } = await run(['verify', '--cwd', workspace, '--json'], { env, home: dir });
    assert.equal(code, 0);
    assert.equal((JSON.parse(out) as { records: number }).records, 2);
    const missing = await run(['tail', '--cwd', join(dir, 'elsewhere')], { env, home: dir });
    assert.equal(missing.code, 1);
    assert.match(missing.err, /no audit log in .*\/state\/mgp\/elsewhere-[0-9a-f]{12}\/audit/);
  });

  it('exits 2 on bad usage', async () => {
    await writeLog(dir, 1);
    for (const args of [
      ['tail', '--dir', dir, '-n', 'many'],
      ['export', '--dir', dir, '--format', 'xml'],
      ['verify', '--dir', dir, '--type', 'X'],
      ['tail', '--dir', dir, '--since', 'yesterday'],
      ['frobnicate'],
      [],
    ]) {
      const { code, err, out } = await run(args);
      assert.equal(code, 2, args.join(' '));
      assert.match(err + out, /Usage:/);
    }
    assert.equal((await run(['--help'])).code, 0);
  });
});
