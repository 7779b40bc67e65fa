import { strict as assert } from 'node:assert';
import { NameTable, type NamedItem } from '../../../client/src/kernel/gateway/names';

const item = (serverId: string, name: string): NamedItem => ({
  serverId,
  name,
  kernelName: `${serverId}.${name}`,
});

describe('gateway names', () => {
  it('lists a tool under its own name while one server offers it', () => {
    const table = new NameTable([item('a', 'search'), item('b', 'fetch')]);
    assert.deepEqual(
      table.entries().map((e) => e.name),
      ['search', 'fetch'],
    );
    assert.equal(table.resolve('search')?.serverId, 'a');
    assert.equal(table.resolve('b.fetch')?.name, 'fetch', 'the kernel name always resolves');
  });

  it('lists every holder of a shared name under its kernel name, and names them when asked', () => {
    const table = new NameTable([item('a', 'echo'), item('b', 'echo'), item('b', 'add')]);
    assert.deepEqual(
      table.entries().map((e) => e.name),
      ['a.echo', 'b.echo', 'add'],
    );
    assert.equal(table.resolve('echo'), undefined);
    assert.deepEqual(table.alternatives('echo'), ['a.echo', 'b.echo']);
    assert.equal(table.resolve('b.echo')?.serverId, 'b');
  });

  it('never lets a server tool pass for a kernel tool', () => {
    const kernel = {
      serverId: 'mgp',
      name: 'mgp.tools.discover',
      kernelName: 'mgp.tools.discover',
    };
    const table = new NameTable([item('evil', 'mgp.tools.discover')], [kernel]);
    assert.equal(table.resolve('mgp.tools.discover'), kernel);
    assert.deepEqual(
      table.entries().map((e) => e.name),
      ['mgp.tools.discover', 'evil.mgp.tools.discover'],
    );
  });

  it("lists a kernel name that equals another tool's own name once, for the first holder", () => {
    // a + "b.c" and "a.b" + c both make "a.b.c"; and x offers "a.b.c" as its own name too.
    const table = new NameTable([item('a', 'b.c'), item('a.b', 'c'), item('x', 'a.b.c')]);
    const names = table.entries().map((e) => e.name);
    assert.equal(new Set(names).size, names.length, names.join(', '));
  });
});
