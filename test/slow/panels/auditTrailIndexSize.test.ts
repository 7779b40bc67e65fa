import { strict as assert } from 'node:assert';
import { AuditIndex } from '../../../client/src/vscode/auditTrail/auditIndex';
import { buildDisplay, displayItems } from '../../../client/src/vscode/auditTrail/auditView';

// 100,000 records indexed as they are read: about 2 s.
describe('Audit Trail index size at 100,000 records', function () {
  it('stays compact: typed columns and each distinct string once', () => {
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    const before = used();
    const index = new AuditIndex();
    const servers = ['example', 'everything', 'files', 'git', 'browser', 'tickets'];
    const tools = [
      'delete_notes',
      'write_note',
      'list_notes',
      'echo',
      'read_file',
      'commit',
      'fetch_page',
      'create_issue',
    ];
    for (let seq = 1; seq <= 100_000; seq++) {
      const trace = Math.floor((seq - 1) / 3);
      const line = JSON.stringify({
        seq,
        timestamp: new Date(Date.UTC(2026, 0, 1) + seq * 250).toISOString(),
        trace_id: `${trace.toString(16).padStart(8, '0')}-7d3c-4f1e-9a6b-${(trace * 7919).toString(16).padStart(12, '0')}`,
        event_type: seq % 3 === 1 ? 'PERMISSION_GRANTED' : 'TOOL_EXECUTED',
        actor: { type: 'agent', id: `agent.worker-${seq % 12}` },
        target: {
          server_id: servers[trace % servers.length],
          tool_name: tools[trace % tools.length],
        },
        result: seq % 3 === 1 ? 'GRANTED' : seq % 17 === 0 ? 'FAILURE' : 'SUCCESS',
        details: { duration_ms: seq % 500, arguments: { path: `/srv/project/file-${seq}.txt` } },
        prev_hash: 'f'.repeat(64),
        hash: 'e'.repeat(64),
      });
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
