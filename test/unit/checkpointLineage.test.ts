import { strict as assert } from 'node:assert';
import type { CheckpointNode } from '../../client/src/kernel/mcpl';
import { historyLines } from '../../client/src/vscode/checkpoints/checkpointLineage';

function node(id: string, parent: string | null): CheckpointNode {
  return { id, parent, createdAt: '2026-11-28T12:00:00.000Z', hasData: true };
}

const ids = (lines: CheckpointNode[][]) => lines.map((line) => line.map((c) => c.id));

describe('checkpoint lineage for the Checkpoints view (MCPL §8.2)', () => {
  it('a straight history is one line, oldest first, also after a rollback to its start', () => {
    const chain = [node('c0', null), node('c1', 'c0'), node('c2', 'c1')];
    assert.deepEqual(ids(historyLines(chain, 'c2')), [['c0', 'c1', 'c2']]);
    // Rolled back to c0: c1 and c2 stay on the line, where a roll forward reaches them.
    assert.deepEqual(ids(historyLines(chain, 'c0')), [['c0', 'c1', 'c2']]);
  });

  it('a change after a rollback forks: the line through the current checkpoint comes first', () => {
    const tree = [node('c0', null), node('c1', 'c0'), node('c2', 'c1'), node('c3', 'c0')];
    assert.deepEqual(ids(historyLines(tree, 'c3')), [
      ['c0', 'c3'],
      ['c1', 'c2'],
    ]);
    assert.deepEqual(ids(historyLines(tree, 'c2')), [['c0', 'c1', 'c2'], ['c3']]);
  });

  it('with no current checkpoint the newest leads; a pruned parent makes a root', () => {
    const tree = [node('c0', null), node('c1', 'c0'), node('c2', 'c0'), node('c5', 'gone')];
    assert.deepEqual(ids(historyLines(tree, undefined)), [['c5'], ['c0', 'c2'], ['c1']]);
    assert.deepEqual(ids(historyLines(tree, 'c1')), [['c0', 'c1'], ['c2'], ['c5']]);
  });

  it('checkpoints in a parent loop the server sent show once each, and the walk ends', () => {
    const loop = [node('a', 'b'), node('b', 'a')];
    assert.deepEqual(ids(historyLines(loop, 'a')), [['a', 'b']]);
  });
});
