import { strict as assert } from 'node:assert';
import {
  categorySearch,
  effectiveRisk,
  keywordSearch,
  NO_MATCH_BELOW,
  planQuery,
  semanticSearch,
  ToolIndex,
  type SemanticRanker,
  type ToolIndexEntry,
} from '../../../client/src/kernel/discovery';
import { normalizeQuery } from '../../../client/src/kernel/search';
import { corpusIndex, tool } from './fixtures';

const top = (index: ToolIndex, query: string, n = 5, filter = {}) =>
  keywordSearch(index, query, filter)
    .results.slice(0, n)
    .map((r) => r.entry.tool_id);

describe('discovery: search strategies and filters', () => {
  const index = corpusIndex();

  it('keyword: finds a tool by its exact name and by words from its description', () => {
    assert.equal(top(index, 'read_text_file')[0], 'filesystem.read_text_file');
    assert.equal(top(index, 'maps_reverse_geocode')[0], 'google-maps.maps_reverse_geocode');
    assert.equal(keywordSearch(index, 'read_file').results[0].relevance, 1);
    assert.ok(
      top(index, 'convert coordinates into an address').includes(
        'google-maps.maps_reverse_geocode',
      ),
    );
  });

  it('keyword: relevance scores are in 0..1 and ordered', () => {
    const results = keywordSearch(index, 'create a pull request').results;
    assert.ok(results.length > 1);
    for (const r of results)
      assert.ok(r.relevance >= 0 && r.relevance <= 1, `${r.entry.tool_id} ${r.relevance}`);
    for (let i = 1; i < results.length; i++) assert.ok(results[i - 1].score >= results[i].score);
    assert.equal(results[0].entry.tool_id, 'github.create_pull_request');
  });

  it('keyword: relevance is one scale for every query; a request no server serves is under the bar', () => {
    // No travel or food server in the corpus: something still ranks first, and says it does not fit.
    for (const query of ['book a flight to Rome', 'order a pizza for tonight']) {
      const best = keywordSearch(index, query).results[0];
      assert.ok(
        best.relevance < NO_MATCH_BELOW,
        `${query}: ${best.entry.tool_id} ${best.relevance}`,
      );
    }
    for (const query of ['create a pull request', 'search the web for news']) {
      const best = keywordSearch(index, query).results[0];
      assert.ok(best.relevance > 0.5, `${query}: ${best.entry.tool_id} ${best.relevance}`);
    }
  });

  it('keyword: stems inflections and expands domain synonyms', () => {
    assert.ok(top(index, 'deleting entities').includes('memory.delete_entities'));
    assert.ok(
      top(index, 'make a folder').includes('filesystem.create_directory'),
      'folder → directory, make → create',
    );
    assert.ok(
      top(index, 'create a PR').includes('github.create_pull_request'),
      'PR → pull request',
    );
  });

  it('keyword: tolerates typos by a bounded edit distance on the vocabulary', () => {
    assert.ok(top(index, 'serch github repositorys', 2).includes('github.search_repositories'));
    assert.ok(top(index, 'take a screenshott').includes('playwright.browser_take_screenshot'));
    assert.ok(top(index, 'geocde an adress').includes('google-maps.maps_geocode'));
    assert.ok(top(index, 'delet memroy entity').includes('memory.delete_entities'));
    const plain = keywordSearch(index, 'screenshott', {}, { fuzzy: false }).results;
    assert.ok(
      !plain.some((r) => r.entry.tool_id === 'playwright.browser_take_screenshot'),
      'without typo tolerance the misspelling misses',
    );
  });

  it('keyword: a pasted URL, file name, glob, address or channel stands for its kind', () => {
    const words = (q: string) => normalizeQuery(q).trim().split(/\s+/);
    assert.deepEqual(words('open https://example.com/a?b=1 in the browser'), [
      'open',
      'url',
      'in',
      'the',
      'browser',
    ]);
    assert.deepEqual(
      words('show config.yaml and src/main.go'),
      ['show', 'file', 'and', 'file'],
      'each file name stands for a file',
    );
    assert.deepEqual(
      words('what is in https://github.com/acme/api/issues/88'),
      ['what', 'is', 'in', 'url', 'github', 'issue'],
      'a URL keeps its site and what its path says the page is',
    );
    assert.deepEqual(
      words("send 'deploy done, all green' to the team"),
      ['send', 'text', 'to', 'the', 'team'],
      'quoted text is a value',
    );
    assert.equal(
      normalizeQuery("what's in it? it's fine"),
      "what's in it? it's fine",
      'an apostrophe quotes nothing',
    );
    assert.deepEqual(words('mkdir -p tmp/cache/images, then ls /var/log'), [
      'mkdir',
      '-p',
      'directory',
      'path',
      ',',
      'then',
      'ls',
      'directory',
      'path',
    ]);
    assert.deepEqual(words('grep the code for createSlice'), [
      'grep',
      'the',
      'code',
      'for',
      'code',
      'symbol',
    ]);
    assert.deepEqual(words('what did the page print with console.log'), [
      'what',
      'did',
      'the',
      'page',
      'print',
      'with',
      'console',
      'messages',
    ]);
    assert.deepEqual(
      words("run SELECT count(*) FROM orders WHERE status='failed'"),
      ['run', 'sql', 'query'],
      'an SQL statement, by its capitals',
    );
    assert.equal(
      normalizeQuery('select the option from the list'),
      'select the option from the list',
      'lower-case words are a request, not SQL',
    );
    assert.deepEqual(
      words('profile of U024BE7LH and paper PMC123456'),
      ['profile', 'of', 'id', 'and', 'paper', 'paper', 'id'],
      'a PubMed Central id is a paper',
    );
    assert.deepEqual(words('watch competitor.com and docs.python.org'), [
      'watch',
      'website',
      'and',
      'website',
    ]);
    assert.deepEqual(words("answer the prompt() and then window.confirm('Sure?')"), [
      'answer',
      'the',
      'dialog',
      'and',
      'then',
      'dialog',
    ]);
    assert.deepEqual(words('what is 17 + 26'), ['what', 'is', 'sum', 'numbers']);
    assert.deepEqual(words('shift old-logs/ under archive/2025/'), [
      'shift',
      'directory',
      'path',
      'under',
      'directory',
      'path',
    ]);
  });

  it('keyword: a word of the language is not taken for a typo, and `news` is not `new`', () => {
    const plan = planQuery(index, 'news about the election').map((t) => t.term);
    assert.ok(plan.includes('news') && !plan.includes('new'), plan.join(' '));
    const select = planQuery(index, 'news about the election').find((t) => t.term === 'select');
    assert.ok(
      !select || select.weight < 0.5,
      'no typo correction to `select`; at most a far thesaurus sense',
    );
    assert.ok(top(index, 'news about the election', 4).includes('brave-search.brave_web_search'));
  });

  // What that costs is bench/long-query.mjs's to measure.
  it('keyword: reads the first 1,000 characters of a query, so that a document-sized one stays quick', () => {
    for (const long of ['a.'.repeat(10_000), 'aB'.repeat(10_000), 'put '.repeat(5_000)]) {
      const text = normalizeQuery(long);
      assert.ok(text.length <= 1_100, `${text.length} characters kept`);
      const ids = (query: string) =>
        keywordSearch(index, query).results.map((r) => r.entry.tool_id);
      assert.deepEqual(ids(long), ids(text), 'the search reads only what is kept');
    }
    assert.ok(
      !normalizeQuery(`${'x '.repeat(600)}mkdir -p a/b/c`).includes('directory path'),
      'what lies past the limit is not read',
    );
  });

  it('keyword: a query word and its synonyms count once, as their best match', () => {
    const plan = planQuery(index, 'make a folder');
    const group = (term: string) => plan.find((t) => t.term === term)?.group;
    assert.equal(
      group('directori'),
      group('folder'),
      'folder → directory joins the group of folder',
    );
    assert.equal(group('creat'), group('make'));
    assert.notEqual(group('make'), group('folder'));
    const many = new ToolIndex();
    many.upsertServer('s', [
      tool('wordy', 'Erase, remove, delete, destroy or purge things'),
      tool('exact', 'Remove a branch'),
    ]);
    assert.equal(
      top(many, 'remove branch')[0],
      's.exact',
      'synonyms of one word do not outweigh a second word',
    );
  });

  it('keyword: the tools of a server the query names come first', () => {
    assert.equal(top(index, 'create an issue on gitlab')[0], 'gitlab.create_issue');
    assert.equal(top(index, 'create an issue on github')[0], 'github.create_issue');
    assert.equal(top(index, 'list the members of the notion workspace')[0], 'notion.API-get-users');
  });

  it('category: lists the tools of the categories the query names, with parents covering children', () => {
    const browser = categorySearch(index, 'browser tools');
    assert.equal(browser.strategy, 'category');
    assert.equal(browser.fallback, undefined);
    assert.ok(browser.results.length >= 25);
    assert.ok(browser.results.every((r) => r.entry.categories.includes('browser')));
    const network = categorySearch(index, 'anything', { categories: ['network'] });
    assert.ok(
      network.results.some((r) => r.entry.server_id === 'playwright'),
      'network covers web and browser',
    );
    const gitDelete = categorySearch(index, 'git', { categories: ['write'] });
    assert.ok(
      gitDelete.results.every(
        (r) => r.entry.categories.includes('git') && r.entry.categories.includes('write'),
      ),
    );
    assert.ok(gitDelete.results.some((r) => r.entry.tool_id === 'github.merge_pull_request'));
  });

  it('category: a query naming no category answers with the keyword ranking and says so', () => {
    const outcome = categorySearch(index, 'zebra quux');
    assert.equal(outcome.fallback, 'keyword');
  });

  it('semantic: relevance falls as the fused order does, within 0..1', async () => {
    // Similarities that disagree with the keywords, so the fused order differs from both.
    const ranker: SemanticRanker = {
      name: 'scrambled',
      available: () => true,
      rank: async (_query, candidates) =>
        Float32Array.from(candidates, (_c, i) => ((i * 7919) % 101) / 101),
    };
    const results = (
      await semanticSearch(index, 'create a pull request', {}, { semantic: ranker, limit: 20 })
    ).results;
    assert.ok(results.length > 5);
    for (let i = 1; i < results.length; i++)
      assert.ok(
        results[i - 1].relevance >= results[i].relevance,
        `${results[i - 1].entry.tool_id} ${results[i - 1].relevance} before ${results[i].entry.tool_id} ${results[i].relevance}`,
      );
    for (const r of results) assert.ok(r.relevance >= 0 && r.relevance <= 1);
  });

  it('semantic: without a ranker answers with keyword results and fallback_strategy keyword', async () => {
    const outcome = await semanticSearch(index, 'list the files in a folder');
    assert.equal(outcome.strategy, 'semantic');
    assert.equal(outcome.fallback, 'keyword');
    assert.deepEqual(
      outcome.results.map((r) => r.entry.tool_id),
      keywordSearch(index, 'list the files in a folder').results.map((r) => r.entry.tool_id),
    );
  });

  it("semantic: fuses a ranker's similarities with the keyword ranking; a failing ranker falls back to keywords", async () => {
    const ranker: SemanticRanker = {
      name: 'by rule',
      available: () => true,
      rank: (_query, entries: readonly ToolIndexEntry[]) =>
        entries.map((e) =>
          e.tool_id === 'everything.echo' ? 0.9 : e.server_id === 'memory' ? 0.75 : 0,
        ),
    };
    const alone = await semanticSearch(index, 'whatever', {}, { semantic: ranker });
    assert.equal(alone.fallback, undefined);
    assert.equal(
      alone.results[0].entry.tool_id,
      'everything.echo',
      'no keyword matches: the similarities rank',
    );
    assert.equal(
      alone.results.length,
      1 + 9,
      'the echo and the nine memory tools: no keyword matches, and the rest is no more similar than the mean',
    );
    assert.ok(alone.results.slice(1).every((r) => r.entry.server_id === 'memory'));
    const keywords = keywordSearch(index, 'list the files in a folder').results.map(
      (r) => r.entry.tool_id,
    );
    const fused = (
      await semanticSearch(index, 'list the files in a folder', {}, { semantic: ranker, limit: 5 })
    ).results.map((r) => r.entry.tool_id);
    assert.equal(fused[0], keywords[0], 'a clear keyword match stays first');
    assert.ok(fused.length === 5);
    const unavailable = await semanticSearch(
      index,
      'echo',
      {},
      { semantic: { ...ranker, available: () => false } },
    );
    assert.equal(unavailable.fallback, 'keyword');
    const failing = await semanticSearch(
      index,
      'echo',
      {},
      { semantic: { ...ranker, rank: () => Promise.reject(new Error('endpoint down')) } },
    );
    assert.equal(failing.fallback, 'keyword');
    assert.equal(
      failing.results[0].entry.tool_id,
      keywordSearch(index, 'echo').results[0].entry.tool_id,
    );
  });

  it('filters by category, by risk and by connection status', () => {
    const risky = new ToolIndex();
    risky.upsertServer('s', [
      tool('peek_file', 'Read a file', {
        security: { risk_level: 'safe', permissions_required: ['filesystem.read'] },
      }),
      tool('wipe_file', 'Delete a file', {
        security: { risk_level: 'dangerous', permissions_required: ['filesystem.write'] },
      }),
      tool('touch_file', 'Update a file timestamp'),
      tool('shred_file', 'Destroy a file', { annotations: { destructiveHint: true } }),
    ]);
    const q = 'file';
    assert.deepEqual(top(risky, q, 9, { risk_level_max: 'safe' }), ['s.peek_file']);
    assert.deepEqual(top(risky, q, 9, { risk_level_max: 'moderate' }).sort(), [
      's.peek_file',
      's.touch_file',
    ]);
    assert.equal(top(risky, q, 9, { risk_level_max: 'dangerous' }).length, 4);
    assert.equal(
      effectiveRisk(risky.get('s.touch_file')!),
      'moderate',
      'no security metadata counts as moderate',
    );
    assert.equal(
      effectiveRisk(risky.get('s.shred_file')!),
      'dangerous',
      'destructiveHint raises it',
    );
    assert.deepEqual(top(risky, q, 9, { categories: ['delete'] }).sort(), [
      's.shred_file',
      's.wipe_file',
    ]);
    risky.setServerStatus('s', 'disconnected');
    assert.deepEqual(top(risky, q, 9), []);
    assert.equal(top(risky, q, 9, { status: 'all' }).length, 4);
  });
});
