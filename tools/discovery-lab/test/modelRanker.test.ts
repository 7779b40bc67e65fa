import { strict as assert } from 'node:assert';
import {
  createToolIndex,
  semanticSearch,
  type ToolIndex,
} from '../../../client/src/kernel/discovery';
import { corpusIndex, tool } from '../../../test/unit/discovery/fixtures';
import {
  loadStaticModel,
  ModelRanker,
  toolVector,
  toolVectors,
  type ToolVectorSource,
} from '../model/modelRanker';

const TRANSLATE = tool('translate_text', 'Translate a document into another language, e.g. French');

function docOf(index: ToolIndex, toolId: string): number {
  return index.docOf(index.get(toolId)!) as number;
}

describe('lab: the static model ranker follows the index', () => {
  const model = loadStaticModel();

  it('embeds a batch of tools as one by one, fields shared between tools or not', () => {
    const texts = [
      { name: 'read_file', lead: 'Read a file from disk', params: 'path The file path' },
      { name: 'write_file', lead: 'Write a file to disk', params: 'path The file path' },
      { name: 'read_file', lead: 'Fetch a document', params: 'path The file path' },
      { name: 'list_issues', lead: 'Read a file from disk', params: 'repo owner state' },
      { name: 'read_file', lead: 'Read a file from disk', params: 'path The file path' },
    ];
    const batch = toolVectors(model, texts);
    assert.equal(batch.length, texts.length);
    texts.forEach((t, i) => assert.deepEqual(batch[i], toolVector(model, t), `tool ${i}`));
    assert.notDeepEqual(batch[0], batch[2]);
    assert.notStrictEqual(batch[0], batch[4], 'each tool has a vector of its own');
  });

  it('finds a new server, forgets a removed one, and leaves a disconnected one out', async () => {
    const index = corpusIndex();
    const ranker = new ModelRanker({ load: () => model });
    const visible = (doc: number) => index.visibleAt(doc);
    const query = 'put this letter into french';
    index.upsertServer('translator', [TRANSLATE]);
    const nearest = async () =>
      (await ranker.match(query, index, visible, 3)).nearest.map((n) => index.keyAt(n.doc));
    assert.ok((await nearest()).includes('translator.translate_text'));
    index.setServerStatus('translator', 'disconnected');
    assert.ok(!(await nearest()).includes('translator.translate_text'));
    index.setServerStatus('translator', 'connected');
    assert.ok((await nearest()).includes('translator.translate_text'));
    index.removeServer('translator');
    assert.ok(!(await nearest()).includes('translator.translate_text'));
  });

  it('embeds a changed tool anew, each distinct text once, on the source it is given', async () => {
    const texts: string[] = [];
    const source: ToolVectorSource = async (batch) => {
      texts.push(...batch.map((t) => t.name));
      return batch.map((t) => toolVector(model, t));
    };
    const index = createToolIndex();
    const ranker = new ModelRanker({ load: () => model, source });
    index.upsertServer('a', [TRANSLATE]);
    index.upsertServer('b', [TRANSLATE]);
    await ranker.warm(index);
    assert.equal(texts.filter((t) => t.startsWith('translate_text')).length, 1, 'shared text');
    const before = (await ranker.match('french', index, () => true, 1)).similarityAt(
      docOf(index, 'a.translate_text'),
    );
    index.upsertServer('a', [tool('translate_text', 'Count the words of a text')]);
    const after = (await ranker.match('french', index, () => true, 1)).similarityAt(
      docOf(index, 'a.translate_text'),
    );
    assert.notEqual(after, before);
  });

  it('searches at once on one ranker each fuse with their own query', async () => {
    const index = corpusIndex();
    const ranker = new ModelRanker({ load: () => model });
    const queries = ['read a file from disk', 'open a pull request', 'take a browser screenshot'];
    const ids = (outcome: Awaited<ReturnType<typeof semanticSearch>>) =>
      outcome.results.map((r) => `${r.entry.tool_id} ${r.score}`);
    const alone = [];
    for (const q of queries)
      alone.push(ids(await semanticSearch(index, q, {}, { semantic: ranker, limit: 10 })));
    const together = await Promise.all(
      queries.map((q) => semanticSearch(index, q, {}, { semantic: ranker, limit: 10 })),
    );
    assert.deepEqual(together.map(ids), alone);
  });

  it('a failing source makes the semantic strategy fall back to keywords, and is tried again', async () => {
    let fail = true;
    const source: ToolVectorSource = async (batch) => {
      if (fail) throw new Error('the vector source failed');
      return batch.map((t) => toolVector(model, t));
    };
    const index = createToolIndex();
    index.upsertServer('translator', [TRANSLATE]);
    const ranker = new ModelRanker({ load: () => model, source });
    const first = await semanticSearch(index, 'translate', {}, { semantic: ranker });
    assert.equal(first.fallback, 'keyword');
    fail = false;
    const second = await semanticSearch(index, 'translate', {}, { semantic: ranker });
    assert.equal(second.fallback, undefined);
    assert.equal(second.results[0].entry.tool_id, 'translator.translate_text');
  });
});
