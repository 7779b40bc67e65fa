import { strict as assert } from 'node:assert';
import {
  createToolIndex,
  keywordSearch,
  normalizeQuery,
  PLAIN_SEARCH,
  type ToolIndex,
} from '../../../client/src/kernel/discovery';
import { TOOL_EXAMPLES } from '../../../client/src/kernel/discovery/toolExamplesData';
import { matchExamples } from '../../../client/src/kernel/discovery/toolExamples';
import { corpus, corpusIndex, heldOutSets, heldOutStudied, queries, tool } from './fixtures';

const rankOf = (index: ToolIndex, query: string, id: string, examples = true) =>
  keywordSearch(index, query, {}, { limit: 10, examples }).results.findIndex(
    (r) => r.entry.tool_id === id,
  );

describe('discovery: example requests of well-known tools', () => {
  it('hold exactly the requests of the studied sets, none of a set never studied, as the query rewriting leaves them today', () => {
    const studiedFlags = heldOutStudied();
    const studied = [
      ...queries(),
      ...[...heldOutSets()]
        .filter(([name]) => studiedFlags.get(name) === true)
        .flatMap(([, set]) => set),
    ];
    assert.ok([...studiedFlags.values()].includes(false), 'some sets are not studied');
    const expected = new Map<string, string[]>();
    for (const q of studied)
      for (const id of q.expected)
        expected.set(id, [...(expected.get(id) ?? []), normalizeQuery(q.query)].sort());
    const held = new Map(
      TOOL_EXAMPLES.map((r) => [`${r.server}.${r.name}`, r.examples.split('\n').sort()]),
    );
    const differing = [...new Set([...expected.keys(), ...held.keys()])].filter(
      (id) => JSON.stringify(expected.get(id)) !== JSON.stringify(held.get(id)),
    );
    assert.deepEqual(differing, [], 'run node bench/discovery/build-examples.mjs');
  });

  it('rank a tool by requests worded like earlier ones for it, where its own description has other words', () => {
    const index = corpusIndex();
    const found: Array<[string, string]> = [
      [
        "the bakery's order site keeps failing silently, see if it logs any errors",
        'playwright.browser_console_messages',
      ],
      [
        'put Jane Doe, jane@example.org and 020 7946 0000 into the name, email and phone boxes at once',
        'playwright.browser_fill_form',
      ],
    ];
    for (const [query, id] of found) {
      assert.equal(
        rankOf(index, query, id, false),
        -1,
        `without examples ${id} is not in the top 10 for "${query}"`,
      );
      const at = rankOf(index, query, id);
      assert.ok(at >= 0 && at < 3, `with them ${id} is in the top 3 for "${query}" (at ${at})`);
    }
  });

  it("go to the same tool under any server id, and not to another server's tool of the same name", () => {
    const github = corpus().find((s) => s.id === 'github')!;
    const index = createToolIndex();
    index.upsertServer('gh-work', github.tools);
    index.upsertServer('tracker', [
      tool(
        'create_issue',
        'File a ticket in the Acme tracker backlog with a priority and an assignee.',
      ),
    ]);
    const { exampleOf } = matchExamples(index);
    assert.equal(exampleOf.get(index.get('gh-work.create_issue')!), 'github.create_issue');
    assert.equal(
      exampleOf.get(index.get('gh-work.add_issue_comment')!),
      'github.add_issue_comment',
    );
    assert.equal(exampleOf.has(index.get('tracker.create_issue')!), false);
    // Relisted with another description, a tool no longer takes them.
    index.upsertServer(
      'gh-work',
      github.tools.map((t) =>
        t.name === 'add_issue_comment'
          ? { ...t, description: 'Post a reaction emoji to a discussion.' }
          : t,
      ),
    );
    assert.equal(
      matchExamples(index).exampleOf.has(index.get('gh-work.add_issue_comment')!),
      false,
    );
  });

  it('do not push down a tool that has none: it ranks where its own words put it against the tools that have them', () => {
    const index = corpusIndex();
    index.upsertServer('acme-tracker', [
      tool(
        'file_ticket',
        'Create a new issue in the Acme tracker backlog, with a title, a body and labels.',
      ),
    ]);
    const query = 'open a ticket in the Acme tracker: login page times out';
    assert.equal(rankOf(index, query, 'acme-tracker.file_ticket', false), 0);
    assert.equal(rankOf(index, query, 'acme-tracker.file_ticket'), 0);
  });

  it('are left out by the plain baseline and on request, and count in `matched`', () => {
    const index = corpusIndex();
    const query = "the bakery's order site keeps failing silently, see if it logs any errors";
    assert.equal(rankOf(index, query, 'playwright.browser_console_messages', false), -1);
    assert.equal(
      keywordSearch(index, query, {}, { ...PLAIN_SEARCH, limit: 10 }).results.some(
        (r) => r.entry.tool_id === 'playwright.browser_console_messages',
      ),
      false,
    );
    const full = keywordSearch(index, query);
    assert.equal(full.matched, full.results.length);
  });
});
