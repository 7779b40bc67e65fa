import { strict as assert } from 'node:assert';
import { Task } from '@a2a-js/sdk';
import { BoundedTaskStore } from '../../client/src/kernel/gateway/a2a/taskStore';

function task(id: string, state: string): Task {
  return Task.fromJSON({
    id,
    contextId: 'c',
    status: { state, timestamp: new Date().toISOString() },
  });
}

describe('the A2A server task store (OpenFang, A2aTaskStore)', () => {
  it('evicts the oldest finished task first, never a running one; an evicted task is unknown', async () => {
    const store = new BoundedTaskStore(3);
    await store.save(task('running', 'TASK_STATE_WORKING'));
    await store.save(task('done-1', 'TASK_STATE_COMPLETED'));
    await store.save(task('done-2', 'TASK_STATE_FAILED'));
    await store.save(task('new', 'TASK_STATE_SUBMITTED'));
    assert.equal(store.size, 3);
    assert.equal(await store.load('done-1'), undefined);
    assert.ok(await store.load('running'));
    assert.ok(await store.load('done-2'));
    assert.equal(store.historyOf('done-1'), undefined);
  });

  it('keeps going over the limit rather than drop a task that still runs', async () => {
    const store = new BoundedTaskStore(2);
    for (const id of ['a', 'b', 'c']) await store.save(task(id, 'TASK_STATE_WORKING'));
    assert.equal(store.size, 3);
    await store.save(task('a', 'TASK_STATE_CANCELED'));
    await store.save(task('d', 'TASK_STATE_WORKING'));
    assert.equal(await store.load('a'), undefined, 'the finished one went');
  });

  it('records each state a task passes through, once', async () => {
    const store = new BoundedTaskStore();
    for (const state of [
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_WORKING',
      'TASK_STATE_WORKING',
      'TASK_STATE_COMPLETED',
    ])
      await store.save(task('t', state));
    assert.deepEqual(
      store.historyOf('t')?.map((change) => change.state),
      [1, 2, 3],
    );
  });

  it('a copy goes in and out: changing a loaded task does not change the store', async () => {
    const store = new BoundedTaskStore();
    await store.save(task('t', 'TASK_STATE_WORKING'));
    const loaded = await store.load('t');
    loaded!.id = 'changed';
    assert.equal((await store.load('t'))?.id, 't');
  });
});
