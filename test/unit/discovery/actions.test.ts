import { strict as assert } from 'node:assert';
import {
  ACTION_MISMATCH,
  createToolIndex,
  keywordSearch,
} from '../../../client/src/kernel/discovery';
import {
  actionsDiffer,
  requestAction,
  splitWords,
  toolAction,
} from '../../../client/src/kernel/search';
import { corpusIndex, tool } from './fixtures';

describe('discovery: what a request asks to do and what a tool does', () => {
  it('a request acts by its leading verb; a question reads; a delete verb anywhere deletes', () => {
    assert.equal(requestAction('show the recent commits'), 'read');
    assert.equal(requestAction('please add a column to the table'), 'write');
    assert.equal(requestAction('can you show the weather'), 'read', 'after politeness');
    assert.equal(
      requestAction('when was package.json last modified'),
      'read',
      'a participle in a question is no request to write',
    );
    assert.equal(requestAction('how do I create a branch'), 'write');
    assert.equal(requestAction('which files were removed'), 'read');
    assert.equal(requestAction('merge it, then drop the branch'), 'delete');
    assert.equal(
      requestAction('count the rows in the users table'),
      undefined,
      'no verb it knows: no action',
    );
    assert.equal(requestAction('open the report'), undefined, '`open` is ambiguous');
    assert.equal(
      requestAction('is local.yml newer than prod.yml'),
      'read',
      'a yes-no question reads',
    );
    assert.equal(requestAction('is there a way to delete the branch'), 'delete');
    assert.equal(
      requestAction('is there a way to add a column'),
      'write',
      'the verb after `is there a way to` says what',
    );
    assert.equal(
      requestAction('find the typo and fix it, then save the file'),
      undefined,
      'two clauses, two actions',
    );
    assert.equal(requestAction('find the log and show it'), 'read');
  });

  it('a tool acts by the verb its name leads with', () => {
    assert.equal(toolAction(splitWords('slack_get_users')), 'read');
    assert.equal(toolAction(splitWords('API-patch-block-children')), 'write');
    assert.equal(toolAction(splitWords('firecrawl_monitor_delete')), 'delete');
    assert.equal(toolAction(splitWords('browser_take_screenshot')), undefined);
  });

  it('actions differ when the tool does what was not asked', () => {
    assert.ok(actionsDiffer('read', 'write'));
    assert.ok(actionsDiffer('read', 'delete'));
    assert.ok(actionsDiffer('write', 'delete'));
    assert.ok(actionsDiffer('write', 'read'));
    assert.ok(
      !actionsDiffer('delete', 'write'),
      'deleting often goes by an update (archive, close)',
    );
    assert.ok(!actionsDiffer('read', 'read'));
    assert.ok(!actionsDiffer(undefined, 'delete'));
    assert.ok(!actionsDiffer('read', undefined));
  });

  it('ranks a tool that does what the request asks above one that matches the same words', () => {
    const index = createToolIndex();
    index.upsertServer('notes', [
      tool('create_note', 'Create a note with a title'),
      tool('get_note', 'Get a note by its title'),
    ]);
    const ids = (q: string, options = {}) =>
      keywordSearch(index, q, {}, options)
        .results.slice(0, 2)
        .map((r) => r.entry.tool_id);
    assert.deepEqual(ids('which note has the title Groceries'), [
      'notes.get_note',
      'notes.create_note',
    ]);
    assert.deepEqual(ids('write a note titled Groceries'), ['notes.create_note', 'notes.get_note']);
    const score = (options = {}) =>
      keywordSearch(index, 'which note has the title Groceries', {}, options).results.find(
        (r) => r.entry.name === 'create_note',
      )?.score ?? 0;
    assert.ok(
      Math.abs(score() - ACTION_MISMATCH * score({ actionMismatch: 1 })) < 1e-9,
      'the factor multiplies the score',
    );
  });

  it('on the corpus: a request that deletes nothing does not get a delete tool first', () => {
    const top = keywordSearch(corpusIndex(), 'note an extra fact about Alice: she prefers tea')
      .results.slice(0, 1)
      .map((r) => r.entry.tool_id);
    assert.deepEqual(
      top,
      ['memory.add_observations'],
      'not delete_observations: nothing asks to delete',
    );
  });
});
