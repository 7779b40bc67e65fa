// Issue 24 (19): the tool `cleanup.temp` of server `files` and the tool `temp` of server
// `files.cleanup` both made the id `files.cleanup.temp`, and one hid the other in discovery.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  createToolIndex,
  keywordSearch,
  SessionToolCache,
  toEntry,
} from '../../../client/src/kernel/discovery';
import { parseToolId, toolIdOf } from '../../../client/src/kernel/domain/toolId';
import { tool } from './fixtures';

const colliding = () => {
  const index = createToolIndex();
  index.upsertServer('files', [tool('cleanup.temp', 'Deletes the temporary files of a folder')]);
  index.upsertServer('files.cleanup', [tool('temp', 'Lists the temporary files to clean up')]);
  return index;
};

describe('discovery: tool ids name a (server, tool) pair', () => {
  it('keeps both tools whose server and tool names join to the same dotted string', () => {
    const index = colliding();
    const ours = index.list().filter((entry) => !entry.kernel);
    assert.deepEqual(
      ours.map((entry) => [entry.server_id, entry.name, entry.tool_id]),
      [
        ['files', 'cleanup.temp', 'files.cleanup%2Etemp'],
        ['files.cleanup', 'temp', 'files.cleanup.temp'],
      ],
    );
    assert.equal(index.get(toolIdOf('files', 'cleanup.temp'))?.server_id, 'files');
    assert.equal(index.get(toolIdOf('files.cleanup', 'temp'))?.server_id, 'files.cleanup');
    const found = keywordSearch(index, 'temporary files').results.map((r) => r.entry.server_id);
    assert.deepEqual([...found].sort(), ['files', 'files.cleanup']);
  });

  it('relisting one server leaves the other server’s tool alone', () => {
    const index = colliding();
    index.upsertServer('files.cleanup', [tool('temp', 'Lists the temporary files, now sorted')]);
    index.removeServer('files.cleanup');
    assert.equal(index.get('files.cleanup%2Etemp')?.server_id, 'files');
    assert.equal(index.get('files.cleanup.temp'), undefined);
  });

  it('writes ids as server.tool, escaping a dot or percent sign in the tool name', () => {
    assert.equal(toolIdOf('example', 'add'), 'example.add');
    assert.equal(toolIdOf('mind.cerebras', 'think'), 'mind.cerebras.think');
    assert.equal(toolIdOf('files', 'cleanup.temp'), 'files.cleanup%2Etemp');
    assert.equal(toolIdOf('files.cleanup', 'temp'), 'files.cleanup.temp');
    assert.equal(toolIdOf('100%', '5%'), '100%25.5%25');
    assert.equal(toolIdOf('mgp', 'mgp.tools.discover'), 'mgp.tools.discover');
    assert.equal(toolIdOf('mgp.tools', 'discover'), 'mgp%2Etools.discover', 'never a kernel tool');
    assert.deepEqual(parseToolId('mgp.tools.discover'), {
      serverId: 'mgp',
      toolName: 'mgp.tools.discover',
    });
    assert.deepEqual(parseToolId('mind.cerebras.think'), {
      serverId: 'mind.cerebras',
      toolName: 'think',
    });
    for (const notAnId of ['add', '.add', 'files.', 'files.50%off'])
      assert.equal(parseToolId(notAnId), undefined, notAnId);
  });

  it('reads back every pair it writes, and never writes one id for two pairs', () => {
    const part = fc.string({
      unit: fc.constantFrom('m', 'g', 'p', '.', '%', '2', 'E', 'e', '5'),
      minLength: 1,
    });
    const pair = fc
      .record({ serverId: part, toolName: part })
      .filter(({ serverId }) => serverId !== 'mgp');
    fc.assert(
      fc.property(pair, pair, (a, b) => {
        assert.deepEqual(parseToolId(toolIdOf(a.serverId, a.toolName)), {
          serverId: a.serverId,
          toolName: a.toolName,
        });
        if (a.serverId !== b.serverId || a.toolName !== b.toolName)
          assert.notEqual(toolIdOf(a.serverId, a.toolName), toolIdOf(b.serverId, b.toolName));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('discovery: the session cache reads a tool id as an id first', () => {
  it('evicts the cached tool files.cleanup.temp though a pinned tool is named so', () => {
    const cache = new SessionToolCache({
      budget: { max_tokens: 10000, pinned_reserve: 0, discovery_reserve: 0, cache_limit: 5000 },
    });
    cache.pin(toEntry('x', tool('files.cleanup.temp', 'A pinned tool'), 'connected'));
    cache.use(toEntry('files.cleanup', tool('temp', 'A cached tool'), 'connected'));
    assert.deepEqual(cache.evict(['files.cleanup.temp']), {
      evicted: ['files.cleanup.temp'],
      refused: [],
    });
    assert.deepEqual(cache.evict(['files.cleanup.temp']).refused, [
      { tool: 'files.cleanup.temp', reason: 'pinned' },
    ]);
  });
});
