import { strict as assert } from 'node:assert';
import {
  createDiscoveryTools,
  createToolIndex,
  SessionToolCache,
} from '../../../client/src/kernel/discovery';
import {
  categoryViews,
  kernelToolSlack,
  withoutKernelTools,
} from '../../../client/src/vscode/discovery/discoveryViews';
import { tool } from '../discovery/fixtures';

describe('Tool Discovery for people: no kernel tools', () => {
  const index = createToolIndex();
  index.upsertServer(
    'notes',
    [
      tool('list_notes', 'List the notes in the session'),
      tool('evict_note', 'Remove a note from the cache'),
    ],
    'connected',
  );
  const tools = createDiscoveryTools({ index, cache: new SessionToolCache() });
  const query = 'remove tools from the session cache';

  it("an agent's search finds mgp.tools.session*; a person's gets the server tools only, as many as asked", async () => {
    const agents = await tools.discover({ query, max_results: 2 });
    assert.ok(
      agents.tools.some((t) => t.server_id === 'mgp'),
      `the agent's answer has kernel tools: ${agents.tools.map((t) => t.tool_id).join(', ')}`,
    );
    const slack = kernelToolSlack(index.list());
    assert.equal(slack, 2, 'mgp.tools.session and mgp.tools.session.evict');
    const person = withoutKernelTools(await tools.discover({ query, max_results: 2 + slack }), 2);
    assert.deepEqual(person.tools.map((t) => t.tool_id).sort(), [
      'notes.evict_note',
      'notes.list_notes',
    ]);
    assert.equal(person.total_available, 2);
  });

  it('a person cannot filter by the kernel category', () => {
    const names = categoryViews().map((c) => c.name);
    assert.ok(!names.includes('kernel'));
    assert.ok(names.length > 5);
  });
});
