import { strict as assert } from 'node:assert';
import {
  type EventRow,
  keepRows,
  KEPT_ACROSS_RELOADS,
  restoredRows,
  type RowStore,
} from '../../../client/src/vscode/events/recentEvents';

/** A workspace state as VS Code keeps it: JSON in, JSON out. */
function memento(): RowStore & { raw: Map<string, string> } {
  const raw = new Map<string, string>();
  return {
    raw,
    get: <T>(key: string) => (raw.has(key) ? (JSON.parse(raw.get(key)!) as T) : undefined),
    update: async (key, value) => void raw.set(key, JSON.stringify(value)),
  };
}

const mgpRow = (n: number, data: unknown = { n }): EventRow => ({
  kind: 'mgp',
  event: {
    server_id: 'example',
    channel: `build.${n}`,
    severity: 'info',
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    data,
  } as never,
});

describe('Events kept across reloads', () => {
  it('gives the next window the newest rows, in order', async () => {
    const store = memento();
    const rows = Array.from({ length: KEPT_ACROSS_RELOADS + 50 }, (_, i) => mgpRow(i));
    await keepRows(store, rows);
    const restored = restoredRows(store);
    assert.equal(restored.length, KEPT_ACROSS_RELOADS);
    assert.deepEqual(restored[0], rows[0]);
    assert.deepEqual(restored.at(-1), rows[KEPT_ACROSS_RELOADS - 1]);
  });

  it('leaves out a row too large to keep, and drops rows of another shape', async () => {
    const store = memento();
    await keepRows(store, [mgpRow(1), mgpRow(2, 'x'.repeat(100_000)), mgpRow(3)]);
    assert.deepEqual(
      restoredRows(store).map((row) => (row.kind === 'mgp' ? row.event.channel : '')),
      ['build.1', 'build.3'],
    );
    store.raw.set(
      'mgp.events.recent',
      JSON.stringify([
        { kind: 'mgp', event: { server_id: 'x', channel: 'c', severity: 'loud' } },
        { kind: 'push', event: { serverId: 'x' } },
        'not a row',
        mgpRow(4),
      ]),
    );
    assert.equal(restoredRows(store).length, 1);
  });

  it('starts empty with nothing kept, and after Clear', async () => {
    const store = memento();
    assert.deepEqual(restoredRows(store), []);
    await keepRows(store, [mgpRow(1)]);
    await keepRows(store, []);
    assert.deepEqual(restoredRows(store), []);
  });
});
