import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import {
  EmbeddingRanker,
  embeddingText,
  keywordSearch,
  semanticSearch,
  type ToolIndex,
} from '../../../client/src/kernel/discovery';
import { openAiEmbeddings } from '../../../client/src/kernel/llm/openAiEmbeddings';
import { repoRoot } from '../../repoRoot';
import { corpusIndex } from '../../unit/discovery/fixtures';

interface EmbeddingModel {
  url: string;
  requests: { model: string; input: string[] }[];
  close(): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const fixture = require(join(repoRoot(), 'test/fixtures/models/embeddingModel.js')) as {
  startEmbeddingModel(options: {
    apiKey?: string;
    failWith?: { status: number; body: unknown };
  }): Promise<EmbeddingModel>;
};

// Without the example requests (toolExamples.ts), which would find some of these by their words.
const top5 = async (index: ToolIndex, query: string, ranker: EmbeddingRanker) =>
  (await semanticSearch(index, query, {}, { semantic: ranker, limit: 5 })).results.map(
    (r) => r.entry.tool_id,
  );

describe('discovery: the semantic strategy over a real embedding model (Universal Sentence Encoder behind the OpenAI embeddings API, on loopback)', function () {
  let model: EmbeddingModel;
  let index: ToolIndex;

  before(async () => {
    model = await fixture.startEmbeddingModel({ apiKey: 'sk-embed' });
    index = corpusIndex();
  });
  after(() => model.close());

  it('finds by meaning what the keywords miss, and embeds each tool once', async () => {
    const ranker = new EmbeddingRanker(
      openAiEmbeddings({ baseUrl: model.url, model: 'use', apiKey: 'sk-embed' }),
      { name: 'use' },
    );
    const query = 'network log for the page';
    assert.ok(
      !keywordSearch(index, query, {}, { limit: 5 }).results.some(
        (r) => r.entry.tool_id === 'playwright.browser_network_requests',
      ),
      'the keywords alone miss it',
    );
    const before = model.requests.length;
    const found = await top5(index, query, ranker);
    assert.ok(found.includes('playwright.browser_network_requests'), found.join(', '));
    const tools = index
      .list()
      .filter((e) => !e.kernel || e.name.startsWith('mgp.tools.session')).length;
    const embedded = model.requests.slice(before).reduce((n, r) => n + r.input.length, 0);
    assert.ok(embedded <= tools + 1, `${embedded} texts embedded for ${tools} tools and a query`);
    assert.ok(model.requests.slice(before).every((r) => r.model === 'use'));

    const again = model.requests.length;
    await top5(index, 'show me the console errors', ranker);
    assert.deepEqual(
      model.requests.slice(again).map((r) => r.input),
      [['show me the console errors']],
      'a second query embeds only itself',
    );
  });

  it('a clear keyword match stays first', async () => {
    const ranker = new EmbeddingRanker(
      openAiEmbeddings({ baseUrl: model.url, model: 'use', apiKey: 'sk-embed' }),
    );
    for (const query of [
      'create an issue on github',
      'post a message to a slack channel',
      'geocode this address',
    ]) {
      assert.equal(
        (await top5(index, query, ranker))[0],
        keywordSearch(index, query, {}, { limit: 1 }).results[0].entry.tool_id,
        query,
      );
    }
  });

  it('a refused key or a wrong answer falls back to keywords, says why, and leaves the endpoint alone for a while', async () => {
    const refused = new EmbeddingRanker(
      openAiEmbeddings({ baseUrl: model.url, model: 'use', apiKey: 'wrong' }),
    );
    const outcome = await semanticSearch(
      index,
      'echo this back',
      {},
      { semantic: refused, limit: 3 },
    );
    assert.equal(outcome.fallback, 'keyword');
    assert.equal(
      outcome.results[0].entry.tool_id,
      keywordSearch(index, 'echo this back', {}, { limit: 1 }).results[0].entry.tool_id,
    );
    assert.equal(refused.available(), false);
    assert.match(refused.error ?? '', /401: invalid api key/);
    const asked = model.requests.length;
    assert.equal(
      (await semanticSearch(index, 'echo', {}, { semantic: refused })).fallback,
      'keyword',
    );
    assert.equal(model.requests.length, asked, 'no call while it waits to retry');

    const broken = await fixture.startEmbeddingModel({
      failWith: { status: 200, body: { data: [{ index: 0, embedding: [1, 2] }] } },
    });
    try {
      const wrong = new EmbeddingRanker(openAiEmbeddings({ baseUrl: broken.url, model: 'use' }));
      assert.equal(
        (await semanticSearch(index, 'echo', {}, { semantic: wrong })).fallback,
        'keyword',
      );
      assert.match(wrong.error ?? '', /answered 1 vectors for \d+ texts/);
    } finally {
      await broken.close();
    }
  });

  it('embeds a tool as its name, server and lead sentence', () => {
    const entry = index.list().find((e) => e.tool_id === 'notion.API-post-search')!;
    assert.equal(
      embeddingText(entry),
      'api post search (notion): Notion | Search by title Error Responses: 400: Bad request',
    );
  });
});
