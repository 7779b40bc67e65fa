import { strict as assert } from 'node:assert';
import type { HistoryEntryView } from '@shared/toolPanelMessages';
import {
  HISTORY_KEY,
  RunHistory,
  type HistoryStorage,
} from '../../../client/src/vscode/runTool/runHistory';

/** A Memento as VS Code keeps one: values go through JSON, as they do on disk. */
class JsonStorage implements HistoryStorage {
  text = new Map<string, string>();
  get<T>(key: string): T | undefined {
    const text = this.text.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }
  update(key: string, value: unknown): Promise<void> {
    this.text.set(key, JSON.stringify(value));
    return Promise.resolve();
  }
}

const add = { serverId: 'example', toolName: 'add' };
const echo = { serverId: 'everything', toolName: 'echo' };

function entry(n: number, extra: Partial<HistoryEntryView> = {}): HistoryEntryView {
  return {
    id: `run-${n}`,
    at: 1_700_000_000_000 + n,
    args: { a: n, b: 1 },
    stream: false,
    result: {
      items: [{ kind: 'text', text: String(n + 1) }],
      isError: false,
      durationMs: 3,
      traceId: `trace-${n}`,
    },
    traceId: `trace-${n}`,
    ...extra,
  };
}

describe('Run Tool history', () => {
  it('keeps each tool its own runs, newest first, and a new store on the same storage reads them back', async () => {
    const storage = new JsonStorage();
    const history = new RunHistory(storage);
    await history.add(add, entry(1));
    await history.add(add, entry(2));
    await history.add(echo, entry(3, { args: { message: 'hi' } }));
    const again = new RunHistory(storage); // a window reload: only the storage is left
    assert.deepEqual(
      again.list(add).map((e) => e.id),
      ['run-2', 'run-1'],
    );
    assert.deepEqual(again.list(echo)[0].args, { message: 'hi' });
    assert.deepEqual(again.list({ serverId: 'example', toolName: 'none' }), []);
  });

  it('keeps at most the last runs of a tool, and forgets the tools run longest ago', async () => {
    const storage = new JsonStorage();
    const history = new RunHistory(storage, { runsPerTool: 3, tools: 2, textChars: 1000 });
    for (let n = 1; n <= 5; n++) await history.add(add, entry(n));
    assert.deepEqual(
      history.list(add).map((e) => e.id),
      ['run-5', 'run-4', 'run-3'],
    );
    await history.add(echo, entry(6));
    await history.add(add, entry(7)); // add was run last: echo is now the oldest
    await history.add({ serverId: 'example', toolName: 'write_note' }, entry(8));
    assert.equal(history.list(echo).length, 0, 'the tool run longest ago was forgotten');
    assert.equal(history.list(add).length, 3);
    assert.equal(Object.keys(storage.get<object>(HISTORY_KEY) ?? {}).length, 2);
  });

  it('bounds what one run keeps: long texts cut, images without their bytes, huge arguments not kept', async () => {
    const history = new RunHistory(new JsonStorage(), {
      runsPerTool: 20,
      tools: 10,
      textChars: 100,
    });
    const [kept] = await history.add(
      add,
      entry(1, {
        args: { text: 'x'.repeat(500) },
        result: {
          items: [
            { kind: 'text', text: 'y'.repeat(500) },
            { kind: 'image', mimeType: 'image/png', bytes: 68, data: 'iVBORw0KGgo=' },
          ],
          structured: 'z'.repeat(500),
          isError: false,
          durationMs: 1,
          traceId: 't',
        },
        exchange: { request: 'r'.repeat(500), response: 's'.repeat(500) },
      }),
    );
    const [text, image] = kept.result?.items ?? [];
    assert.ok(text.kind === 'text' && text.text.startsWith('y'.repeat(100)));
    assert.ok(text.kind === 'text' && text.text.length < 200, 'the text was cut');
    assert.deepEqual(image, { kind: 'image', mimeType: 'image/png', bytes: 68 });
    assert.ok((kept.result?.structured ?? '').length < 200);
    assert.ok((kept.exchange?.request ?? '').length < 200);
    assert.ok((kept.exchange?.response ?? '').length < 200);
    assert.deepEqual(Object.keys(kept.args), ['(not kept)']);
  });

  it('clears one tool and leaves the others', async () => {
    const history = new RunHistory(new JsonStorage());
    await history.add(add, entry(1));
    await history.add(echo, entry(2));
    await history.clear(add);
    assert.equal(history.list(add).length, 0);
    assert.equal(history.list(echo).length, 1);
  });

  it('reads nothing from storage that holds something else', () => {
    const storage = new JsonStorage();
    void storage.update(HISTORY_KEY, ['not', 'a', 'map']);
    assert.deepEqual(new RunHistory(storage).list(add), []);
  });
});
