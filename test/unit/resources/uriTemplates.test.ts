import { strict as assert } from 'node:assert';
import {
  expandTemplate,
  templateVariables,
} from '../../../client/src/kernel/connection/uriTemplates';

describe('resource templates (RFC 6570)', () => {
  it('names each variable once, in order, without operators or modifiers', () => {
    assert.deepEqual(templateVariables('demo://resource/dynamic/text/{resourceId}'), [
      'resourceId',
    ]);
    assert.deepEqual(templateVariables('file:///{+path}{?q,lang}{#frag}'), [
      'path',
      'q',
      'lang',
      'frag',
    ]);
    assert.deepEqual(templateVariables('x://{list*}/{var:3}/{/list*,var}'), ['list', 'var']);
    assert.deepEqual(templateVariables('no://variables/here'), []);
  });

  it('expands with the escaping each operator asks for (RFC 6570 §3.2)', () => {
    const values = { var: 'value', hello: 'Hello World!', path: '/foo/bar', q: 'a b' };
    assert.equal(expandTemplate('x://{var}', values), 'x://value');
    assert.equal(expandTemplate('x://{hello}', values), 'x://Hello%20World%21');
    assert.equal(expandTemplate('x://{+path}/here', values), 'x:///foo/bar/here');
    assert.equal(expandTemplate('x://s{?q,var}', values), 'x://s?q=a%20b&var=value');
    assert.equal(expandTemplate('x://{var:3}', values), 'x://val');
    // A value with a slash cannot climb out of its path segment.
    assert.equal(expandTemplate('x://a/{var}', { var: '../etc' }), 'x://a/..%2Fetc');
    // A variable left out expands to nothing.
    assert.equal(expandTemplate('x://s{?q}', {}), 'x://s');
  });
});
