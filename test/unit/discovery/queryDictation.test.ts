import { strict as assert } from 'node:assert';
import { spokenNumber, undictate } from '../../../client/src/kernel/search';

describe('discovery: dictated requests read as typed', () => {
  it('numbers in words become digits; a small number alone stays a word', () => {
    assert.equal(spokenNumber('twenty twenty five'), '2025');
    assert.equal(spokenNumber('forty point seven four eight'), '40.748');
    assert.equal(spokenNumber('one hundred and twenty'), '120');
    assert.equal(spokenNumber('two thousand twenty three'), '2023');
    assert.equal(spokenNumber('four five six'), '456');
    assert.equal(spokenNumber('ninety nine'), '99');
    assert.equal(
      undictate('load the three SQL migrations'),
      'load the three SQL migrations',
      '`three files` is how anyone writes it',
    );
    assert.equal(undictate('PR number four hundred twelve'), 'PR number 412');
  });

  it('spoken symbols join the words around them; a dot on a map stays a word', () => {
    assert.equal(undictate('open vercel slash next dot js'), 'open vercel/next.js');
    assert.equal(undictate('branch feature slash dark dash mode'), 'branch feature/dark-mode');
    assert.equal(
      undictate('the dark hyphen mode toggle'),
      'the dark-mode toggle',
      'any spoken symbol alone is enough to read the request again',
    );
    assert.equal(undictate('list slash var slash log'), 'list /var/log');
    assert.equal(undictate('read config underscore prod dot yaml'), 'read config_prod.yaml');
    assert.equal(
      undictate('h t t p s colon slash slash example dot com slash blog'),
      'https://example.com/blog',
    );
    assert.equal(undictate('the red dot on the map'), 'the red dot on the map');
  });

  it('letters spelled one by one make the word they spell, after a word of their own', () => {
    assert.equal(undictate('open a p r from my branch'), 'open a pr from my branch');
    assert.equal(undictate('every y c backed startup'), 'every yc backed startup');
    assert.equal(
      undictate('is it a b or c'),
      'is it a b or c',
      'letters that spell nothing known stay letters',
    );
  });
});
