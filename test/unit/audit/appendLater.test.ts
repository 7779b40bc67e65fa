import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { AuditEventInput, AuditRecord } from '../../../client/src/kernel/audit/auditEvent';
import { AuditLog } from '../../../client/src/kernel/audit/auditLog';
import type { AuditError } from '../../../client/src/kernel/audit/errors';
import { REDACTED, Redactor } from '../../../client/src/kernel/audit/redact';
import { verifyAuditLog } from '../../../client/src/kernel/audit/verify';
import { AuditTrail } from '../../../client/src/kernel/audit/auditTrail';
import { HANG_MS } from '../../support/patience';
import { faultyOpener } from './faults';
import { onDisk, sampleEvent, tempDir } from './support';

const failures = (): { errors: Error[]; failed: (error: Error) => void } => {
  const errors: Error[] = [];
  return { errors, failed: (error) => errors.push(error) };
};

describe('audit records made later', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = tempDir('mgp-audit-later-')));
  afterEach(() => remove());

  for (const writer of ['thread', 'inline'] as const) {
    describe(`AuditLog.appendLater (${writer} writer)`, () => {
      it('numbers its events in call order among plain appends, and flush() waits for them', async () => {
        const log = await AuditLog.open({ directory: dir, writer, commitDelayMs: 20 });
        const { errors, failed } = failures();
        const appends: Promise<AuditRecord>[] = [];
        for (let i = 1; i <= 60; i++) {
          if (i % 3 === 0) appends.push(log.append(sampleEvent(i)));
          else log.appendLater(() => sampleEvent(i), failed);
        }
        await log.flush();
        assert.equal(log.lastDurable.seq, 60);
        const records = await onDisk(dir);
        assert.deepEqual(
          records.map((r) => r.details.i),
          Array.from({ length: 60 }, (_, i) => i + 1),
        );
        assert.deepEqual(
          records.map((r) => r.seq),
          Array.from({ length: 60 }, (_, i) => i + 1),
        );
        assert.deepEqual(
          (await Promise.all(appends)).map((r) => r.details.i),
          Array.from({ length: 20 }, (_, i) => 3 * (i + 1)),
        );
        assert.deepEqual(errors, []);
        await log.close();
        assert.equal((await verifyAuditLog(dir)).ok, true);
      });

      it('tells the listeners of each event once it is durable, as a plain append does', async () => {
        const log = await AuditLog.open({ directory: dir, writer, commitDelayMs: 5 });
        const told: number[] = [];
        log.onAppend((record) => told.push(record.details.i as number));
        const { failed } = failures();
        for (let i = 1; i <= 5; i++) log.appendLater(() => sampleEvent(i), failed);
        await log.close();
        assert.deepEqual(told, [1, 2, 3, 4, 5]);
      });

      it('reports an event that cannot be made or logged, without using a seq', async () => {
        const log = await AuditLog.open({ directory: dir, writer });
        const { errors, failed } = failures();
        log.appendLater(() => sampleEvent(1), failed);
        log.appendLater(() => {
          throw new Error('the maker broke');
        }, failed);
        log.appendLater(() => ({ ...sampleEvent(2), event_type: 'not a type' }), failed);
        log.appendLater(() => sampleEvent(3, { details: { n: 10n } }), failed);
        log.appendLater(() => sampleEvent(4), failed);
        await log.flush();
        assert.deepEqual(
          errors.map((e) => (e as AuditError).code),
          ['InvalidEvent', 'InvalidEvent', 'InvalidEvent'],
        );
        assert.match(errors[0].message, /the maker broke/);
        assert.match(errors[1].message, /event_type "not a type"/);
        assert.match(errors[2].message, /BigInt/);
        assert.deepEqual(
          (await onDisk(dir)).map((r) => [r.seq, r.details.i]),
          [
            [1, 1],
            [2, 4],
          ],
        );
        await log.close();
      });

      it('is redacted with the secrets known when the event is made', async () => {
        const redactor = new Redactor();
        const log = await AuditLog.open({ directory: dir, writer, redactor, commitDelayMs: 20 });
        const { failed } = failures();
        log.appendLater(
          () => sampleEvent(1, { details: { note: 'used late-secret-Z9', token: 'abc123456789' } }),
          failed,
        );
        redactor.addSecret('late-secret-Z9');
        await log.close();
        const [record] = await onDisk(dir);
        // The inline writer makes the event at once, before the secret is known; the thread makes it with its batch.
        assert.equal(
          record.details.note,
          writer === 'thread' ? `used ${REDACTED}` : 'used late-secret-Z9',
        );
        assert.equal(record.details.token, REDACTED);
      });

      it('is refused once the log is closed', async () => {
        const log = await AuditLog.open({ directory: dir, writer });
        await log.close();
        const { errors, failed } = failures();
        let made = false;
        log.appendLater(() => ((made = true), sampleEvent(1)), failed);
        assert.deepEqual(
          errors.map((e) => (e as AuditError).code),
          ['Closed'],
        );
        assert.equal(made, false);
      });
    });
  }

  describe('AuditLog.appendLater: when the events are made', () => {
    it("makes nothing on the caller's time: the writer thread's batch makes the events of its commit delay together", async () => {
      // A commit delay no test outlasts: only the flush below takes the batch.
      const log = await AuditLog.open({ directory: dir, commitDelayMs: 3_600_000 });
      const madeAt: number[] = [];
      const { failed } = failures();
      for (let i = 1; i <= 3; i++) log.appendLater(() => (madeAt.push(i), sampleEvent(i)), failed);
      assert.deepEqual(madeAt, []);
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(madeAt, [], 'not made once the caller has gone on, before the batch');
      await log.flush();
      assert.deepEqual(madeAt, [1, 2, 3]);
      await log.close();
    });

    it('rejects what is still queued when the thread dies', async () => {
      const problems: string[] = [];
      const log = await AuditLog.open({
        directory: dir,
        commitDelayMs: 60_000,
        openFile: faultyOpener('crashingFiles', 1),
        onProblem: (m) => problems.push(m),
      });
      const { errors, failed } = failures();
      const first = log.append(sampleEvent(1));
      const flushed = log.flush(); // sends the first event now: its write crashes the thread
      for (let i = 2; i <= 4; i++) log.appendLater(() => sampleEvent(i), failed); // queued for the next batch
      await assert.rejects(first, /writer thread stopped/);
      await flushed;
      assert.equal(errors.length, 3);
      for (const error of errors) assert.match(error.message, /writer thread stopped/);
      assert.equal(problems.length, 1);
      await log.close();
    });

    it('leaves nothing behind that keeps the process alive once the log is closed, whatever the commit delay', () => {
      const script = `
        const { AuditLog } = require(${JSON.stringify(join(__dirname, '../../../client/src/kernel/audit/auditLog.js'))});
        const { faultyOpener } = require(${JSON.stringify(join(__dirname, 'faults.js'))});
        const event = { event_type: 'TOOL_EXECUTED', actor: { type: 'kernel', id: 'k' }, target: {}, result: 'SUCCESS' };
        (async () => {
          const log = await AuditLog.open({ directory: process.argv[1], commitDelayMs: 3600000, openFile: faultyOpener('crashingFiles', 1) });
          const first = log.append(event);
          const flushed = log.flush(); // sends the first event now: its write crashes the thread
          log.appendLater(() => event, () => undefined); // queued for a batch an hour away, until the thread dies
          await first.catch(() => undefined);
          await flushed;
          await log.close();
        })();`;
      // Whatever kept it alive would keep it for the hour of the commit delay: past HANG_MS, the
      // process is killed and execFileSync throws.
      execFileSync(process.execPath, ['-e', script, dir], { timeout: HANG_MS, stdio: 'pipe' });
    });
  });

  describe('AuditTrail.recordLater', () => {
    it('records through the log, tells the views, and reports an event that cannot be recorded as a problem', async () => {
      const trail = new AuditTrail(await AuditLog.open({ directory: dir, commitDelayMs: 20 }));
      const problems: string[] = [];
      const seen: string[] = [];
      trail.onProblem((message) => problems.push(message));
      trail.onRecord((record) => seen.push(record.trace_id));
      trail.recordLater(() => sampleEvent(1));
      trail.recordLater(
        () =>
          ({ ...sampleEvent(2), actor: { type: 'nobody', id: '' } }) as unknown as AuditEventInput,
      );
      await trail.record(sampleEvent(3));
      await trail.flush();
      assert.deepEqual(seen, ['trace-1', 'trace-3']);
      assert.equal(problems.length, 1);
      assert.match(problems[0], /could not be recorded: cannot log this event/);
      await trail.close();
    });
  });
});
