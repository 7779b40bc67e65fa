import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AuditLog } from '../../../client/src/kernel/audit/auditLog';
import type { AuditRecord } from '../../../client/src/kernel/audit/auditEvent';
import {
  isValidEventType,
  newTraceId,
  STANDARD_EVENT_TYPES,
} from '../../../client/src/kernel/audit/auditEvent';
import { AuditError } from '../../../client/src/kernel/audit/errors';
import { followRecords } from '../../../client/src/kernel/audit/reader';
import { Redactor } from '../../../client/src/kernel/audit/redact';
import { openSegmentFile } from '../../../client/src/kernel/audit/segmentFile';
import { verifyAuditLog } from '../../../client/src/kernel/audit/verify';
import { faultyFiles } from './faults';
import { fileLines, sampleEvent, tempDir, writeLog } from './support';

const FIRST = 'audit-000001.jsonl';

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('AuditLog: durable appends, reading, locking', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = tempDir()));
  afterEach(() => remove());

  it('knows the twelve MGP §6.4 types and accepts reverse-domain custom ones', () => {
    assert.equal(STANDARD_EVENT_TYPES.length, 12);
    assert.equal(isValidEventType('TOOL_CREATED_DYNAMIC'), true);
    assert.equal(isValidEventType('com.example.custom_event'), true);
    assert.equal(isValidEventType('custom_event'), false);
    assert.match(
      newTraceId(),
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('assigns seq in call order, resolves once on disk, and fills in timestamp, trace id, target and details', async () => {
    const log = await AuditLog.open({
      directory: dir,
      clock: () => Date.parse('2026-02-27T12:00:00.000Z'),
    });
    const pending = [
      log.append(sampleEvent(1)),
      log.append({
        event_type: 'com.example.ping',
        actor: { type: 'kernel', id: 'kernel' },
        result: 'SUCCESS',
      }),
    ];
    const [first, second] = await Promise.all(pending);
    assert.deepEqual([first.seq, second.seq], [1, 2]);
    assert.equal(second.timestamp, '2026-02-27T12:00:00.000Z');
    assert.match(second.trace_id, /^[0-9a-f-]{36}$/);
    assert.deepEqual([second.target, second.details], [{}, {}]);
    const onDisk = fileLines(join(dir, FIRST)).map((l) => JSON.parse(l) as AuditRecord);
    assert.deepEqual(onDisk, [first, second]);
    await log.close();
  });

  it('batches concurrent appends into few write+fsync rounds (group commit)', async () => {
    let writes = 0;
    const log = await AuditLog.open({
      directory: dir,
      openFile: async (path) => {
        const file = await openSegmentFile(path);
        return { ...file, write: (data) => (writes++, file.write(data)) };
      },
    });
    const records = await Promise.all(
      Array.from({ length: 2000 }, (_, i) => log.append(sampleEvent(i))),
    );
    assert.deepEqual(
      records.map((r) => r.seq),
      Array.from({ length: 2000 }, (_, i) => i + 1),
    );
    assert.ok(writes < 20, `${writes} writes for 2000 appends`);
    await log.close();
    assert.equal((await verifyAuditLog(dir)).records, 2000);
  });

  it('rejects an invalid event at once, without using a seq', async () => {
    const log = await AuditLog.open({ directory: dir });
    await assert.rejects(
      log.append({ ...sampleEvent(1), event_type: 'not a type' }),
      (e: AuditError) => e.code === 'InvalidEvent',
    );
    await assert.rejects(
      log.append({ ...sampleEvent(1), actor: { type: 'robot' as 'agent', id: 'x' } }),
      /actor must be/,
    );
    await assert.rejects(log.append({ ...sampleEvent(1), details: { n: 1n } }), /BigInt/);
    assert.equal((await log.append(sampleEvent(2))).seq, 1);
    await log.close();
  });

  it('applies the redactor to every event, and a default one when none is given', async () => {
    const redactor = new Redactor();
    redactor.addSecret('s3cr3t-value');
    const log = await AuditLog.open({ directory: dir, redactor });
    const record = await log.append(
      sampleEvent(1, {
        details: { note: 'used s3cr3t-value', headers: { 'X-Api-Key': 'k-123456' } },
      }),
    );
    await log.close();
    assert.deepEqual(record.details, {
      note: 'used [REDACTED]',
      headers: { 'X-Api-Key': '[REDACTED]' },
    });
    assert.doesNotMatch(readFileSync(join(dir, FIRST), 'utf8'), /s3cr3t|k-123456/);

    const plain = await AuditLog.open({ directory: dir });
    const second = await plain.append(sampleEvent(2, { details: { password: 'hunter22' } }));
    await plain.close();
    assert.deepEqual(second.details, { password: '[REDACTED]' });
  });

  it('tells onAppend listeners about durable records, in order, until disposed', async () => {
    const log = await AuditLog.open({ directory: dir });
    const seen: number[] = [];
    const subscription = log.onAppend((r) => {
      assert.ok(existsSync(join(dir, FIRST)));
      seen.push(r.seq);
    });
    await Promise.all([1, 2, 3].map((i) => log.append(sampleEvent(i))));
    subscription.dispose();
    await log.append(sampleEvent(4));
    assert.deepEqual(seen, [1, 2, 3]);
    await log.close();
  });

  it('reads with filters, and tails the last n matching records across files', async () => {
    await writeLog(dir, 60, { rotateBytes: 3000 });
    const log = await AuditLog.open({ directory: dir });
    assert.equal((await collect(log.records())).length, 60);
    const blocked = await collect(log.records({ types: ['TOOL_BLOCKED'] }));
    assert.deepEqual(
      blocked.map((r) => r.details.i),
      [3, 10, 17, 24, 31, 38, 45, 52, 59],
    );
    assert.deepEqual(
      (
        await collect(
          log.records({ serverId: 'server.1', toolName: 'read_file', result: 'success' }),
        )
      )
        .map((r) => r.details.i)
        .slice(0, 3),
      [1, 5, 9],
    );
    assert.deepEqual(
      (await collect(log.records({ traceId: 'trace-42' }))).map((r) => r.seq),
      [42],
    );
    assert.deepEqual(
      (await collect(log.records({ text: 'FILE-7.TXT' }))).map((r) => r.seq),
      [7],
    );
    assert.deepEqual(
      (await log.tail(3)).map((r) => r.seq),
      [58, 59, 60],
    );
    assert.deepEqual(
      (await log.tail(2, { types: ['TOOL_BLOCKED'] })).map((r) => r.seq),
      [52, 59],
    );
    assert.deepEqual((await log.tail(100, { types: ['TOOL_BLOCKED'] })).length, 9);
    await log.close();
  });

  it('filters by time: since inclusive, until exclusive', async () => {
    let t = Date.parse('2026-03-01T00:00:00.000Z');
    const log = await AuditLog.open({ directory: dir, clock: () => (t += 60_000) });
    for (let i = 0; i < 5; i++)
      await log.append({
        event_type: 'SERVER_CONNECTED',
        actor: { type: 'kernel', id: 'k' },
        result: 'SUCCESS',
      });
    const times = (await collect(log.records())).map((r) => r.timestamp);
    const between = await collect(log.records({ since: times[1], until: times[3] }));
    assert.deepEqual(
      between.map((r) => r.seq),
      [2, 3],
    );
    await assert.rejects(log.records({ since: 'yesterday' }).next(), /not a date/);
    await log.close();
  });

  it('follows records appended later, across a rotation', async () => {
    const log = await AuditLog.open({ directory: dir, rotateBytes: 1500 });
    await log.append(sampleEvent(0));
    const controller = new AbortController();
    const seen: number[] = [];
    const following = (async () => {
      for await (const record of followRecords(
        dir,
        { types: ['TOOL_EXECUTED'] },
        { afterSeq: 1, signal: controller.signal, pollMs: 10 },
      )) {
        seen.push(record.seq);
        if (seen.length === 5) controller.abort();
      }
    })();
    for (let i = 1; i <= 7; i++) await log.append(sampleEvent(i));
    await following;
    assert.deepEqual(seen, [2, 3, 5, 6, 7]);
    assert.ok(readdirSync(dir).includes('audit-000002.jsonl'));
    await log.close();
  });

  it('lets one writer at a time hold a log, and takes over the lock of a dead one', async () => {
    const log = await AuditLog.open({ directory: dir });
    await assert.rejects(
      AuditLog.open({ directory: dir }),
      (e: AuditError) =>
        e.code === 'Locked' && new RegExp(`process ${process.pid}`).test(e.message),
    );
    await log.close();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      join(dir, 'writer.lock'),
      JSON.stringify({
        pid: 2 ** 22 + 12345,
        host: (await import('node:os')).hostname(),
        since: '',
      }),
    );
    const again = await AuditLog.open({ directory: dir });
    await again.close();
    await assert.rejects(again.append(sampleEvent(1)), (e: AuditError) => e.code === 'Closed');
  });

  describe('write errors', () => {
    it('rejects the records of a failed write (disk full), leaves no half line, and continues the chain', async () => {
      const problems: string[] = [];
      const log = await AuditLog.open({
        directory: dir,
        openFile: faultyFiles(2, 'ENOSPC'),
        onProblem: (m) => problems.push(m),
      });
      await log.append(sampleEvent(1));
      const failed = await Promise.allSettled([
        log.append(sampleEvent(2)),
        log.append(sampleEvent(3)),
      ]);
      for (const outcome of failed) {
        assert.equal(outcome.status, 'rejected');
        const error = (outcome as PromiseRejectedResult).reason as AuditError;
        assert.equal(error.code, 'WriteFailed');
        assert.match(error.message, /seq 2 and later were not written .*ENOSPC/);
      }
      assert.match(problems[0], /ENOSPC/);
      const next = await log.append(sampleEvent(4));
      assert.equal(next.seq, 2);
      await log.close();
      assert.deepEqual(
        fileLines(join(dir, FIRST)).map((l) => (JSON.parse(l) as AuditRecord).details.i),
        [1, 4],
      );
      assert.equal((await verifyAuditLog(dir)).ok, true);
    });

    it('fails a new file that cannot be created (permission), then retries it', async () => {
      let refused = 0;
      const log = await AuditLog.open({
        directory: dir,
        rotateBytes: 600,
        openFile: async (path) => {
          if (path.endsWith('audit-000002.jsonl') && refused++ === 0)
            throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), {
              code: 'EACCES',
            });
          return openSegmentFile(path);
        },
      });
      await log.append(sampleEvent(1));
      await assert.rejects(log.append(sampleEvent(2)), /EACCES/);
      assert.equal((await log.append(sampleEvent(3))).seq, 2);
      await log.close();
      const report = await verifyAuditLog(dir);
      assert.equal(report.ok, true, JSON.stringify(report.problem));
      assert.deepEqual(report.files, [FIRST, 'audit-000002.jsonl']);
    });

    it('stays failed when the rollback fails too, and the next open repairs the file', async () => {
      const log = await AuditLog.open({
        directory: dir,
        openFile: faultyFiles(2, 'EIO', { truncateFails: true }),
      });
      await log.append(sampleEvent(1));
      await assert.rejects(log.append(sampleEvent(2)), /EIO/);
      await assert.rejects(
        log.append(sampleEvent(3)),
        /cannot be written since a failed write could not be rolled back/,
      );
      await log.close();
      assert.equal((await verifyAuditLog(dir)).problem?.kind, 'torn_line');
      const reopened = await AuditLog.open({ directory: dir });
      assert.match(reopened.notes.join(), /cut off an incomplete last line/);
      assert.equal((await reopened.append(sampleEvent(4))).seq, 2);
      await reopened.close();
      assert.equal((await verifyAuditLog(dir)).ok, true);
    });
  });
});
