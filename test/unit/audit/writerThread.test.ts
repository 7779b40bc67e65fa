import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import type { AuditRecord } from '../../../client/src/kernel/audit/auditEvent';
import { AuditLog } from '../../../client/src/kernel/audit/auditLog';
import { AuditError } from '../../../client/src/kernel/audit/errors';
import { REDACTED, Redactor } from '../../../client/src/kernel/audit/redact';
import { openSegmentFile } from '../../../client/src/kernel/audit/segmentFile';
import { verifyAuditLog } from '../../../client/src/kernel/audit/verify';
import { AUDIT_WORKER_FILE } from '../../../client/src/kernel/audit/workerProtocol';
import { repoRoot } from '../../repoRoot';
import { faultyOpener } from './faults';
import { fileLines, onDisk, sampleEvent, tempDir } from './support';

const FIRST = 'audit-000001.jsonl';

describe('AuditLog: the writer thread', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = tempDir('mgp-audit-thread-')));
  afterEach(() => remove());

  it('is where events are written by default; the inline writer is there on request', async () => {
    const log = await AuditLog.open({ directory: dir });
    assert.equal(log.writerKind, 'thread');
    await log.close();
    const inline = await AuditLog.open({ directory: dir, writer: 'inline' });
    assert.equal(inline.writerKind, 'inline');
    await inline.close();
  });

  it('numbers concurrent appends in call order and tells listeners in seq order, across rotations and commit delays', async () => {
    const log = await AuditLog.open({ directory: dir, rotateBytes: 20_000, commitDelayMs: 2 });
    const heard: number[] = [];
    log.onAppend((record) => heard.push(record.seq));
    const appends: Promise<AuditRecord>[] = [];
    for (let wave = 0; wave < 20; wave++) {
      for (let i = 0; i < 100; i++) appends.push(log.append(sampleEvent(wave * 100 + i)));
      if (wave % 3 === 0) await new Promise((resolve) => setImmediate(resolve));
      if (wave % 5 === 0) await appends[appends.length - 1];
    }
    const records = await Promise.all(appends);
    assert.deepEqual(
      records.map((r) => r.seq),
      Array.from({ length: 2000 }, (_, i) => i + 1),
    );
    assert.deepEqual(
      records.map((r) => r.details.i),
      Array.from({ length: 2000 }, (_, i) => i),
    );
    assert.deepEqual(
      heard,
      records.map((r) => r.seq),
    );
    assert.equal(log.lastDurable.seq, 2000);
    await log.close();
    const report = await verifyAuditLog(dir);
    assert.equal(report.ok, true, JSON.stringify(report.problem));
    assert.equal(report.records, 2000);
    assert.ok(report.files.length > 5, `${report.files.length} files`);
    // What append resolved with is what is on disk.
    assert.deepEqual(await onDisk(dir), records);
  });

  it('redacts with the secrets registered before each append, even within one batch', async () => {
    const redactor = new Redactor();
    const log = await AuditLog.open({ directory: dir, redactor, commitDelayMs: 5 });
    const secrets = ['first-secret-A1', 'second-secret-B2', 'third-secret-C3'];
    const note = `used ${secrets.join(' and ')}`;
    const appends = [log.append(sampleEvent(0, { details: { note } }))];
    for (const [n, secret] of secrets.entries()) {
      redactor.addSecret(secret);
      appends.push(log.append(sampleEvent(n + 1, { details: { note, [`key-${secret}`]: 1 } })));
    }
    const records = await Promise.all(appends);
    await log.close();
    const expected = [
      note,
      `used ${REDACTED} and second-secret-B2 and third-secret-C3`,
      `used ${REDACTED} and ${REDACTED} and third-secret-C3`,
      `used ${REDACTED} and ${REDACTED} and ${REDACTED}`,
    ];
    assert.deepEqual(
      records.map((r) => r.details.note),
      expected,
    );
    assert.deepEqual(
      (await onDisk(dir)).map((r) => r.details.note),
      expected,
    );
    assert.deepEqual(Object.keys(records[3].details).sort(), [`key-${REDACTED}`, 'note']);
    const text = readFileSync(join(dir, FIRST), 'utf8');
    assert.equal(
      text.split('third-secret-C3').length - 1,
      3,
      'only the events appended before the secret hold it',
    );
  });

  it('rejects an event that has no JSON form at once, and logs one with a cycle as the inline writer does', async () => {
    const log = await AuditLog.open({ directory: dir });
    await assert.rejects(
      log.append(sampleEvent(1, { details: { n: 1n } })),
      (e: AuditError) => e.code === 'InvalidEvent' && /BigInt/.test(e.message),
    );
    const cyclic: Record<string, unknown> = { keep: 'me', token: 'hunter22' };
    cyclic.self = cyclic;
    const record = await log.append(sampleEvent(2, { details: cyclic }));
    assert.equal(record.seq, 1);
    assert.deepEqual(record.details, { keep: 'me', self: '[Circular]', token: REDACTED });
    await log.close();
  });

  it('rejects exactly the appends that a failed write left off the disk, and continues the chain', async () => {
    const problems: string[] = [];
    // The second write fails, having written half its data; writes are slow, so appends pile up behind it.
    const log = await AuditLog.open({
      directory: dir,
      openFile: faultyOpener('faultyFiles', 2, 'ENOSPC'),
      onProblem: (m) => problems.push(m),
    });
    const durable = await Promise.all([1, 2, 3].map((i) => log.append(sampleEvent(i))));
    const failed = [4, 5, 6].map((i) => log.append(sampleEvent(i)));
    const outcomes = await Promise.allSettled(failed);
    for (const outcome of outcomes) {
      assert.equal(outcome.status, 'rejected');
      const error = (outcome as PromiseRejectedResult).reason as AuditError;
      assert.ok(error instanceof AuditError);
      assert.equal(error.code, 'WriteFailed');
      assert.match(error.message, /seq 4 and later were not written .*ENOSPC/);
    }
    assert.equal(problems.length, 1);
    assert.match(problems[0], /ENOSPC/);
    const after = await Promise.all([7, 8].map((i) => log.append(sampleEvent(i))));
    assert.deepEqual(
      [...durable, ...after].map((r) => r.seq),
      [1, 2, 3, 4, 5],
    );
    await log.close();
    assert.deepEqual(
      fileLines(join(dir, FIRST)).map((l) => (JSON.parse(l) as AuditRecord).details.i),
      [1, 2, 3, 7, 8],
    );
    assert.equal((await verifyAuditLog(dir)).ok, true);
  });

  it('stays failed when the rollback fails too, until reopened', async () => {
    const log = await AuditLog.open({
      directory: dir,
      openFile: faultyOpener('faultyFiles', 2, 'EIO', { truncateFails: true }),
    });
    await log.append(sampleEvent(1));
    await assert.rejects(log.append(sampleEvent(2)), /EIO/);
    await assert.rejects(
      log.append(sampleEvent(3)),
      /cannot be written since a failed write could not be rolled back/,
    );
    await log.close();
    const reopened = await AuditLog.open({ directory: dir });
    assert.match(reopened.notes.join(), /cut off an incomplete last line/);
    assert.equal((await reopened.append(sampleEvent(4))).seq, 2);
    await reopened.close();
    assert.equal((await verifyAuditLog(dir)).ok, true);
  });

  it('close() waits for every pending append and leaves them all on disk', async () => {
    const log = await AuditLog.open({
      directory: dir,
      commitDelayMs: 20,
      openFile: faultyOpener('slowFiles', 10),
    });
    const appends = Array.from({ length: 500 }, (_, i) => log.append(sampleEvent(i)));
    const settled: number[] = [];
    appends.forEach((p) => void p.then((r) => settled.push(r.seq)));
    await log.close();
    assert.equal(settled.length, 500, 'every append resolved before close() did');
    await assert.rejects(log.append(sampleEvent(501)), (e: AuditError) => e.code === 'Closed');
    assert.equal((await verifyAuditLog(dir)).records, 500);
    const again = await AuditLog.open({ directory: dir });
    assert.equal(again.lastDurable.seq, 500);
    await again.close();
  });

  it('flush() waits for the appends made before it, not for later ones', async () => {
    const log = await AuditLog.open({ directory: dir, commitDelayMs: 5 });
    const first = Array.from({ length: 50 }, (_, i) => log.append(sampleEvent(i)));
    let flushed = false;
    const flushing = log.flush().then(() => (flushed = true));
    const firstDone = Promise.all(first);
    await flushing;
    const seqs = (await firstDone).map((r) => r.seq);
    assert.equal(seqs[seqs.length - 1], 50);
    assert.equal(flushed, true);
    assert.equal(log.lastDurable.seq, 50);
    await log.close();
  });

  it('detects that the thread died: pending appends are rejected, the problem is told, later appends fail, reopening repairs', async () => {
    const problems: string[] = [];
    const log = await AuditLog.open({
      directory: dir,
      openFile: faultyOpener('crashingFiles', 3),
      onProblem: (m) => problems.push(m),
    });
    await log.append(sampleEvent(1));
    await log.append(sampleEvent(2));
    const lost = await Promise.allSettled([3, 4, 5].map((i) => log.append(sampleEvent(i))));
    for (const outcome of lost) {
      assert.equal(outcome.status, 'rejected');
      assert.match(
        ((outcome as PromiseRejectedResult).reason as Error).message,
        /writer thread stopped \(simulated crash of the writing thread\)/,
      );
    }
    assert.equal(problems.length, 1);
    assert.match(problems[0], /writer thread stopped/);
    await assert.rejects(
      log.append(sampleEvent(6)),
      (e: AuditError) => e.code === 'WriteFailed' && /reopened/.test(e.message),
    );
    await log.flush();
    await log.close();
    const reopened = await AuditLog.open({ directory: dir });
    assert.equal((await reopened.append(sampleEvent(7))).seq, 3);
    await reopened.close();
    assert.equal((await verifyAuditLog(dir)).ok, true);
  });

  it('an openFile function runs inline; an explicit thread cannot take one', async () => {
    const log = await AuditLog.open({ directory: dir, openFile: openSegmentFile });
    assert.equal(log.writerKind, 'inline');
    await log.close();
    await assert.rejects(
      AuditLog.open({ directory: dir, openFile: openSegmentFile, writer: 'thread' }),
      /openFile function/,
    );
    // The lock was released: the log can be opened again.
    await (await AuditLog.open({ directory: dir })).close();
  });

  it('runs from its bundle next to a bundle that holds the log, and falls back to the calling thread without it', async function () {
    const root = repoRoot();
    const logDir = join(dir, 'log');
    const probe = join(dir, 'probe.ts');
    writeFileSync(
      probe,
      `import { AuditLog } from ${JSON.stringify(join(root, 'client/src/kernel/audit/auditLog'))};\n` +
        `AuditLog.open({ directory: ${JSON.stringify(logDir)} }).then(async (log) => {\n` +
        "  const record = await log.append({ event_type: 'TOOL_EXECUTED', actor: { type: 'agent', id: 'a' }, result: 'SUCCESS', details: { token: 'abcdefgh' } });\n" +
        '  console.log(JSON.stringify({ writer: log.writerKind, seq: record.seq, details: record.details, notes: log.notes }));\n' +
        '  await log.close();\n' +
        '});\n',
    );
    const common = {
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outdir: dir,
      logLevel: 'silent',
    } as const;
    await esbuild.build({ ...common, entryPoints: { probe } });
    await esbuild.build({
      ...common,
      entryPoints: {
        [AUDIT_WORKER_FILE.replace(/\.js$/, '')]: join(
          root,
          'client/src/kernel/audit/auditWorker.ts',
        ),
      },
    });
    const bundled = JSON.parse(
      execFileSync(process.execPath, [join(dir, 'probe.js')], { cwd: dir, encoding: 'utf8' }),
    );
    assert.deepEqual(bundled, {
      writer: 'thread',
      seq: 1,
      details: { token: REDACTED },
      notes: [],
    });
    rmSync(join(dir, AUDIT_WORKER_FILE));
    const alone = JSON.parse(
      execFileSync(process.execPath, [join(dir, 'probe.js')], { cwd: dir, encoding: 'utf8' }),
    );
    assert.equal(alone.writer, 'inline');
    assert.equal(alone.seq, 2);
    assert.match(alone.notes.join(), /no auditWorker\.js next to .*written on the calling thread/);
  });
});
