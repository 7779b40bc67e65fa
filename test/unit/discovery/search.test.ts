import { strict as assert } from 'node:assert';
import {
  categorySearch,
  effectiveRisk,
  keywordSearch,
  normalizeQuery,
  planQuery,
  SEMANTIC_WEIGHT,
  semanticSearch,
  ToolIndex,
  type SemanticRanker,
  type ToolIndexEntry,
} from '../../../client/src/kernel/discovery';
import { corpusIndex, queries, tool } from './fixtures';

const top = (index: ToolIndex, query: string, n = 5, filter = {}) =>
  keywordSearch(index, query, filter)
    .results.slice(0, n)
    .map((r) => r.entry.tool_id);

/** Each query finds its tool (an id, or a pattern some id matches) among the first three; the message names what came instead. */
function foundInTop3(
  index: ToolIndex,
  cases: ReadonlyArray<[string, string | RegExp, string?]>,
): void {
  for (const [query, want, why] of cases) {
    const ids = top(index, query, 3);
    assert.ok(
      typeof want === 'string' ? ids.includes(want) : ids.some((id) => want.test(id)),
      `${why ?? query}: got ${ids.join(', ')}`,
    );
  }
}

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
      'navigate',
      'url',
      'in',
      'the',
      'browser',
    ]);
    assert.deepEqual(
      words('show config.yaml and src/main.go'),
      ['show', 'file', 'and', 'file', 'multiple', 'files'],
      'two files: the tool that takes several',
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
    assert.deepEqual(words('hit Enter, then press ctrl+s'), [
      'press',
      'key',
      ',',
      'then',
      'press',
      'key',
      'combination',
    ]);
    assert.deepEqual(
      words('google the release date'),
      ['web', 'search', 'the', 'release', 'date'],
      'the verb, not the maps',
    );
    assert.equal(normalizeQuery('google maps directions'), 'google maps directions');
    assert.deepEqual(words('alert me when the page changes'), [
      'create',
      'monitor',
      'changes',
      'the',
      'page',
      'changes',
    ]);
    assert.deepEqual(words('find the page called Roadmap in the users table'), [
      'find',
      'the',
      'page',
      'named',
      'in',
      'the',
      'table',
    ]);
    assert.deepEqual(
      words('when was yarn.lock created?'),
      ['when', 'file', 'timestamp', '?'],
      'a question of a date, not a request to create',
    );
    assert.deepEqual(words('raise a GitHub issue about it'), ['create', 'issue', 'about', 'it']);
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
    assert.deepEqual(words('drop a note on ticket 55'), ['comment', 'on', 'ticket']);
    assert.deepEqual(
      words('add a line to the README'),
      ['add', 'a', 'line', 'to', 'the', 'file'],
      'a line added to a file is an edit, not a comment',
    );
    assert.deepEqual(words('open the site in a headless browser'), [
      'navigate',
      'the',
      'site',
      'in',
      'a',
      'headless',
      'browser',
    ]);
    assert.deepEqual(
      words('spin up a new notion table'),
      ['create', 'a', 'new', 'notion', 'table'],
      'a server named before `table` stays',
    );
    assert.deepEqual(words('pls print out Makefile and .gitignore'), [
      'please',
      'print',
      'file',
      'and',
      'file',
      'multiple',
      'files',
    ]);
    assert.deepEqual(words('what does the top of README say'), [
      'read',
      'the',
      'top',
      'of',
      'file',
    ]);
    assert.deepEqual(words('is local.yml newer than prod.yml'), [
      'is',
      'file',
      'modified',
      'timestamp',
      'file',
      'multiple',
      'files',
    ]);
    assert.deepEqual(words('break the tie between Hank and Globex'), [
      'delete',
      'relation',
      'between',
      'Hank',
      'and',
      'Globex',
    ]);
    assert.deepEqual(words('how do I get from Heathrow to Soho'), [
      'directions',
      'Heathrow',
      'to',
      'Soho',
    ]);
    assert.deepEqual(words('press the Continue button, then press Enter'), [
      'click',
      ',',
      'then',
      'press',
      'key',
    ]);
    assert.deepEqual(words('which files read DATABASE_URL'), [
      'which',
      'files',
      'read',
      'code',
      'symbol',
    ]);
    assert.deepEqual(words('put my name in the username box'), ['type', 'text', 'field']);
    assert.deepEqual(words('let #frontend know'), ['notify', 'channel']);
    assert.deepEqual(words('could I see what the page looks like'), [
      'could',
      'I',
      'see',
      'screenshot',
      'view',
    ]);
    assert.deepEqual(
      words('what did the file look like on develop'),
      ['what', 'did', 'the', 'file', 'look', 'like', 'on', 'develop'],
      'a file is read, not photographed',
    );
    assert.deepEqual(words('show Dockerfile and compose.yaml'), [
      'show',
      'file',
      'and',
      'file',
      'multiple',
      'files',
    ]);
    assert.deepEqual(words('open .env.local'), ['open', 'file']);
    assert.deepEqual(
      words('the payload of the POST request'),
      ['the', 'payload', 'of', 'the', 'http', 'request'],
      'an HTTP method, not a verb',
    );
    assert.deepEqual(
      words('#17 needs a rebase'),
      ['#17', 'needs', 'a', 'rebase', 'pull', 'request', 'issue'],
      'a bare #17 is an issue or a pull request',
    );
    assert.deepEqual(
      words('response body of request #7'),
      ['response', 'body', 'of', 'request', '#7'],
      'not after a noun that says what it numbers',
    );
    assert.deepEqual(words('is it anywhere on the page'), [
      'is',
      'it',
      'find',
      'in',
      'the',
      'page',
    ]);
    assert.deepEqual(words('list the pages without scraping them'), [
      'list',
      'the',
      'pages',
      'map',
      'urls',
      'them',
    ]);
    assert.deepEqual(words('test the layout at 390 by 844 and 1280x720'), [
      'test',
      'the',
      'layout',
      'at',
      'window',
      'size',
      'and',
      'window',
      'size',
    ]);
    assert.deepEqual(words('create .eslintrc.json with these rules'), [
      'write',
      'new',
      'file',
      'with',
      'these',
      'rules',
    ]);
    assert.deepEqual(words('mark the task as blocked'), ['update', 'set', 'property', 'blocked']);
    assert.deepEqual(words("what's pending merge in the api repo"), [
      "what's",
      'list',
      'open',
      'pull',
      'requests',
      'review',
      'in',
      'the',
      'api',
      'repo',
    ]);
    assert.deepEqual(words('file the flaky-runner problem on gitlab'), [
      'create',
      'issue',
      'problem',
      'on',
      'gitlab',
    ]);
    assert.deepEqual(words("the log mentions ci.env; what's inside it"), [
      'the',
      'log',
      'mentions',
      'file',
      ';',
      'read',
      'contents',
      'it',
    ]);
    assert.equal(
      normalizeQuery('what is inside the fixtures folder'),
      'what is inside the fixtures folder',
      "a folder's contents are listed, not read",
    );
    assert.deepEqual(words('open the three migration scripts side by side'), [
      'open',
      'the',
      'multiple',
      'files',
      'multiple',
    ]);
    assert.deepEqual(words('Kenji no longer mentors Aiko'), [
      'Kenji',
      'remove',
      'relation',
      'fact',
      'mentors',
      'Aiko',
    ]);
    assert.deepEqual(words('attach resume.pdf'), ['attach', 'file', 'pdf', 'document']);
    assert.deepEqual(words('find every *.test.ts file'), [
      'find',
      'every',
      'file',
      'pattern',
      'file',
    ]);
    assert.deepEqual(words('what is at 48.8584, 2.2945'), ['what', 'is', 'at', 'coordinates']);
    assert.deepEqual(words('post to #ops and tell @alice, mail bob@example.org'), [
      'post',
      'to',
      'channel',
      'and',
      'tell',
      'user',
      ',',
      'mail',
      'email',
      'address',
    ]);
    assert.deepEqual(words('node.js release notes for issue #42'), [
      'nodejs',
      'release',
      'notes',
      'for',
      'issue',
      '#42',
    ]);
    assert.deepEqual(words('look up what I set up, then turn off logging'), [
      'lookup',
      'what',
      'I',
      'create',
      ',',
      'then',
      'disable',
      'logging',
    ]);
    assert.ok(
      !/file|pattern/.test(normalizeQuery('is this right? 5 * 3')),
      'a question mark or a lone star is no glob',
    );
    assert.deepEqual(words('run document.title, then foo.bar(1) and () => 2'), [
      'run',
      'javascript',
      'expression',
      ',',
      'then',
      'javascript',
      'expression',
      'and',
      'javascript',
      'expression',
    ]);
    assert.equal(
      normalizeQuery('list users (active only)'),
      'list users (active only)',
      'words in brackets are no call',
    );
    assert.deepEqual(words('give it a :rocket: now'), [
      'give',
      'it',
      'a',
      'emoji',
      'reaction',
      'now',
    ]);
    assert.deepEqual(words('metadata for arXiv 2106.09685 and doi 10.1145/3292500.3330701'), [
      'metadata',
      'for',
      'paper',
      'id',
      'and',
      'doi',
      'paper',
      'id',
    ]);
    assert.deepEqual(
      words('search arXiv for diffusion'),
      ['search', 'arxiv', 'paper', 'for', 'diffusion'],
      'arXiv is no camelCase symbol',
    );
    assert.equal(top(index, 'run document.title in the page')[0], 'playwright.browser_evaluate');
    assert.equal(
      top(index, 'open https://example.com in the browser')[0],
      'playwright.browser_navigate',
    );
  });

  it("keyword: requests to an assistant's memory find the knowledge graph", () => {
    assert.ok(top(index, 'remember that Priya prefers tea').includes('memory.create_entities'));
    assert.ok(
      top(index, 'what do you know about the Atlas launch', 3).includes('memory.search_nodes'),
    );
    assert.ok(
      top(index, 'forget everything about the old office', 3).includes('memory.delete_entities'),
    );
    assert.equal(
      normalizeQuery('remember the milk'),
      'remember the milk',
      'only `remember that` is a request to the memory',
    );
    assert.ok(
      normalizeQuery('remembr that the window is Friday').includes('memory'),
      'a typo of its ending too',
    );
  });

  it('keyword: to open a PR or an issue is to create it; idioms become the word they mean', () => {
    assert.ok(top(index, 'open a PR for my branch', 2).includes('github.create_pull_request'));
    assert.ok(
      top(index, 'list the open PRs', 2).includes('github.list_pull_requests'),
      'PRs, the plural',
    );
    assert.equal(top(index, 'how high above sea level is Quito')[0], 'google-maps.maps_elevation');
    assert.ok(top(index, 'who am I connected as in notion', 3).includes('notion.API-get-self'));
  });

  it('keyword: hedges and participles name no tool; `needs to be` asks for a change; files that mention a word are searched', () => {
    assert.ok(
      !normalizeQuery('I think the config has a typo, let me see it').includes('think'),
      'a hedge is no request to think',
    );
    assert.ok(
      top(index, 'I think the config has a typo, let me see it', 2).includes(
        'filesystem.read_text_file',
      ),
    );
    assert.equal(
      top(index, 'dump the generated report into report.html')[0],
      'filesystem.write_file',
      'a generated report is not a request to generate',
    );
    assert.ok(
      top(index, 'the copyright year in the footer template needs to be 2026', 3).includes(
        'filesystem.edit_file',
      ),
    );
    assert.equal(
      top(index, 'which yaml files in the repo mention redis')[0],
      'filesystem.search_files',
    );
    assert.equal(
      top(index, 'extract text from the uploaded pdf brochure')[0],
      'firecrawl.firecrawl_parse',
      'a document to parse, not a URL to extract',
    );
    assert.equal(top(index, 'look in notion for the offsite agenda')[0], 'notion.API-post-search');
    assert.equal(
      top(index, 'Initech is no Globex subsidiary, unlink them')[0],
      'memory.delete_relations',
    );
  });

  it('keyword: the back button, a folder by a path name, files anywhere under a folder, a document into text, an echo', () => {
    assert.equal(
      top(index, 'hit the back button in the browser')[0],
      'playwright.browser_navigate_back',
      'history, not a click',
    );
    assert.equal(
      top(index, 'scaffold an empty folder called fixtures/images')[0],
      'filesystem.create_directory',
      'a name with a slash is still a name',
    );
    assert.equal(
      top(index, 'is there any file named .env.example anywhere under the project')[0],
      'filesystem.search_files',
    );
    assert.equal(
      top(index, "jot down on Priya's entry that she prefers tea")[0],
      'memory.add_observations',
    );
    assert.equal(
      top(index, 'turn this PDF of the annual report into markdown')[0],
      'firecrawl.firecrawl_parse',
    );
    assert.ok(
      top(index, 'which outgoing calls did the page fire, and did any return 500', 5).includes(
        'playwright.browser_network_requests',
      ),
    );
    assert.equal(
      top(index, 'check the server by having it return my text unchanged')[0],
      'everything.echo',
    );
  });

  it('keyword: a phrasal verb with its object between, a new name, a fetch as a noun, a recurring check', () => {
    assert.ok(
      normalizeQuery('track it down').includes('search') &&
        normalizeQuery('look them up').includes('lookup'),
    );
    assert.equal(
      top(index, "somewhere in this monorepo there's a file called seed.ts, track it down")[0],
      'filesystem.search_files',
    );
    assert.equal(
      top(index, 'give the old screenshots directory a new name: screenshots-2024')[0],
      'filesystem.move_file',
    );
    assert.equal(
      top(index, 'chime in on github issue 301 with a workaround')[0],
      'github.add_issue_comment',
    );
    assert.ok(
      top(index, 'details of the failed fetch, number 12 in the list', 2).includes(
        'playwright.browser_network_request',
      ),
    );
    assert.ok(
      !normalizeQuery('fetch the page').includes('network'),
      'a fetch before its object is the verb',
    );
    assert.equal(
      top(index, "weekly check on a competitor's changelog page for changes")[0],
      'firecrawl.firecrawl_monitor_create',
    );
    assert.equal(
      top(index, 'PR 412 is behind main on github, bring it up to date')[0],
      'github.update_pull_request_branch',
    );
  });

  it('keyword: files known by their language, mention as a search, not … anymore, scrap, what a page sent, an echo test, I forgot', () => {
    assert.equal(
      top(index, 'open main.go, go.mod and go.sum together')[0],
      'filesystem.read_multiple_files',
      'go.sum is a file, not a sum',
    );
    assert.equal(
      top(index, 'anything in memory mentioning the Madrid office?')[0],
      'memory.search_nodes',
    );
    assert.equal(top(index, "Tomás is not Aiko's mentor anymore")[0], 'memory.delete_relations');
    assert.ok(
      top(index, 'scrap the line that says Tomás speaks Portuguese', 5).includes(
        'memory.delete_observations',
      ),
      'scrap is to delete, not to scrape',
    );
    assert.equal(
      top(index, 'requests the page sent to the API')[0],
      'playwright.browser_network_requests',
    );
    assert.equal(
      top(index, 'a quick sanity test of the MCP server: send hello and expect hello')[0],
      'everything.echo',
    );
    assert.ok(
      !normalizeQuery('I forgot the exact path').includes('forgot'),
      'what the speaker forgot is no request to forget',
    );
  });

  it('keyword: anything about a topic, rows where, a list of N with their fields, PubMed ids, bare numbers, a named file', () => {
    assert.equal(
      top(index, 'do u have anything in memory about our kubernetes setup?')[0],
      'memory.search_nodes',
    );
    assert.equal(
      top(
        index,
        "show rows in the notion Bugs tracker where priorty is High and Status isn't Closed",
      )[0],
      'notion.API-query-data-source',
    );
    assert.equal(
      top(
        index,
        'build me a list of 20 fintech startups from YC W24 with founders and funding amounts',
      )[0],
      'firecrawl.firecrawl_agent',
    );
    assert.ok(normalizeQuery('in PMID 34567890 and PMC8734567').includes('paper id'));
    assert.ok(
      !/\d/.test(normalizeQuery('the last 7 days of PR 412')),
      'a bare number is a value, not a word',
    );
    assert.ok(/7/.test(normalizeQuery('context7 docs')), 'a number in a word stays');
    assert.ok(
      normalizeQuery('save a file called TODO.txt').includes('file  named') === false &&
        normalizeQuery('save a file called TODO.txt').includes('called  file'),
      'a file name replaced by its kind is no name to drop',
    );
  });

  it('keyword: overwrite, size and timestamp, check your memory, close #N, landed on main, how long is the drive, is there … on this page, what was done before', () => {
    assert.equal(
      top(
        index,
        'I drafted the release notes above, put them into RELEASE_NOTES.md and replace the old version',
      )[0],
      'filesystem.write_file',
    );
    assert.equal(
      top(
        index,
        'the backup script says the dump is empty, check the size and timestamp of backups/db-2024-06-01.sql',
      )[0],
      'filesystem.get_file_info',
    );
    assert.equal(
      top(index, 'who handles our AWS billing again? check your memory')[0],
      'memory.search_nodes',
    );
    assert.equal(
      top(index, 'turns out #450 is a duplicate, close it on github')[0],
      'github.update_issue',
    );
    assert.equal(
      top(
        index,
        'for the release notes I need everything that landed on main this week in acme/webapp',
      )[0],
      'github.list_commits',
    );
    assert.ok(
      top(
        index,
        "we're planning an offsite at the Ferry Building; how long is the drive from SFO and which way?",
        2,
      ).includes('google-maps.maps_directions'),
    );
    assert.ok(
      top(index, 'is there a "Forgot password" link on this page?', 2).includes(
        'playwright.browser_find',
      ),
    );
    assert.equal(
      top(index, 'I updated the target page, so trigger monitor mon_42 once now')[0],
      'firecrawl.firecrawl_monitor_run',
      'what I did is no request',
    );
    assert.ok(
      top(index, 'Mark acknowledged the alert, so thumbs-up his message in #alerts', 2).includes(
        'slack.slack_add_reaction',
      ),
    );
  });

  it('keyword: chat shorthand reads as the words it stands for', () => {
    const words = (q: string) => normalizeQuery(q).trim().split(/\s+/);
    assert.deepEqual(words('gen an illo w/ 3 pics abt cats'), [
      'generate',
      'an',
      'illustration',
      'with',
      'pictures',
      'about',
      'cats',
    ]);
    assert.deepEqual(
      words('last modified time + perms'),
      words('last modified time and permissions'),
    );
    assert.deepEqual(words('hero img for the landing pg'), [
      'hero',
      'image',
      'for',
      'the',
      'landing',
      'page',
    ]);
    assert.ok(normalizeQuery('active sessions in pg').includes(' pg'), 'pg alone stays Postgres');
    assert.ok(
      normalizeQuery('press ctrl+c').includes('key combination'),
      'a key combination keeps its plus',
    );
    assert.ok(
      normalizeQuery('move w/ care into src/w/').includes('directory'),
      'w/ inside a path stays a path',
    );
    assert.equal(
      top(index, 'gen an isometric vector illo of a server room for the blog header')[0],
      'everart.generate_image',
    );
  });

  it('keyword: questions and goals in everyday words', () => {
    assert.equal(
      top(index, 'help me break the auth migration into steps, i may change my mind halfway')[0],
      'sequential-thinking.sequentialthinking',
    );
    assert.equal(
      top(index, 'How can I check what the website looks like on a phone-sized screen?')[0],
      'playwright.browser_resize',
    );
    assert.equal(
      top(index, 'How can I see what the site looks like in dark mode?')[0],
      'playwright.browser_emulate_media',
      'an emulated scheme, not a screenshot',
    );
    assert.ok(
      top(
        index,
        'How do I move the Task 12 card into the Done column on this board page?',
        2,
      ).includes('playwright.browser_drag'),
    );
    assert.equal(
      top(index, 'I no longer need the page watcher mon_17; how do I get rid of it for good?')[0],
      'firecrawl.firecrawl_monitor_delete',
    );
    assert.ok(
      top(
        index,
        'Is it possible to collect the content of all the help-center articles on support.example.com in one go?',
        2,
      ).includes('firecrawl.firecrawl_crawl'),
    );
    assert.equal(
      top(index, 'Can I log a problem report in the ops/monitoring project on GitLab?')[0],
      'gitlab.create_issue',
      'a problem raised is an issue',
    );
    assert.ok(
      top(
        index,
        'Can you keep in mind from now on that our client Globex prefers calls on Tuesdays?',
        2,
      ).some((id) => id.startsWith('memory.')),
    );
    assert.ok(
      top(index, 'coords for 1600 Amphitheatre Pkwy, Mountain View', 3).includes(
        'google-maps.maps_geocode',
      ),
      'a street address',
    );
    assert.ok(
      top(index, 'drop invoice.pdf onto the dropzone', 2).includes('playwright.browser_drop'),
      'a file dropped onto a page is no file to write',
    );
  });

  it('keyword: conditions, statuses and schema changes; monitors asked for by their alerts; requests of people who do not know the tools', () => {
    assert.ok(normalizeQuery("how many orders had status='refunded'").includes('filter condition'));
    assert.equal(
      top(index, "how many orders had status='refunded' last week in the db")[0],
      'postgres.query',
    );
    assert.equal(
      top(index, 'mark the Vendor audit card Done (Status prop) in notion')[0],
      'notion.API-patch-page',
    );
    assert.equal(
      top(index, 'add a "Reviewer" person property to the Editorial Tracker db in notion')[0],
      'notion.API-update-a-data-source',
    );
    assert.ok(
      top(index, 'all urls on docs.astro.build, no content needed', 2).includes(
        'firecrawl.firecrawl_map',
      ),
    );
    assert.equal(
      top(index, 'search gh code for useSyncExternalStore usages')[0],
      'github.search_code',
      'gh is GitHub',
    );
    assert.equal(
      top(
        index,
        "What's the easiest way to get 2023_w2.pdf out of Downloads and into my Taxes/2023 folder?",
      )[0],
      'filesystem.move_file',
    );
    assert.equal(
      top(
        index,
        "I'd like to see the whole layout of my thesis project, every subfolder included",
      )[0],
      'filesystem.directory_tree',
    );
    assert.equal(
      top(index, 'note down that the Falcon project is owned by the Growth team')[0],
      'memory.create_relations',
    );
    assert.equal(
      top(index, 'I would love to get an alert whenever the Apple developer news page changes')[0],
      'firecrawl.firecrawl_monitor_create',
    );
    assert.ok(
      top(index, 'Which page watchers do we have running at the moment?', 2).includes(
        'firecrawl.firecrawl_monitor_list',
      ),
    );
    assert.ok(
      top(
        index,
        'Could you run a pretend research task so I can watch the progress stages?',
        3,
      ).includes('everything.simulate-research-query'),
      'a pretend task is the simulation, not an agent job',
    );
    assert.equal(
      top(index, 'Is that research job finished yet, and what did it find?')[0],
      'firecrawl.firecrawl_agent_status',
    );
  });

  it("keyword: an agent's own needs and requests from outside engineering", () => {
    assert.ok(
      !normalizeQuery(
        'I need to read config/settings.toml to check which log level is set',
      ).includes('change'),
      'I need to read is no value to change',
    );
    assert.ok(
      !normalizeQuery('read it to check whether the port is set').includes('check'),
      'why is not what',
    );
    assert.ok(normalizeQuery('the title needs to be shorter').includes('change to'));
    assert.equal(
      top(index, 'replace scripts/bootstrap.sh entirely with the version I just generated')[0],
      'filesystem.write_file',
    );
    assert.ok(
      top(index, "what's sitting in db/migrations right now? top level only", 2).includes(
        'filesystem.list_directory',
      ),
    );
    assert.ok(
      top(index, 'anything I saved earlier that mentions kubernetes upgrades?', 2).includes(
        'memory.search_nodes',
      ),
    );
    assert.ok(
      top(
        index,
        'Which pull requests are still waiting on GitHub for bramblewood/reservations?',
        2,
      ).includes('github.list_pull_requests'),
    );
    assert.ok(
      top(
        index,
        "Please log this in the product team's repository acme/roadmap: customers keep asking for dark mode",
        2,
      ).includes('github.create_issue'),
    );
    assert.equal(
      top(
        index,
        'Which ten accounts have the largest unpaid invoices right now? Please pull that from our database.',
      )[0],
      'postgres.query',
    );
    assert.equal(
      top(index, 'Take a picture of how the homepage looks in the browser right now')[0],
      'playwright.browser_take_screenshot',
    );
    assert.equal(
      top(
        index,
        'Please pull the key terms out of the supplier contract PDF saved at Legal/contracts/orchard-supply-msa.pdf.',
      )[0],
      'firecrawl.firecrawl_parse',
    );
    assert.ok(
      top(
        index,
        "is there a structured provider for SEC 10-K filings so I don't have to scrape EDGAR",
        5,
      ).includes('firecrawl.firecrawl_find_tools'),
    );
  });

  it('keyword: background and purpose before a request, what not to use, a verb `check`, details of an item', () => {
    const text = (q: string) => normalizeQuery(q).replace(/\s+/g, ' ').trim();
    assert.equal(
      text('for the quarterly review, list the open issues'),
      'list the open issues',
      'a leading purpose is not the request',
    );
    assert.ok(
      !/\bmoved\b/.test(text('since Dana moved to Lisbon, update her record')),
      'what happened is no request to move',
    );
    assert.ok(
      text('since Dana moved to Lisbon, update her record').includes('Lisbon'),
      'the background keeps its names',
    );
    assert.ok(!text('use the official docs, not your memory').includes('memory'));
    assert.ok(
      !/\bcheck\b/.test(text('please check the size of dump.sql')) &&
        /\bcheck\b/.test(text('show the last check of monitor 4')),
      'the verb goes, the noun stays',
    );
    assert.ok(
      top(
        index,
        'since the nightly job broke, check the size and modified time of /srv/dumps/latest.sql',
        3,
      ).includes('filesystem.get_file_info'),
    );
    assert.ok(
      top(index, 'what is the state and title of PR 77 in acme/web on GitHub?', 3).includes(
        'github.get_pull_request',
      ),
    );
    assert.ok(
      top(index, 'fetch the labels and author of issue 31 in acme/web', 3).includes(
        'github.get_issue',
      ),
    );
    assert.ok(
      top(
        index,
        'how do I configure middleware in Express 5? use the current docs, not your memory',
        3,
      ).includes('context7.query-docs'),
    );
    assert.ok(
      top(index, 'with /tailwindlabs/tailwindcss docs, how do container queries work?', 3).includes(
        'context7.query-docs',
      ),
    );
  });

  it('keyword: relations and facts told to the memory; news, world facts, a request by its method, rows and properties', () => {
    assert.ok(
      top(index, 'jot down that the Quill app relies on the Ledger API', 3).includes(
        'memory.create_relations',
      ),
    );
    assert.ok(
      top(index, 'write down in memory that Atlas was superseded by Beacon', 3).includes(
        'memory.create_relations',
      ),
    );
    assert.ok(
      top(index, 'add to what you have on Mira that she speaks Polish', 3).includes(
        'memory.add_observations',
      ),
    );
    assert.ok(top(index, 'forget "Legacy Billing" entirely', 3).includes('memory.delete_entities'));
    // Any of the web searches serves the news (the examples of Tavily's rank it first).
    assert.ok(
      top(index, 'any press coverage of the Nord Stream inquiry?', 5).some((id) =>
        /^(brave-search\.brave_web|tavily\.tavily_search|firecrawl\.firecrawl_search|exa\.web_search)/.test(
          id,
        ),
      ),
    );
    assert.ok(
      top(index, 'what has Mozilla announced about Firefox extension signing?', 5).includes(
        'brave-search.brave_web_search',
      ),
    );
    assert.ok(top(index, 'who founded Basecamp?', 5).includes('brave-search.brave_web_search'));
    assert.ok(
      top(index, 'show the PUT to /v2/cart/items the page sent', 3).includes(
        'playwright.browser_network_request',
      ),
    );
    assert.ok(
      top(index, 'the invoices table has an amount column: total it by month', 3).includes(
        'postgres.query',
      ),
    );
    assert.ok(
      !normalizeQuery('add a Status column to the Notion roadmap table').includes('sql'),
      'a Notion table is no SQL table',
    );
    assert.ok(
      top(index, 'add an entry to the Notion Reading List database for Dune', 3).includes(
        'notion.API-post-page',
      ),
    );
    assert.ok(
      top(index, 'tag the Notion page "Q3 Plan" with status Draft', 3).includes(
        'notion.API-patch-page',
      ),
    );
    assert.ok(
      top(index, 'read the Tags property of Notion page 9f2e', 3).includes(
        'notion.API-retrieve-a-page-property',
      ),
    );
  });

  it('keyword: dictated and search-box requests', () => {
    foundInTop3(index, [
      [
        'open a p r from hotfix slash login dash timeout into main on acme slash portal',
        'github.create_pull_request',
      ],
      [
        'what place is at fifty one point five oh seven north zero point one two eight west',
        'google-maps.maps_reverse_geocode',
      ],
      ['push readme dot md and main dot py to my repo on main in one commit', 'github.push_files'],
      ['largest files in my videos folder', 'filesystem.list_directory_with_sizes'],
      ['python testing libs on github', 'github.search_repositories'],
      ['devs in nairobi who write rust on github', 'github.search_users'],
      ['which change alerts are set up', 'firecrawl.firecrawl_monitor_list'],
      ['add new contact maria ruiz plumber', 'memory.create_entities'],
      [
        'acme.io/blog/launch read it',
        /scrape|fetch|extract/,
        'a site address without its scheme is a URL',
      ],
    ]);
    assert.ok(
      top(index, 'linkedin product designers berlin', 5).includes('brave-search.brave_web_search'),
    );
  });

  it('keyword: requests of people of many trades, after their background', () => {
    foundInTop3(index, [
      [
        'The signed lease came in as /Users/li/Downloads/lease.pdf. File it into /Users/li/Clients/lease/ please.',
        'filesystem.move_file',
      ],
      [
        'I have the place ID ChIJ2eUgeAK6j4ARbn5u_wAGqWA from the search. Get its hours and phone number.',
        'google-maps.maps_place_details',
      ],
      [
        'My Notion recipe page has a toggle, ID 7d1f. What is nested inside it?',
        'notion.API-get-block-children',
      ],
      [
        'Under my Notion page "Inventory" I need a new table with columns for Item, Count and Shelf.',
        'notion.API-create-a-data-source',
      ],
      [
        'Gather the article text across that help center, support.acme.com, capped at 50 pages.',
        /crawl/,
      ],
      [
        'The permit site only lists results after a form. Open a live session on that URL and submit it for Ward 3.',
        'firecrawl.firecrawl_interact',
      ],
      [
        'For our spring gala poster I need a hero visual: lanterns over a lake at dusk, watercolor.',
        'everart.generate_image',
      ],
      [
        'Could you make an illustration of a fox reading under a tree for the cover?',
        'everart.generate_image',
      ],
      ['Quick sanity check on my invoice math: what is 4210 added to 785?', 'everything.get-sum'],
      [
        'Three suspects for the outage. Go through them methodically, one at a time, and backtrack if needed.',
        'sequential-thinking.sequentialthinking',
      ],
      [
        "Of the vendors you've been tracking for me, which ones mention Lisbon?",
        'memory.search_nodes',
      ],
    ]);
  });

  it("keyword: a page at the screen, a code host, a workspace, files, the web and the map in their users' words", () => {
    foundInTop3(index, [
      ['park the cursor over the avatar so its menu drops down', 'playwright.browser_hover'],
      [
        "slide the 'Backlog' card over onto the 'Doing' lane of the open board",
        'playwright.browser_drag',
      ],
      [
        'wrong product page. head back to the listing we were on',
        'playwright.browser_navigate_back',
      ],
      ['switch that tab off, shut the checkout page down', 'playwright.browser_close'],
      ['show open issues on acme/api', 'github.list_issues'],
      ['branch of PR 77 fell way behind master, refresh it', 'github.update_pull_request_branch'],
      ['are the checks on pull request 12 in octo/app green', 'github.get_pull_request_status'],
      ['give me the rundown on PR 9 in octo/app', 'github.get_pull_request'],
      [
        'what went in on the hotfix-2.1 branch of octo/app last week, newest first',
        'github.list_commits',
      ],
      ['put a checklist at the very end of my Notion packing page', /block-children|page-markdown/],
      ['who are we logged in as on notion', 'notion.API-get-self'],
      ['add priority field to the notion issues database', 'notion.API-update-a-data-source'],
      ['grab the first fifty lines of /var/log/app.log', /read_(?:text_)?file/],
      ['which folders are you allowed to touch', 'filesystem.list_allowed_directories'],
      ['store the agenda as a brand-new document at /notes/agenda.md', 'filesystem.write_file'],
      ['which videos in ~/Movies are the chunkiest', 'filesystem.list_directory_with_sizes'],
      [
        'find every climate fund with its partners, you may need to comb through lots of different sources',
        /agent|research/,
      ],
      [
        'cycling times from each of our three depots to all the shops',
        'google-maps.maps_distance_matrix',
      ],
      ['vet clinic open late near 94110', /local_search|search_places/],
      [
        "Pull up every reply posted under the CEO's announcement in #general",
        'slack.slack_get_thread_replies',
      ],
      [
        'Work through the seating plan carefully and revisit earlier assumptions if a guest conflict shows up',
        'sequential-thinking.sequentialthinking',
      ],
      ['have you stored anything about the Lisbon office', 'memory.search_nodes'],
      [
        'begin keeping track of my landlords: Ana, Joe and Mr. Ruiz, each with their own entry',
        'memory.create_entities',
      ],
    ]);
    assert.ok(
      top(index, 'companies developing heat pumps in Poland', 5).some((id) => /search/.test(id)),
    );
  });

  it('keyword: an agent between sessions, who is asking, an item by its owner/repo#N, news, a status asked as a question', () => {
    foundInTop3(index, [
      [
        'the user prefers tabs over spaces; keep that so it carries over to future conversations',
        /^memory\./,
      ],
      ['open the entities "Ana" and "Joe" by exact name', 'memory.open_nodes'],
      ['golang/go#61234 show it with its labels', /get_issue|get_pull_request$/],
      ['As a support lead I need the text of issue 88 in acme/app', 'github.get_issue'],
      ['whats the latest on the mars sample return mission', /search/],
      ['is crawl job 51ab done yet', 'firecrawl.firecrawl_check_crawl_status'],
      ['open a.txt and b.txt at the same time', 'filesystem.read_multiple_files'],
      ['read the last 50 messages from #design', 'slack.slack_get_channel_history'],
      ['post "ping 42" and make sure it bounces back identical', 'everything.echo'],
      [
        'make a database "Reading List" under page 77aa with Title, Author and Owner fields',
        'notion.API-create-a-data-source',
      ],
      ['stop the remote browser you opened for scrape 9f1', 'firecrawl.firecrawl_interact_stop'],
      [
        'read https://karpathy.github.io/2019/04/25/recipe/',
        /scrape|fetch|extract/,
        'a site on a hosting platform is not the platform',
      ],
    ]);
    assert.ok(
      !normalizeQuery('set Maria as the owner of the task').trim().startsWith('set Maria  '),
      'a role given is no speaker',
    );
  });

  it('keyword: requests of people outside software, in the words of their own world', () => {
    foundInTop3(index, [
      ['Remember that Lena is their landlord', 'memory.create_relations'],
      ['The café you know about, add that it closes early on Sundays', 'memory.add_observations'],
      [
        'Forget only that detail about Omar moving to Leeds, keep the rest',
        'memory.delete_observations',
      ],
      ['what have you got on record for "Aunt May" and "Ben"', 'memory.open_nodes'],
      [
        'Which reported bugs labelled with the "ui" tag are still outstanding in octo/app?',
        'github.list_issues',
      ],
      [
        'thank the person who reported #90 in octo/app and say it is fixed',
        'github.add_issue_comment',
      ],
      [
        'are the automatic tests on proposal #12 in octo/app passing',
        'github.get_pull_request_status',
      ],
      ['suggest merging the "spring" branch into main of octo/app', 'github.create_pull_request'],
      ['make a new working copy "draft-2" from main in octo/app', 'github.create_branch'],
      ['a window popped up asking to leave the page, say yes', 'playwright.browser_handle_dialog'],
      ['the file chooser is open now, give it /scans/id.pdf', 'playwright.browser_file_upload'],
      ['keep this page and open the returns policy in another tab', 'playwright.browser_tabs'],
      [
        'grab a picture of the entire checkout screen as it is now',
        'playwright.browser_take_screenshot',
      ],
      ['hold off until "Done" appears on the page', 'playwright.browser_wait_for'],
      [
        'drop the two files /a/1.png and /a/2.png onto the upload area of the page',
        'playwright.browser_drop',
      ],
      [
        'which of my folders can it access? is it able to get into Documents',
        'filesystem.list_allowed_directories',
      ],
      ['when was /photos/cat.jpg taken, without opening it', 'filesystem.get_file_info'],
      ['our shop database has a sales table: how much did we sell in May', 'postgres.query'],
      [
        'put a new table in my Notion page "Garden" to track plants',
        'notion.API-create-a-data-source',
      ],
      [
        'what ready-made layouts does my Notion recipes database offer',
        'notion.API-list-data-source-templates',
      ],
      ['read https://shop.example/terms as plain text', /scrape|extract|fetch/],
      [
        'pull the opening hours of these venue pages into a neat table: https://a.example/x https://b.example/y',
        /scrape|extract/,
      ],
      ['that scrape was a bad result, it missed the prices', 'firecrawl.firecrawl_feedback'],
      [
        'which id does the documentation service give the numpy library',
        'context7.resolve-library-id',
      ],
      ['I need the latitude and longitude of 12 Rose Terrace, Bath', 'google-maps.maps_geocode'],
    ]);
  });

  it('keyword: more of the words of people outside software, and of chat', () => {
    foundInTop3(index, [
      [
        'branch off a new line of work named "fall-sale" off of main in shopco/site',
        'github.create_branch',
      ],
      [
        'which fields does the Notion "Clients" tracker have, and of what kind',
        'notion.API-retrieve-a-data-source',
      ],
      ['accept pull request 14 in shopco/site, squash it', 'github.merge_pull_request'],
      [
        'tell me how this page is laid out so you know where to click',
        'playwright.browser_snapshot',
      ],
      ['which site watchers have we got', 'firecrawl.firecrawl_monitor_list'],
      [
        'has someone already reported that the export crashes in acme/tool on GitHub',
        'github.search_issues',
      ],
      [
        'the console: show the warnings and errors the checkout page logged',
        'playwright.browser_console_messages',
      ],
      ['keep in mind these new clients: Ada, a baker, and Tom, a roofer', 'memory.create_entities'],
      ['remember that Acme supplies our steel', 'memory.create_relations'],
      [
        'how many miles from Leeds and York to each of Hull and Bath',
        'google-maps.maps_distance_matrix',
      ],
      [
        'the tool miscounts rows; report it to its maintainers at tabby/rows',
        'github.create_issue',
      ],
      ['network reqs the page sent to /graphql', 'playwright.browser_network_requests'],
      ['set prop Status = Done on pg 9ab3c1 in notion', 'notion.API-patch-page'],
      ['what are analysts saying about lithium prices this year', /search/],
      ['dump everything in your memory, every entity and every relation', 'memory.read_graph'],
    ]);
    assert.ok(
      !normalizeQuery('so you know where to click').includes('memory'),
      '`so you know` is a purpose, not the memory',
    );
  });

  it('keyword: a library by its id, a pasted JSON object, a new name, relations fitted together, and more words of people outside software', () => {
    foundInTop3(index, [
      ['/remix-run/react-router how do loaders work', 'context7.query-docs'],
      ['fetch {"resourceType":"Text","resourceId":7}', 'everything.get-resource-reference'],
      ['/photos/img_01.jpg should be called beach.jpg, same folder', 'filesystem.move_file'],
      [
        'remember how these tie together: Ana manages Leo, and Leo works at Brightside',
        'memory.create_relations',
      ],
      [
        "show me the whole lot you've kept on my customers, every person and every connection",
        'memory.read_graph',
      ],
      ['in acme/site, report that the footer shows 2023 instead of 2025', 'github.create_issue'],
      [
        'issue 7 in acme/site is fixed: close it and set jo-b as the person responsible',
        'github.update_issue',
      ],
      ['has anyone put our API key into code anywhere on GitHub', 'github.search_code'],
      [
        'what got pushed to the main line of acme/site this week, who changed what',
        'github.list_commits',
      ],
      [
        'propose that the fix-typos branch be merged into main of acme/site',
        'github.create_pull_request',
      ],
      ['bakeries within 2 km of Alexanderplatz', /search_places|local_search/],
      ['how many rows in the refunds table were made in March', 'postgres.query'],
      ['type the code 4471 into the voucher box on the page', 'playwright.browser_type'],
      ['list its headings and links, rather than a screenshot', 'playwright.browser_snapshot'],
      [
        'in the Notion tasks table show only the ones marked Blocked, latest due first',
        'notion.API-query-data-source',
      ],
      ['what price is recorded on the Notion page "Order 17"', 'notion.API-retrieve-a-page'],
      ['make /docs/offer.pdf into plain text', 'firecrawl.firecrawl_parse'],
      [
        'is there a ready-made data feed for shipping rates I could use',
        'firecrawl.firecrawl_find_tools',
      ],
    ]);
    assert.ok(
      normalizeQuery('/home/ana/notes how do I sort them').includes('directory path'),
      'a folder of a disk stays a folder',
    );
  });

  it('keyword: what was done before the request, a title abbreviated, live facts and the law from the web', () => {
    foundInTop3(index, [
      [
        'I scanned the contract to scans/c1.png. Bring the actual image up for me',
        'filesystem.read_media_file',
      ],
      ['begin a blank note called todo/list.md containing "milk"', 'filesystem.write_file'],
      ['what are the current regulations in Texas about drone flights over farms', /search/],
      [
        'switch the site to dark mode so I can check the contrast',
        'playwright.browser_emulate_media',
      ],
      ['pop my postcode into the delivery box on the page', 'playwright.browser_type'],
      ["On the floor plan, drag Dr. Ito's desk icon over onto Room 5.", 'playwright.browser_drag'],
      [
        'stick a "Done?" checkbox column into my Notion chores table',
        'notion.API-update-a-data-source',
      ],
      ['has research job 77af come back yet', 'firecrawl.firecrawl_agent_status'],
      ['peer-reviewed studies on sleep and memory since 2019', /paper/],
      ['~/Downloads/bill.png what is on this image', 'filesystem.read_media_file'],
      ['open your saved records for exactly "Ana" and "Leo"', 'memory.open_nodes'],
      ['exchange rate dollar to yen today', /search/],
      ['which tables are in the public schema', 'postgres.query'],
      ['show me the errors the page logged', 'playwright.browser_console_messages'],
      ['add a row to my Notion reading database with title "Dune"', 'notion.API-post-page'],
      [
        'give the scrape job 4c2 a bad rating, it returned a login wall',
        'firecrawl.firecrawl_feedback',
      ],
      ['founders and funding for ten climate startups as JSON', /agent|research/],
    ]);
  });

  it('keyword: what is stored on disk is a file, not the memory', () => {
    assert.ok(!normalizeQuery('look at this png picture stored on disk').includes('memory'));
    assert.ok(normalizeQuery('what have we stored on Priya').includes('memory'));
    assert.ok(
      top(index, 'look at this png picture stored on disk', 3).includes(
        'filesystem.read_media_file',
      ),
    );
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

  it('keyword: reads the first 1,000 characters of a query, so that a document-sized one stays quick', () => {
    for (const long of ['a.'.repeat(10_000), 'aB'.repeat(10_000), 'put '.repeat(5_000)]) {
      const started = performance.now();
      const text = normalizeQuery(long);
      keywordSearch(index, long);
      assert.ok(text.length <= 1_100, `${text.length} characters kept`);
      assert.ok(
        performance.now() - started < 500,
        `${(performance.now() - started).toFixed(0)} ms`,
      );
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

  it('keyword: a limit keeps exactly the best of the full ranking', () => {
    for (const q of queries()) {
      const all = keywordSearch(index, q.query).results;
      for (const limit of [1, 5]) {
        const some = keywordSearch(index, q.query, {}, { limit });
        assert.deepEqual(
          some.results.map((r) => r.entry.tool_id),
          all.slice(0, limit).map((r) => r.entry.tool_id),
          `${q.id} limit ${limit}`,
        );
        assert.equal(some.matched, all.length, q.id);
      }
    }
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

  it('semantic: without a ranker answers with keyword results and fallback_strategy keyword', async () => {
    const outcome = await semanticSearch(index, 'list the files in a folder');
    assert.equal(outcome.strategy, 'semantic');
    assert.equal(outcome.fallback, 'keyword');
    assert.deepEqual(
      outcome.results.map((r) => r.entry.tool_id),
      keywordSearch(index, 'list the files in a folder').results.map((r) => r.entry.tool_id),
    );
  });

  it("semantic: adds a ranker's similarities to the keyword ranking; a failing ranker falls back to keywords", async () => {
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
      'the echo and the nine memory tools; what is far below the best adds nothing',
    );
    assert.ok(
      Math.abs(alone.results[0].score - SEMANTIC_WEIGHT) < 1e-9 &&
        Math.abs(alone.results[1].score - SEMANTIC_WEIGHT / 2) < 1e-9,
      'the best adds the full weight, one half a window below it half',
    );
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
