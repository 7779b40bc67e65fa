import { strict as assert } from 'node:assert';
import {
  createToolIndex,
  keywordSearch,
  planQuery,
  THESAURUS_WEIGHT,
} from '../../../client/src/kernel/discovery';
import { relatedStems } from '../../../client/src/kernel/search';
import { tool } from './fixtures';

describe('discovery: the general thesaurus for words the index does not know', () => {
  it('relates a stem to the stems of its first senses (near) and of later senses and hypernyms (far)', () => {
    const grab = relatedStems('grab');
    assert.ok(grab?.near.includes('catch'));
    assert.ok(grab?.far.includes('take'));
    assert.ok(relatedStems('fake')?.far.includes('simul'));
    assert.equal(relatedStems('zzzq'), undefined);
  });

  it('expands only query words no tool has, with the terms that some tool has, in the word’s group', () => {
    const index = createToolIndex();
    index.upsertServer('shots', [
      tool('take_screenshot', 'Take a screenshot of the page'),
      tool('catch_errors', 'Catch page errors'),
    ]);
    const plan = planQuery(index, 'grab the page');
    const grab = plan.find((t) => t.term === 'grab');
    assert.deepEqual(
      plan.find((t) => t.term === 'catch'),
      { term: 'catch', weight: THESAURUS_WEIGHT, group: grab?.group },
    );
    assert.deepEqual(
      plan.find((t) => t.term === 'take'),
      { term: 'take', weight: THESAURUS_WEIGHT / 2, group: grab?.group },
    );
    assert.ok(!plan.some((t) => t.term === 'snatch'), 'a related word no tool has is left out');
    assert.ok(
      !planQuery(index, 'catch the page').some((t) => t.term === 'grab' || t.term === 'captur'),
      'a known word is not expanded',
    );
    assert.ok(
      !planQuery(index, 'grab the page', { thesaurus: false }).some((t) => t.term === 'catch'),
    );
    assert.equal(
      keywordSearch(index, 'grab the page').results[0].entry.tool_id,
      'shots.catch_errors',
      'a near word weighs more than a far one',
    );
  });
});
