import { strict as assert } from 'node:assert';
import { cursorContext, splitDottedKey, tablePathAt } from '../../server/src/cursor';
import { parseTomlDocument } from '@shared/configCheck/parse';
import { locate } from '@shared/configCheck/pointers';
import { suggest } from '@shared/configCheck/suggest';

function mapOf(text: string) {
  const parsed = parseTomlDocument(text);
  assert.ok(parsed.ok);
  return parsed.pointers;
}

const span = (
  r:
    | { start: { line: number; character: number }; end: { line: number; character: number } }
    | undefined,
) => r && `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;

describe('TOML parsing with ranges', () => {
  it('reports a syntax error at its 0-based position', () => {
    const parsed = parseTomlDocument('a = 1\nb = "open\n');
    assert.equal(parsed.ok, false);
    if (!parsed.ok) assert.deepEqual(parsed.diagnostic.range.start, { line: 1, character: 9 });
  });

  it('maps keys, values and headers of array tables, sub-tables, dotted keys, arrays and inline tables', () => {
    const map = mapOf(
      '[[servers]]\nid = "a"\nenv.X = "1"\nargs = ["p", { k = 2 }]\n[servers.mgp]\ntrust_level = "standard"\n[[servers]]\nid = "b"\n',
    );
    assert.equal(span(map.get('/servers/0')?.header), '0:0-0:11');
    assert.equal(span(map.get('/servers/0/id')?.key), '1:0-1:2');
    assert.equal(span(map.get('/servers/0/id')?.value), '1:5-1:8');
    assert.equal(span(map.get('/servers/0/env/X')?.value), '2:8-2:11');
    assert.equal(span(map.get('/servers/0/args/1/k')?.value), '3:19-3:20');
    assert.equal(span(map.get('/servers/0/mgp')?.header), '4:0-4:13');
    assert.equal(span(map.get('/servers/0/mgp/trust_level')?.value), '5:14-5:24');
    assert.equal(span(map.get('/servers/1')?.header), '6:0-6:11');
  });

  it('falls back to the nearest ancestor for a pointer with no range of its own', () => {
    const map = mapOf('[[servers]]\nid = "a"\n');
    assert.equal(span(locate(map, '/servers/0/command', ['value'])), '0:0-1:8');
    assert.equal(span(locate(map, '/servers/0/command', ['header'])), '0:0-0:11');
  });
});

describe('cursor context (works on text that does not parse)', () => {
  const text =
    '[[servers]]\nid = "a"\n[[servers]]\nid = "b"\n[servers.mgp]\nrestart_policy = "on\n\n';

  it('resolves array tables to their index', () => {
    assert.deepEqual(tablePathAt(text.split('\n'), 1), ['servers', 0]);
    assert.deepEqual(tablePathAt(text.split('\n'), 3), ['servers', 1]);
    assert.deepEqual(tablePathAt(text.split('\n'), 6), ['servers', 1, 'mgp']);
  });

  it('tells keys from values', () => {
    assert.deepEqual(cursorContext(text, 6, 0), {
      kind: 'key',
      tablePath: ['servers', 1, 'mgp'],
      prefix: '',
    });
    assert.deepEqual(cursorContext(text, 5, 20), {
      kind: 'value',
      tablePath: ['servers', 1, 'mgp'],
      keyPath: ['restart_policy'],
      inArray: false,
      prefix: 'on',
    });
    assert.deepEqual(cursorContext('a = ["x", "y', 0, 12), {
      kind: 'value',
      tablePath: [],
      keyPath: ['a'],
      inArray: true,
      prefix: 'y',
    });
    assert.equal(cursorContext('[serv', 0, 5).kind, 'header');
    const multiLine =
      '[[servers]]\nid = "a"\n[servers.mgp]\nextensions = [\n  "security",\n  "str\n';
    assert.deepEqual(cursorContext(multiLine, 5, 6), {
      kind: 'value',
      tablePath: ['servers', 0, 'mgp'],
      keyPath: ['extensions'],
      inArray: true,
      prefix: 'str',
    });
    assert.equal(cursorContext('a = [1, 2]\n\n', 1, 0).kind, 'key');
  });

  it('splits dotted and quoted keys', () => {
    assert.deepEqual(splitDottedKey('servers.mcpl.scopes."files.edit"'), [
      'servers',
      'mcpl',
      'scopes',
      'files.edit',
    ]);
  });
});

describe('did you mean', () => {
  it('suggests close names only', () => {
    assert.equal(suggest('comand', ['command', 'args']), 'command');
    assert.equal(suggest('on-failure', ['never', 'on_failure', 'always']), 'on_failure');
    assert.equal(suggest('stdoi', ['stdio', 'http', 'sse']), 'stdio');
    assert.equal(suggest('teleport', ['filesystem.read', 'shell.execute']), undefined);
  });
});
