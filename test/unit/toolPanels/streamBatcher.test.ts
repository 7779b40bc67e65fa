import { strict as assert } from 'node:assert';
import type { StreamUpdate, StreamView } from '@shared/streamMessages';
import { StreamBatcher, type BatcherClock } from '../../../client/src/vscode/common/streamBatcher';

/** A clock whose timers run only when the test advances time. */
class FakeClock implements BatcherClock {
  time = 0;
  private timers: { at: number; callback: () => void; id: number }[] = [];
  private next = 1;

  now(): number {
    return this.time;
  }

  setTimer(callback: () => void, ms: number): unknown {
    const id = this.next++;
    this.timers.push({ at: this.time + ms, callback, id });
    return id;
  }

  clearTimer(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  get pending(): number {
    return this.timers.length;
  }

  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.callback();
    }
    this.time = until;
  }
}

const view = (id: string, state: StreamView['state'] = 'running'): StreamView => ({
  id,
  serverId: 's',
  toolName: 't',
  traceId: 'tr',
  state,
  startedAt: 0,
  chunks: 0,
  text: '',
  textLength: 0,
});

function setup(intervalMs = 16) {
  const clock = new FakeClock();
  const batches: StreamUpdate[][] = [];
  const batcher = new StreamBatcher((updates) => batches.push(updates), { intervalMs, clock });
  return { clock, batches, batcher };
}

describe('stream batching for the webviews', () => {
  it('merges a burst of chunks into one text update per stream, sent on the next turn', () => {
    const { clock, batches, batcher } = setup();
    for (let i = 1; i <= 1000; i += 1) batcher.text('a', `w${i} `, i);
    assert.equal(batches.length, 0, 'nothing is sent synchronously');
    clock.advance(0);
    assert.equal(batches.length, 1);
    assert.equal(batches[0].length, 1);
    const update = batches[0][0] as StreamUpdate & { kind: 'text' };
    assert.equal(update.chunks, 1000);
    assert.ok(update.appended.startsWith('w1 w2 ') && update.appended.endsWith('w1000 '));
    assert.deepEqual(batcher.stats, { batches: 1, events: 1000 });
  });

  it('sends at most once per interval while chunks keep coming', () => {
    const { clock, batches, batcher } = setup(16);
    // 10,000 chunks a second for one second, a chunk every 0.1 ms.
    for (let i = 1; i <= 10_000; i += 1) {
      batcher.text('a', 'x', i);
      clock.advance(0.1);
    }
    clock.advance(100);
    assert.ok(
      batches.length >= 60 && batches.length <= 64,
      `${batches.length} batches in a second`,
    );
    const total = batches
      .flat()
      .reduce((n, u) => n + (u.kind === 'text' ? u.appended.length : 0), 0);
    assert.equal(total, 10_000, 'no text is lost or repeated');
    const last = batches[batches.length - 1][0] as StreamUpdate & { kind: 'text' };
    assert.equal(last.chunks, 10_000);
  });

  it('keeps only the latest progress per stream and the order of streams', () => {
    const { clock, batches, batcher } = setup();
    batcher.text('a', 'x', 1);
    batcher.setProgress('b', { fraction: 0.1 });
    batcher.text('b', 'y', 1);
    batcher.setProgress('b', { fraction: 0.5, estimatedRemainingMs: 900 });
    batcher.text('a', 'z', 2);
    clock.advance(0);
    assert.deepEqual(batches[0], [
      { kind: 'text', id: 'a', appended: 'xz', chunks: 2 },
      { kind: 'progress', id: 'b', progress: { fraction: 0.5, estimatedRemainingMs: 900 } },
      { kind: 'text', id: 'b', appended: 'y', chunks: 1 },
    ]);
  });

  it('sends a start and an end at once, after what came before them', () => {
    const { clock, batches, batcher } = setup();
    batcher.started(view('a'));
    assert.equal(batches.length, 1, 'a new stream shows at once');
    batcher.text('a', 'last words', 7);
    batcher.ended(view('a', 'done'));
    assert.equal(batches.length, 2);
    assert.deepEqual(
      batches[1].map((u) => u.kind),
      ['text', 'ended'],
    );
    assert.equal(clock.pending, 0, 'no timer is left behind');
  });

  it('flushes on demand (before a result) and discards what the receiver will get whole', () => {
    const { clock, batches, batcher } = setup();
    batcher.text('a', 'x', 1);
    batcher.flush();
    assert.equal(batches.length, 1);
    batcher.text('a', 'y', 2);
    batcher.discard();
    clock.advance(100);
    assert.equal(batches.length, 1);
    batcher.text('a', 'z', 3);
    batcher.dispose();
    clock.advance(100);
    assert.equal(batches.length, 1);
  });
});
