import { strict as assert } from 'node:assert';
import { AuditIndex } from '../../../client/src/vscode/auditTrail/auditIndex';
import { buildDisplay, displayItems } from '../../../client/src/vscode/auditTrail/auditView';
import { busyAuditLine } from '../../support/busyAuditLog';

// 100,000 records indexed as they are read: about 2 s.
describe('Audit Trail index size at 100,000 records', function () {
  it('stays compact: typed columns and each distinct string once', () => {
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    const before = used();
    const index = new AuditIndex();
    for (let seq = 1; seq <= 100_000; seq++) {
      const line = busyAuditLine(seq);
      index.add(JSON.parse(line), { segment: 1 + Math.floor(seq / 20_000), offset: seq * 480 });
    }
    gc?.();
    const measured = used() - before;
    console.log(
      `      index of 100,000 records: estimated ${(index.bytes / 2 ** 20).toFixed(1)} MB${gc ? `, measured growth of heap and array buffers ${(measured / 2 ** 20).toFixed(1)} MB` : ' (run node with --expose-gc to measure the heap)'}, ${index.strings.size.toLocaleString('en-US')} distinct strings`,
    );
    assert.ok(index.bytes < 16 * 2 ** 20, `estimated ${index.bytes} bytes`);
    if (gc) assert.ok(measured < 24 * 2 ** 20, `measured ${measured} bytes`);
    assert.equal(index.length, 100_000);

    // How long these views take is bench/audit-trail-views.mjs's to measure.
    const grouped = buildDisplay(index, { filter: {}, groupByTrace: true, newestFirst: false });
    assert.equal(grouped.items.length, Math.ceil(100_000 / 3));
    assert.equal(displayItems(index, grouped, 16_000, 100).length, 100);
  });
});
