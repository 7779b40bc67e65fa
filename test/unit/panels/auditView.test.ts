import { strict as assert } from 'node:assert';
import type { AuditGroupItem, AuditRowItem } from '@shared/auditMessages';
import { AuditIndex, IndexedFields } from '../../../client/src/vscode/auditTrail/auditIndex';
import {
  appendToFlat,
  buildDisplay,
  commonPrefix,
  displayIndexOfSeq,
  displayItems,
  groupByTrace,
  matchingRows,
  toAuditFilter,
} from '../../../client/src/vscode/auditTrail/auditView';

const T0 = Date.parse('2026-03-01T00:00:00.000Z');

/** Records in traces of three: PERMISSION_GRANTED, TOOL_EXECUTED, and every 5th trace TOOL_BLOCKED. */
export function syntheticRecord(seq: number): IndexedFields {
  const trace = Math.floor((seq - 1) / 3);
  const step = (seq - 1) % 3;
  const blocked = trace % 5 === 4 && step === 2;
  return {
    seq,
    timestamp: new Date(T0 + seq * 1000).toISOString(),
    event_type: step === 0 ? 'PERMISSION_GRANTED' : blocked ? 'TOOL_BLOCKED' : 'TOOL_EXECUTED',
    trace_id: `trace-${trace}`,
    result: step === 0 ? 'GRANTED' : blocked ? 'BLOCKED' : 'SUCCESS',
    actor: { type: 'operator', id: 'agent.vscode' },
    target: {
      server_id: trace % 2 ? 'everything' : 'example',
      tool_name: trace % 2 ? 'echo' : 'write_note',
    },
  };
}

function indexOf(count: number): AuditIndex {
  const index = new AuditIndex();
  for (let seq = 1; seq <= count; seq++)
    index.add(syntheticRecord(seq), { segment: 1, offset: seq * 100 });
  return index;
}

describe('Audit Trail view model', () => {
  it('interns strings and answers rows by position and seq', () => {
    const index = indexOf(30);
    assert.equal(index.length, 30);
    assert.equal(index.lastSeq, 30);
    assert.equal(index.find(17), 16);
    assert.equal(index.find(31), -1);
    assert.deepEqual(index.position(16), { segment: 1, offset: 1700 });
    const row = index.row(0, false);
    assert.deepEqual(row, {
      kind: 'row',
      seq: 1,
      time: T0 + 1000,
      type: 'PERMISSION_GRANTED',
      server: 'example',
      tool: 'write_note',
      result: 'GRANTED',
      actor: 'operator:agent.vscode',
      trace: 'trace-0',
      sentence: 'You approved example.write_note',
      permission: '',
      inGroup: false,
    });
    // '' + 3 types + 2 servers + 2 tools + 3 results + 1 actor + 10 traces + 6 sentences (3 types
    // on 2 tools); no permission in these records
    assert.equal(index.strings.size, 28);
    assert.deepEqual(index.facets(), {
      types: ['PERMISSION_GRANTED', 'TOOL_BLOCKED', 'TOOL_EXECUTED'],
      servers: ['everything', 'example'],
      tools: ['echo', 'write_note'],
      results: ['BLOCKED', 'GRANTED', 'SUCCESS'],
    });
  });

  it('filters by type, server, tool, result (any case), trace and time range', () => {
    const index = indexOf(30);
    const seqs = (filter: Parameters<typeof matchingRows>[1]) =>
      [...matchingRows(index, filter)].map((i) => index.seq(i));
    assert.equal(seqs({}).length, 30);
    assert.deepEqual(seqs({ types: ['TOOL_BLOCKED'] }), [15, 30]);
    assert.deepEqual(
      seqs({ types: ['TOOL_BLOCKED', 'PERMISSION_GRANTED'], serverId: 'everything' }),
      [4, 10, 16, 22, 28, 30],
    );
    assert.deepEqual(seqs({ toolName: 'echo', result: 'blocked' }), [30]);
    assert.deepEqual(seqs({ traceId: ' trace-2 ' }), [7, 8, 9]);
    assert.deepEqual(seqs({ since: new Date(T0 + 28_000).toISOString() }), [28, 29, 30]);
    assert.deepEqual(seqs({ until: new Date(T0 + 3_000).toISOString() }), [1, 2]);
    assert.deepEqual(seqs({ serverId: 'nowhere' }), []);
    assert.deepEqual(seqs({ types: ['NEVER_SEEN'] }), []);
    assert.deepEqual(seqs({ result: 'nope' }), []);
  });

  it('groups rows by trace in order of first appearance, keeping each group in seq order', () => {
    const index = indexOf(12);
    const rows = matchingRows(index, { types: ['TOOL_EXECUTED', 'PERMISSION_GRANTED'] });
    const groups = groupByTrace(index, rows);
    assert.deepEqual(
      [...groups.trace].map((id) => index.strings.values[id]),
      ['trace-0', 'trace-1', 'trace-2', 'trace-3'],
    );
    assert.deepEqual([...groups.start], [0, 3, 6, 9, 12]);
    assert.deepEqual(
      [...groups.rows].map((i) => index.seq(i)),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    );
  });

  it('shows collapsible groups: headers summarise their trace, open groups list their records', () => {
    const index = indexOf(15);
    const collapsed = buildDisplay(index, { filter: {}, groupByTrace: true, newestFirst: false });
    assert.equal(collapsed.items.length, 5);
    const headers = displayItems(index, collapsed, 0, 10) as AuditGroupItem[];
    assert.deepEqual(headers[4], {
      kind: 'group',
      trace: 'trace-4',
      count: 3,
      first: T0 + 13_000,
      last: T0 + 15_000,
      expanded: false,
      types: ['PERMISSION_GRANTED', 'TOOL_EXECUTED', 'TOOL_BLOCKED'],
      server: 'example',
      tool: 'write_note',
      result: 'BLOCKED',
      problem: true,
    });
    assert.equal(headers[0].problem, false);
    const expansion = { all: false, exceptions: new Set(['trace-1']) };
    const open = buildDisplay(
      index,
      { filter: {}, groupByTrace: true, newestFirst: false },
      expansion,
    );
    assert.equal(open.items.length, 8);
    const items = displayItems(index, open, 0, 8, expansion);
    assert.deepEqual(
      items.map((i) =>
        i.kind === 'group' ? `${i.trace}${i.expanded ? ' open' : ''}` : (i as AuditRowItem).seq,
      ),
      ['trace-0', 'trace-1 open', 4, 5, 6, 'trace-2', 'trace-3', 'trace-4'],
    );
    assert.equal((items[2] as AuditRowItem).inGroup, true);
    assert.equal(
      commonPrefix(collapsed.items, open.items),
      2,
      'the items before the opened group stay',
    );
    const all = buildDisplay(
      index,
      { filter: {}, groupByTrace: true, newestFirst: false },
      { all: true, exceptions: new Set(['trace-4']) },
    );
    assert.equal(all.items.length, 5 + 4 * 3);
    assert.equal(displayIndexOfSeq(index, all, 5), 6);
    assert.equal(displayIndexOfSeq(index, all, 14), -1, 'in a closed group');
  });

  it('answers any window of the display list, cut at its end', () => {
    const index = indexOf(1000);
    const display = buildDisplay(index, {
      filter: { serverId: 'example' },
      groupByTrace: false,
      newestFirst: false,
    });
    assert.equal(display.items.length, 501);
    const window = displayItems(index, display, 450, 100) as AuditRowItem[];
    assert.equal(window.length, 51);
    // Even traces only: item 450 is the first record of trace 300 (seq 901); the last is trace 332's third.
    assert.deepEqual(
      window.slice(0, 4).map((r) => r.seq),
      [901, 902, 903, 907],
    );
    assert.equal(window[window.length - 1].seq, 999);
    assert.deepEqual(displayItems(index, display, 600, 100), []);
  });

  it('extends a flat list with appended rows that pass the filter, keeping what was there', () => {
    const index = indexOf(30);
    const filter = { types: ['TOOL_BLOCKED'] };
    const before = buildDisplay(index, { filter, groupByTrace: false, newestFirst: false });
    for (let seq = 31; seq <= 60; seq++)
      index.add(syntheticRecord(seq), { segment: 2, offset: seq });
    const after = appendToFlat(index, before, filter, 30);
    assert.deepEqual(
      [...after.items].map((i) => index.seq(i)),
      [15, 30, 45, 60],
    );
    assert.equal(commonPrefix(before.items, after.items), 2);
    assert.deepEqual(
      after.items,
      buildDisplay(index, { filter, groupByTrace: false, newestFirst: false }).items,
    );
    assert.equal(appendToFlat(index, after, filter, 60), after, 'nothing new: the same list');
  });

  it('turns the panel filter into the kernel filter used for export', () => {
    assert.deepEqual(toAuditFilter({}), {});
    assert.deepEqual(
      toAuditFilter({
        types: ['TOOL_EXECUTED'],
        serverId: 'example',
        toolName: 'delete_notes',
        result: 'success',
        traceId: ' t-1 ',
        since: '2026-01-01T00:00:00.000Z',
        until: '2026-01-02T00:00:00.000Z',
      }),
      {
        types: ['TOOL_EXECUTED'],
        serverId: 'example',
        toolName: 'delete_notes',
        result: 'success',
        traceId: 't-1',
        since: '2026-01-01T00:00:00.000Z',
        until: '2026-01-02T00:00:00.000Z',
      },
    );
    assert.deepEqual(toAuditFilter({ types: [], serverId: '' }), {});
  });
});
