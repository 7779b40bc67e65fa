import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AuditLog } from '../../../client/src/kernel/audit/auditLog';
import type { ChainAnchor } from '../../../client/src/kernel/audit/anchor';
import type { AuditRecord } from '../../../client/src/kernel/audit/auditEvent';
import { filesToPrune } from '../../../client/src/kernel/audit/retention';
import { verifyAuditLog } from '../../../client/src/kernel/audit/verify';
import { DAY, fakeClock, fileLines, sampleEvent, tempDir, writeLog } from './support';

const logFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort();
const anchorOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as ChainAnchor;

describe('audit retention (MGP §19.4): keep_all, time_based, size_based', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = tempDir()));
  afterEach(() => remove());

  it('chooses a run of the oldest closed files, never the one being written', () => {
    const files = [
      { bytes: 100, newest: 1 },
      { bytes: 100, newest: 5 },
      { bytes: 100, newest: 2 },
      { bytes: 100 },
    ];
    assert.equal(filesToPrune(files, { policy: 'keep_all' }, 10 * DAY), 0);
    assert.equal(filesToPrune(files, { policy: 'time_based', days: 1 }, DAY + 3), 1); // the second is newer: stop there
    assert.equal(filesToPrune(files, { policy: 'time_based', days: 1 }, 10 * DAY), 3);
    assert.equal(filesToPrune(files, { policy: 'size_based', maxBytes: 250 }, 0), 2);
    assert.equal(filesToPrune(files, { policy: 'size_based', maxBytes: 1 }, 0), 3);
    assert.equal(filesToPrune([{ bytes: 10 ** 9 }], { policy: 'size_based', maxBytes: 1 }, 0), 0);
  });

  it('rejects a policy without a positive limit', async () => {
    await assert.rejects(
      AuditLog.open({ directory: dir, retention: { policy: 'time_based', days: 0 } }),
      RangeError,
    );
  });

  it('time_based deletes files whose newest record is older than N days; verify does not call that tampering', async () => {
    const clock = fakeClock();
    const log = await AuditLog.open({
      directory: dir,
      rotateBytes: 2000,
      clock: clock.now,
      retention: { policy: 'time_based', days: 7 },
    });
    for (let i = 0; i < 30; i++) await log.append(sampleEvent(i));
    const old = logFiles(dir);
    assert.ok(old.length >= 3);
    clock.advance(6 * DAY);
    assert.deepEqual(await log.applyRetention(), []);
    clock.advance(2 * DAY);
    assert.deepEqual(await log.applyRetention(), old.slice(0, -1));
    for (let i = 30; i < 35; i++) await log.append(sampleEvent(i));
    const kept = logFiles(dir);
    const firstKept = JSON.parse(fileLines(join(dir, kept[0]))[0]) as AuditRecord;
    assert.deepEqual(anchorOf(dir).start, {
      seq: firstKept.seq,
      prev_hash: firstKept.prev_hash,
      file: kept[0],
      pruned_at: new Date(clock.now()).toISOString(),
    });
    await log.close();
    const report = await verifyAuditLog(dir);
    assert.equal(report.ok, true, JSON.stringify(report.problem));
    assert.equal(report.firstSeq, firstKept.seq);
    assert.equal(report.lastSeq, 35);
  });

  it('a file deleted by hand after retention is still detected', async () => {
    const clock = fakeClock();
    const log = await AuditLog.open({
      directory: dir,
      rotateBytes: 2000,
      clock: clock.now,
      retention: { policy: 'time_based', days: 1 },
    });
    for (let i = 0; i < 20; i++) await log.append(sampleEvent(i));
    clock.advance(2 * DAY);
    for (let i = 20; i < 60; i++) await log.append(sampleEvent(i)); // rotations prune the old files as they go
    await log.close();
    const start = anchorOf(dir).start;
    assert.ok(start && start.seq > 1);
    assert.equal((await verifyAuditLog(dir)).ok, true);
    unlinkSync(join(dir, logFiles(dir)[0]));
    const problem = (await verifyAuditLog(dir)).problem;
    assert.deepEqual(
      [problem?.kind, problem?.seq, problem?.file, problem?.line],
      ['missing_start', start?.seq, logFiles(dir)[0], 1],
    );
  });

  it('size_based keeps the newest files within maxBytes, pruning after rotations', async () => {
    const log = await AuditLog.open({
      directory: dir,
      rotateBytes: 2000,
      retention: { policy: 'size_based', maxBytes: 6000 },
    });
    for (let i = 0; i < 100; i++) await log.append(sampleEvent(i));
    await log.close();
    const files = logFiles(dir);
    const total = files.reduce((sum, f) => sum + readFileSync(join(dir, f)).length, 0);
    assert.ok(total <= 6000 + 2000, `${total} bytes in ${files.join()}`);
    assert.notEqual(files[0], 'audit-000001.jsonl');
    const report = await verifyAuditLog(dir);
    assert.equal(report.ok, true, JSON.stringify(report.problem));
    assert.equal(report.lastSeq, 100);
  });

  it('an interrupted pruning (anchor written, files not yet deleted) verifies, and the next open finishes it', async () => {
    await writeLog(dir, 40, { rotateBytes: 2000 });
    const files = logFiles(dir);
    const first = JSON.parse(fileLines(join(dir, files[2]))[0]) as AuditRecord;
    const anchor = {
      ...anchorOf(dir),
      start: {
        seq: first.seq,
        prev_hash: first.prev_hash,
        file: files[2],
        pruned_at: '2026-01-01T00:00:00.000Z',
      },
    };
    writeFileSync(join(dir, 'chain.json'), JSON.stringify(anchor));
    const report = await verifyAuditLog(dir);
    assert.equal(report.ok, true, JSON.stringify(report.problem));
    assert.match(report.notes.join(), /interrupted retention pass/);
    const log = await AuditLog.open({ directory: dir });
    assert.match(log.notes.join(), new RegExp(`deleted ${files[0]}, ${files[1]}`));
    await log.close();
    assert.deepEqual(logFiles(dir), files.slice(2));
    assert.equal((await verifyAuditLog(dir)).ok, true);
  });
});
