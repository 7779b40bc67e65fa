import { strict as assert } from 'node:assert';
import {
  createToolIndex,
  deriveCategories,
  keywordSearch,
  llmContextKernelTools,
  ToolIndex,
} from '../../../client/src/kernel/discovery';
import { splitWords } from '../../../client/src/kernel/search';
import { corpus, corpusIndex, tool } from './fixtures';

const ids = (index: ToolIndex, query: string, filter = {}) =>
  keywordSearch(index, query, filter).results.map((r) => r.entry.tool_id);

describe('discovery: tool index', () => {
  it('indexes every corpus tool as <server_id>.<name>, with the discovery kernel tools under mgp', () => {
    const index = corpusIndex();
    const total = corpus().reduce((n, s) => n + s.tools.length, 0);
    assert.equal(index.size, total + 4);
    const entry = index.get('filesystem.read_text_file');
    assert.ok(entry);
    assert.equal(entry.server_id, 'filesystem');
    assert.equal(entry.status, 'connected');
    assert.equal(entry.kernel, false);
    assert.ok(entry.inputSchema.properties);
    const kernel = index.get('mgp.tools.discover');
    assert.equal(kernel?.kernel, true);
    assert.equal(kernel?.server_id, 'mgp');
  });

  it('derives categories with their ancestors from name, description, annotations and security', () => {
    const index = corpusIndex();
    assert.deepEqual(
      index
        .get('filesystem.read_text_file')
        ?.categories.filter((c) => ['read', 'filesystem'].includes(c)),
      ['read', 'filesystem'],
    );
    assert.ok(index.get('github.create_pull_request')?.categories.includes('git'));
    assert.ok(
      index.get('github.create_pull_request')?.categories.includes('code'),
      'git is under code',
    );
    assert.ok(index.get('playwright.browser_click')?.categories.includes('browser'));
    assert.ok(
      index.get('playwright.browser_click')?.categories.includes('network'),
      'browser is under web under network',
    );
    assert.ok(index.get('memory.delete_entities')?.categories.includes('delete'));
    assert.ok(
      index.get('memory.delete_entities')?.categories.includes('write'),
      'delete is under write',
    );
    assert.ok(index.get('postgres.query')?.categories.includes('database'));
    assert.ok(index.get('slack.slack_post_message')?.categories.includes('chat'));
    const secured = deriveCategories(
      tool('run', 'Runs it', {
        security: {
          risk_level: 'dangerous',
          permissions_required: ['shell.execute'],
          side_effects: ['process'],
        },
      }),
      'x',
    );
    assert.ok(secured.includes('shell'));
    assert.ok(
      deriveCategories(
        tool('ping', 'Pings', { annotations: { openWorldHint: true, readOnlyHint: true } }),
        'x',
      ).includes('network'),
    );
  });

  it('derives keywords from the name first', () => {
    const entry = corpusIndex().get('filesystem.list_directory_with_sizes');
    assert.deepEqual(entry?.keywords.slice(0, 3), ['list', 'directory', 'sizes']);
  });

  it('splits camelCase, snake_case, kebab-case and dotted identifiers', () => {
    assert.deepEqual(
      splitWords('readFile read_file read-file HTTPServer API-get-users mgp.tools.discover'),
      [
        'read',
        'file',
        'read',
        'file',
        'read',
        'file',
        'http',
        'server',
        'api',
        'get',
        'users',
        'mgp',
        'tools',
        'discover',
      ],
    );
    assert.deepEqual(splitWords('getURLs the IDs of PRs, parseHTTPResponse v2beta oauth2Token'), [
      'get',
      'urls',
      'the',
      'ids',
      'of',
      'prs',
      'parse',
      'http',
      'response',
      'v',
      '2',
      'beta',
      'oauth',
      '2',
      'token',
    ]);
    assert.deepEqual(splitWords('readFile', false), ['readfile']);
    const index = createToolIndex();
    index.upsertServer('s', [tool('getWeatherForecast', 'Forecast for a city')]);
    assert.equal(ids(index, 'weather')[0], 's.getWeatherForecast');
  });

  it('adds, replaces and removes one server without touching the others', () => {
    const index = new ToolIndex();
    index.upsertServer('a', [
      tool('alpha_search', 'Search alpha records'),
      tool('alpha_delete', 'Delete alpha records'),
    ]);
    index.upsertServer('b', [tool('beta_search', 'Search beta records')]);
    assert.deepEqual(
      ids(index, 'search records').sort(),
      ['a.alpha_search', 'a.alpha_delete', 'b.beta_search'].sort(),
    );
    const untouched = index.get('b.beta_search');
    // list_changed on a: one tool changed, one removed, one added.
    index.upsertServer('a', [
      tool('alpha_search', 'Search alpha records by date'),
      tool('alpha_export', 'Export alpha records'),
    ]);
    assert.equal(index.get('a.alpha_delete'), undefined);
    assert.ok(index.get('a.alpha_export'));
    assert.match(index.get('a.alpha_search')?.description ?? '', /by date/);
    assert.equal(index.get('b.beta_search'), untouched, 'the other server keeps its entries');
    assert.deepEqual(ids(index, 'delete'), []);
    index.removeServer('a');
    assert.deepEqual(ids(index, 'search records'), ['b.beta_search']);
    assert.equal(index.size, 1);
  });

  it('ranks after many incremental updates exactly as an index built from the final tools', () => {
    const servers = corpus();
    const incremental = createToolIndex();
    // Every server twice under two ids (same texts: shared analysis), then churn: changed, removed, re-added.
    for (const s of servers) incremental.upsertServer(s.id, s.tools);
    for (const s of servers) incremental.upsertServer(`${s.id}-copy`, s.tools);
    for (const s of servers.slice(0, 8))
      incremental.upsertServer(
        s.id,
        s.tools.slice(1).map((t) => ({ ...t, description: `${t.description} Changed.` })),
      );
    for (const s of servers.slice(4, 12)) incremental.removeServer(`${s.id}-copy`);
    for (const s of servers.slice(0, 8)) incremental.upsertServer(s.id, s.tools);
    incremental.upsertServer('filesystem-copy', []);
    const fresh = createToolIndex();
    for (const s of servers) fresh.upsertServer(s.id, s.tools);
    for (const s of servers)
      if (!(servers.indexOf(s) >= 4 && servers.indexOf(s) < 12) && s.id !== 'filesystem')
        fresh.upsertServer(`${s.id}-copy`, s.tools);
    assert.equal(incremental.size, fresh.size);
    for (const query of [
      'read a file',
      'create a pull request',
      'serch github repositorys',
      'delet memroy entity',
      'take a screenshot of the page',
      'URLs of a site',
    ]) {
      const a = keywordSearch(incremental, query).results.slice(0, 10);
      const b = keywordSearch(fresh, query).results.slice(0, 10);
      assert.deepEqual(
        a.map((r) => r.entry.tool_id),
        b.map((r) => r.entry.tool_id),
        query,
      );
      a.forEach((r, i) =>
        assert.ok(Math.abs(r.score - b[i].score) < 1e-9, `${query}: ${r.entry.tool_id}`),
      );
    }
    assert.equal(incremental.vocabulary.size, fresh.vocabulary.size);
    incremental.removeServer('slack');
    incremental.removeServer('slack-copy');
    assert.ok(
      !keywordSearch(incremental, 'slack').results.some((r) =>
        r.entry.server_id.startsWith('slack'),
      ),
    );
    assert.ok(
      !incremental.vocabulary.has('slack'),
      'words of removed tools leave the typo vocabulary',
    );
  });

  it('keeps an unchanged tool in place on list_changed and reflects status changes', () => {
    const index = new ToolIndex();
    index.upsertServer('a', [tool('alpha_search', 'Search alpha records')]);
    const before = index.get('a.alpha_search');
    index.upsertServer('a', [tool('alpha_search', 'Search alpha records')], 'connected');
    assert.equal(index.get('a.alpha_search'), before);
    index.setServerStatus('a', 'disconnected');
    assert.equal(index.get('a.alpha_search')?.status, 'disconnected');
    assert.deepEqual(ids(index, 'alpha'), [], 'disconnected tools are left out by default');
    assert.deepEqual(ids(index, 'alpha', { status: 'all' }), ['a.alpha_search']);
    index.setServerStatus('a', 'connected');
    assert.deepEqual(ids(index, 'alpha'), ['a.alpha_search']);
  });

  it('lists kernel tools, offers only the session tools to discovery, and puts only the meta-tools in the model context', () => {
    const index = corpusIndex();
    assert.deepEqual(
      llmContextKernelTools(index).map((e) => e.name),
      ['mgp.tools.discover', 'mgp.tools.request'],
    );
    assert.deepEqual(
      llmContextKernelTools(index, true)
        .map((e) => e.name)
        .sort(),
      ['mgp.tools.discover', 'mgp.tools.request', 'mgp.tools.session', 'mgp.tools.session.evict'],
    );
    const found = ids(index, 'evict tools from the session cache');
    assert.equal(found[0], 'mgp.tools.session.evict');
    assert.ok(
      !ids(index, 'discover tools search').includes('mgp.tools.discover'),
      'meta-tools are already in context',
    );
    const admin = createToolIndex({
      kernelTools: [tool('mgp.access.query', 'Query access grants for tools')],
    });
    assert.ok(admin.get('mgp.access.query'), 'listed');
    assert.deepEqual(
      ids(admin, 'access grants'),
      [],
      'administrative kernel tools are not discoverable',
    );
  });
});
