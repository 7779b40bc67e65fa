import { strict as assert } from 'node:assert';
import { keywordSearch } from '../../../client/src/kernel/discovery';
import { corpusIndex, studiedQueries } from '../../unit/discovery/fixtures';

// Every studied request, each searched four times: about 20,000 searches.
describe('discovery: search strategies and filters, over every studied request', () => {
  const index = corpusIndex();

  it('keyword: a limit keeps exactly the best of the full ranking', () => {
    for (const q of studiedQueries()) {
      const all = keywordSearch(index, q.query).results;
      for (const limit of [1, 5, 20]) {
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
});
