import { strict as assert } from 'node:assert';
import {
  categorySearch, effectiveRisk, keywordSearch, semanticSearch, ToolIndex, type SemanticRanker, type ToolIndexEntry,
} from '../../../client/src/kernel/discovery';
import { corpusIndex, tool } from './fixtures';

const top = (index: ToolIndex, query: string, n = 5, filter = {}) => keywordSearch(index, query, filter).results.slice(0, n).map((r) => r.entry.tool_id);

describe('discovery: search strategies and filters', () => {
  const index = corpusIndex();

  it('keyword: finds a tool by its exact name and by words from its description', () => {
    assert.equal(top(index, 'read_text_file')[0], 'filesystem.read_text_file');
    assert.equal(top(index, 'maps_reverse_geocode')[0], 'google-maps.maps_reverse_geocode');
    assert.equal(keywordSearch(index, 'read_file').results[0].relevance, 1);
    assert.ok(top(index, 'convert coordinates into an address').includes('google-maps.maps_reverse_geocode'));
  });

  it('keyword: relevance scores are in 0..1 and ordered', () => {
    const results = keywordSearch(index, 'create a pull request').results;
    assert.ok(results.length > 1);
    for (const r of results) assert.ok(r.relevance >= 0 && r.relevance <= 1, `${r.entry.tool_id} ${r.relevance}`);
    for (let i = 1; i < results.length; i++) assert.ok(results[i - 1].score >= results[i].score);
    assert.equal(results[0].entry.tool_id, 'github.create_pull_request');
  });

  it('keyword: stems inflections and expands domain synonyms', () => {
    assert.ok(top(index, 'deleting entities').includes('memory.delete_entities'));
    assert.ok(top(index, 'make a folder').includes('filesystem.create_directory'), 'folder → directory, make → create');
    assert.ok(top(index, 'create a PR').includes('github.create_pull_request'), 'PR → pull request');
  });

  it('keyword: tolerates typos by a bounded edit distance on the vocabulary', () => {
    assert.ok(top(index, 'serch github repositorys', 2).includes('github.search_repositories'));
    assert.ok(top(index, 'take a screenshott').includes('playwright.browser_take_screenshot'));
    assert.ok(top(index, 'geocde an adress').includes('google-maps.maps_geocode'));
    assert.ok(top(index, 'delet memroy entity').includes('memory.delete_entities'));
    const plain = keywordSearch(index, 'screenshott', {}, { fuzzy: false }).results;
    assert.ok(!plain.some((r) => r.entry.tool_id === 'playwright.browser_take_screenshot'), 'without typo tolerance the misspelling misses');
  });

  it('category: lists the tools of the categories the query names, with parents covering children', () => {
    const browser = categorySearch(index, 'browser tools');
    assert.equal(browser.strategy, 'category');
    assert.equal(browser.fallback, undefined);
    assert.ok(browser.results.length >= 25);
    assert.ok(browser.results.every((r) => r.entry.categories.includes('browser')));
    const network = categorySearch(index, 'anything', { categories: ['network'] });
    assert.ok(network.results.some((r) => r.entry.server_id === 'playwright'), 'network covers web and browser');
    const gitDelete = categorySearch(index, 'git', { categories: ['write'] });
    assert.ok(gitDelete.results.every((r) => r.entry.categories.includes('git') && r.entry.categories.includes('write')));
    assert.ok(gitDelete.results.some((r) => r.entry.tool_id === 'github.merge_pull_request'));
  });

  it('category: a query naming no category answers with the keyword ranking and says so', () => {
    const outcome = categorySearch(index, 'zebra quux');
    assert.equal(outcome.fallback, 'keyword');
  });

  it('semantic: without a ranker answers with keyword results and fallback_strategy keyword', async () => {
    const outcome = await semanticSearch(index, 'list the files in a folder');
    assert.equal(outcome.strategy, 'semantic');
    assert.equal(outcome.fallback, 'keyword');
    assert.deepEqual(outcome.results.map((r) => r.entry.tool_id), keywordSearch(index, 'list the files in a folder').results.map((r) => r.entry.tool_id));
  });

  it('semantic: uses a ranker that is available', async () => {
    const ranker: SemanticRanker = {
      name: 'fake',
      available: () => true,
      rank: (_query, entries: readonly ToolIndexEntry[]) => entries.map((e) => (e.tool_id === 'everything.echo' ? 0.9 : e.server_id === 'memory' ? 0.4 : 0)),
    };
    const outcome = await semanticSearch(index, 'whatever', {}, { semantic: ranker });
    assert.equal(outcome.fallback, undefined);
    assert.equal(outcome.results[0].entry.tool_id, 'everything.echo');
    assert.equal(outcome.results.length, 1 + 9);
    const unavailable = await semanticSearch(index, 'echo', {}, { semantic: { ...ranker, available: () => false } });
    assert.equal(unavailable.fallback, 'keyword');
  });

  it('filters by category, by risk and by connection status', () => {
    const risky = new ToolIndex();
    risky.upsertServer('s', [
      tool('peek_file', 'Read a file', { security: { risk_level: 'safe', permissions_required: ['filesystem.read'] } }),
      tool('wipe_file', 'Delete a file', { security: { risk_level: 'dangerous', permissions_required: ['filesystem.write'] } }),
      tool('touch_file', 'Update a file timestamp'),
      tool('shred_file', 'Destroy a file', { annotations: { destructiveHint: true } }),
    ]);
    const q = 'file';
    assert.deepEqual(top(risky, q, 9, { risk_level_max: 'safe' }), ['s.peek_file']);
    assert.deepEqual(top(risky, q, 9, { risk_level_max: 'moderate' }).sort(), ['s.peek_file', 's.touch_file']);
    assert.equal(top(risky, q, 9, { risk_level_max: 'dangerous' }).length, 4);
    assert.equal(effectiveRisk(risky.get('s.touch_file')!), 'moderate', 'no security metadata counts as moderate');
    assert.equal(effectiveRisk(risky.get('s.shred_file')!), 'dangerous', 'destructiveHint raises it');
    assert.deepEqual(top(risky, q, 9, { categories: ['delete'] }).sort(), ['s.shred_file', 's.wipe_file']);
    risky.setServerStatus('s', 'disconnected');
    assert.deepEqual(top(risky, q, 9), []);
    assert.equal(top(risky, q, 9, { status: 'all' }).length, 4);
  });
});
