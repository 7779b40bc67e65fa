import { strict as assert } from 'node:assert';
import { LastValidConfig } from '../../client/src/kernel/config/lastValid';
import { mergeConfigFiles, parseConfigText } from '../../client/src/kernel/config/load';
import type { KernelConfig } from '../../client/src/kernel/config/types';

const PATH = '/ws/mgp.toml';
const OTHER = '/home/u/.config/mgp/servers.toml';

function load(text: string, other?: string): KernelConfig {
  const files = [parseConfigText(text, { path: PATH, format: 'mgp', origin: 'workspace' })];
  if (other !== undefined)
    files.push(parseConfigText(other, { path: OTHER, format: 'mgp', origin: 'user' }));
  return mergeConfigFiles(files);
}

const server = (id: string, extra = '') =>
  `[[servers]]\nid = "${id}"\ncommand = "node"\nargs = ["${id}.js"]\n${extra}`;
const VALID = `[kernel]\napproval_policy = "deny_all"\n\n${server('a')}\n${server('b')}\n${server('c')}`;

const summary = (config: KernelConfig) =>
  config.servers.map((s) => `${s.id}:${s.args.join(' ')}`).join(', ');

describe('config: the last valid version stands in for a broken one', () => {
  it('a file with a TOML syntax error keeps all its servers and [kernel] settings, and shows its error', () => {
    const keeper = new LastValidConfig();
    keeper.apply(load(VALID));
    const broken = keeper.apply(load(VALID.replace('args = ["b.js"]', 'args = ["b.js"')));
    assert.equal(summary(broken), 'a:a.js, b:b.js, c:c.js');
    assert.equal(broken.kernel.approvalPolicy, 'deny_all');
    assert.deepEqual(broken.files[0].kept, {
      servers: ['a', 'b', 'c'],
      kernel: true,
      wholeFile: true,
    });
    const errors = broken.problems.filter((p) => p.severity === 'error');
    assert.equal(errors.length, 1);
    assert.match(errors[0].message, /TOML syntax error/);
    assert.ok(errors[0].line >= 12, `the error is at or after the broken line: ${errors[0].line}`);
  });

  it('keeps standing in through several broken saves, and lets go once the file is valid again', () => {
    const keeper = new LastValidConfig();
    keeper.apply(load(VALID));
    keeper.apply(load('[[servers]]\nid = "a'));
    const second = keeper.apply(load('[[servers'));
    assert.equal(summary(second), 'a:a.js, b:b.js, c:c.js');
    const fixed = keeper.apply(load(server('a')));
    assert.equal(summary(fixed), 'a:a.js');
    assert.equal(fixed.files[0].kept, undefined);
    assert.equal(fixed.kernel.approvalPolicy, 'interactive');
  });

  it('a server table invalid for the schema keeps that server only; the others take their edits', () => {
    const keeper = new LastValidConfig();
    keeper.apply(load(VALID));
    const edited = VALID.replace('args = ["b.js"]', 'args = ["b.js"]\ntransprt = "stdio"').replace(
      'args = ["c.js"]',
      'args = ["c2.js"]',
    );
    const next = keeper.apply(load(edited));
    assert.equal(summary(next), 'a:a.js, b:b.js, c:c2.js');
    assert.deepEqual(next.files[0].kept, { servers: ['b'], kernel: false, wholeFile: false });
    const error = next.problems.find((p) => p.severity === 'error');
    assert.equal(error?.key, 'servers[1].transprt');
  });

  it('a server whose id is what is broken is matched by its position', () => {
    const keeper = new LastValidConfig();
    keeper.apply(load(VALID));
    const next = keeper.apply(load(VALID.replace('id = "a"', 'id = 12')));
    assert.equal(summary(next), 'a:a.js, b:b.js, c:c.js');
    assert.deepEqual(next.files[0].kept?.servers, ['a']);
  });

  it('a broken [kernel] table keeps the last valid settings; a new broken server has nothing to keep', () => {
    const keeper = new LastValidConfig();
    keeper.apply(load(VALID));
    const next = keeper.apply(
      load(`${VALID.replace('"deny_all"', '"sometimes"')}\n${server('d', 'transprt = "stdio"\n')}`),
    );
    assert.equal(next.kernel.approvalPolicy, 'deny_all');
    assert.equal(summary(next), 'a:a.js, b:b.js, c:c.js');
    assert.deepEqual(next.files[0].kept, { servers: [], kernel: true, wholeFile: false });
  });

  it('a file broken from the first load has nothing to keep; other files are untouched; a removed file is forgotten', () => {
    const keeper = new LastValidConfig();
    const first = keeper.apply(load('[[servers]]\nid = "a', server('user')));
    assert.equal(summary(first), 'user:user.js');
    assert.equal(first.files[0].kept, undefined);
    keeper.apply(load(VALID, server('user')));
    const removed = keeper.apply(
      mergeConfigFiles([
        parseConfigText(server('user'), { path: OTHER, format: 'mgp', origin: 'user' }),
      ]),
    );
    assert.equal(summary(removed), 'user:user.js');
    const again = keeper.apply(load('[[servers', server('user')));
    assert.equal(summary(again), 'user:user.js', 'the removed file left nothing behind');
  });

  it('an unchanged, valid config passes through as it is', () => {
    const keeper = new LastValidConfig();
    const config = load(VALID);
    assert.equal(keeper.apply(config), config);
  });
});
