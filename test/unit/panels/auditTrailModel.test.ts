import { strict as assert } from 'node:assert';
import { appendFileSync } from 'node:fs';
import type { AuditRecord } from '../../../client/src/kernel/audit/auditEvent';
import { AuditLog } from '../../../client/src/kernel/audit/auditLog';
import { listSegments } from '../../../client/src/kernel/audit/segments';
import { AuditIndex } from '../../../client/src/vscode/auditTrail/auditIndex';
import { AuditScanner } from '../../../client/src/vscode/auditTrail/auditScanner';
import { readRecordAt } from '../../../client/src/kernel';
import { directorySource } from '../../../client/src/vscode/auditTrail/auditSource';
import { AuditTrailModel } from '../../../client/src/vscode/auditTrail/auditTrailModel';
import type { AuditRowItem } from '@shared/auditMessages';
import { sampleEvent, tempDir, writeLog } from '../audit/support';

async function allRecords(log: AuditLog): Promise<AuditRecord[]> {
  const records: AuditRecord[] = [];
  for await (const record of log.records()) records.push(record);
  return records;
}

describe('Audit Trail index over a real log', () => {
  let temp: ReturnType<typeof tempDir>;
  beforeEach(() => (temp = tempDir('mgp-panel-audit-')));
  afterEach(() => temp.remove());

  it('indexes every record across rotated files and reads each one back by its position', async () => {
    await writeLog(temp.dir, 300, { rotateBytes: 16 * 1024 });
    assert.ok((await listSegments(temp.dir)).length > 3, 'several files');
    const index = new AuditIndex();
    const scanner = new AuditScanner(temp.dir, index);
    assert.equal(await scanner.scan(), 300);
    assert.equal(index.length, 300);
    const log = await AuditLog.open({ directory: temp.dir });
    try {
      const records = await allRecords(log);
      for (const record of [records[0], records[137], records[299]]) {
        const row = index.find(record.seq);
        assert.deepEqual(await readRecordAt(temp.dir, index.position(row), record.seq), record);
        assert.equal(index.text('trace', row), record.trace_id);
      }
      assert.equal(
        await readRecordAt(temp.dir, index.position(5), 999),
        undefined,
        'a wrong seq is not answered',
      );
    } finally {
      await log.close();
    }
  });

  it('reads only what was appended since the last scan, up to the last durable record', async () => {
    const log = await AuditLog.open({ directory: temp.dir, rotateBytes: 8 * 1024 });
    try {
      await Promise.all(Array.from({ length: 50 }, (_, i) => log.append(sampleEvent(i + 1))));
      const index = new AuditIndex();
      let durable = 40;
      const scanner = new AuditScanner(temp.dir, index, { maxSeq: () => durable });
      assert.equal(await scanner.scan(), 40);
      durable = Infinity;
      assert.equal(await scanner.scan(), 10);
      await Promise.all(Array.from({ length: 70 }, (_, i) => log.append(sampleEvent(i + 51))));
      const [a, b] = [scanner.scan(), scanner.scan()];
      assert.equal((await a) + (await b) >= 70, true);
      assert.equal(index.length, 120);
      assert.deepEqual(
        Array.from({ length: 120 }, (_, i) => index.seq(i)),
        Array.from({ length: 120 }, (_, i) => i + 1),
      );
      assert.equal(await scanner.scan(), 0);
    } finally {
      await log.close();
    }
  });

  it('stops at a line still being written and takes it once complete', async () => {
    await writeLog(temp.dir, 5);
    const [segment] = await listSegments(temp.dir);
    const index = new AuditIndex();
    const scanner = new AuditScanner(temp.dir, index);
    await scanner.scan();
    appendFileSync(
      segment.path,
      '{"seq":6,"timestamp":"2026-01-01T00:00:00.000Z","event_type":"TOOL_EXECUTED"',
    );
    assert.equal(await scanner.scan(), 0);
    appendFileSync(segment.path, ',"trace_id":"t6","result":"SUCCESS"}\nnot a record\n');
    assert.equal(await scanner.scan(), 1);
    assert.equal(index.row(5, false).trace, 't6');
  });
});

describe('Audit Trail model', () => {
  let temp: ReturnType<typeof tempDir>;
  beforeEach(() => (temp = tempDir('mgp-panel-model-')));
  afterEach(() => temp.remove());

  it('loads, filters, groups, answers windows of the current version, and reads a record', async () => {
    await writeLog(temp.dir, 40);
    const model = new AuditTrailModel(directorySource(temp.dir));
    const loaded = await model.load();
    assert.equal(loaded.records, 40);
    assert.equal(loaded.total, 40);
    assert.deepEqual(loaded.facets.servers, ['server.0', 'server.1', 'server.2', 'server.3']);
    const filtered = model.setOptions({
      filter: { serverId: 'server.1', types: ['TOOL_EXECUTED'] },
      groupByTrace: false,
      newestFirst: false,
    });
    assert.ok(filtered.version > loaded.version);
    assert.equal(model.rows(loaded.version, 0, 100), undefined, 'an older version is not answered');
    const rows = model.rows(filtered.version, 0, 100) as AuditRowItem[];
    assert.equal(rows.length, filtered.total);
    assert.ok(rows.every((r) => r.server === 'server.1' && r.type === 'TOOL_EXECUTED'));
    const record = await model.record(rows[0].seq);
    assert.equal(record?.seq, rows[0].seq);
    assert.match(record?.hash ?? '', /^[0-9a-f]{64}$/);
    assert.equal(await model.record(4000), undefined);

    const grouped = model.setOptions({ filter: {}, groupByTrace: true, newestFirst: false });
    assert.equal(grouped.groups, 40, 'one trace per sample event');
    const opened = model.toggle('trace-3');
    assert.equal(opened.total, 41);
    assert.equal(opened.stable, 2, 'the headers before the opened one stay');
    assert.equal(model.expandAll(true).total, 80);
    assert.equal(model.expandAll(false).total, 40);
  });

  it('follows appends: a flat view keeps the rows it had, a grouped one starts over', async () => {
    const log = await AuditLog.open({ directory: temp.dir });
    try {
      await Promise.all(Array.from({ length: 10 }, (_, i) => log.append(sampleEvent(i + 1))));
      const model = new AuditTrailModel(directorySource(temp.dir));
      await model.load();
      const first = model.setOptions({ filter: {}, groupByTrace: false, newestFirst: false });
      assert.equal(await model.refresh(), undefined, 'nothing new');
      await Promise.all(Array.from({ length: 5 }, (_, i) => log.append(sampleEvent(i + 11))));
      const next = await model.refresh();
      assert.equal(next?.total, 15);
      assert.equal(next?.stable, first.total);
      model.setOptions({ filter: {}, groupByTrace: true, newestFirst: false });
      await log.append(sampleEvent(16, { trace_id: 'trace-2' }));
      const grouped = await model.refresh();
      assert.equal(grouped?.total, 15);
      assert.equal(grouped?.stable, 0);
    } finally {
      await log.close();
    }
  });

  it('shows the newest first by default; a live append lands on top', async () => {
    const log = await AuditLog.open({ directory: temp.dir });
    try {
      await Promise.all(Array.from({ length: 10 }, (_, i) => log.append(sampleEvent(i + 1))));
      const model = new AuditTrailModel(directorySource(temp.dir));
      const first = await model.load();
      assert.equal(first.options.newestFirst, true);
      const seqs = (version: number) =>
        (model.rows(version, 0, 100) as AuditRowItem[]).map((row) => row.seq);
      assert.deepEqual(seqs(first.version), [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
      await Promise.all(Array.from({ length: 3 }, (_, i) => log.append(sampleEvent(i + 11))));
      const next = await model.refresh();
      assert.equal(next?.prepended, 3, 'three rows on top');
      assert.equal(next?.stable, 0, 'every row moved down');
      assert.deepEqual(seqs(next!.version).slice(0, 4), [13, 12, 11, 10]);
      const oldest = model.setOptions({ filter: {}, groupByTrace: false, newestFirst: false });
      assert.deepEqual(seqs(oldest.version).slice(0, 3), [1, 2, 3]);
      // Grouped, the newest trace comes first and its records read in the order they happened.
      await log.append(sampleEvent(14, { trace_id: 'trace-13' }));
      await model.refresh();
      const grouped = model.setOptions({ filter: {}, groupByTrace: true, newestFirst: true });
      const head = model.rows(grouped.version, 0, 1)?.[0];
      assert.equal(head?.kind === 'group' && head.trace, 'trace-13');
      const open = model.toggle('trace-13');
      assert.deepEqual(
        model
          .rows(open.version, 0, 3)
          ?.map((item) => (item.kind === 'row' ? item.seq : item.trace)),
        ['trace-13', 13, 14],
      );
    } finally {
      await log.close();
    }
  });
});
