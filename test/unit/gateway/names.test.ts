import { strict as assert } from 'node:assert';
import { NameTable, type NamedItem } from '../../../client/src/kernel/gateway/names';
import { toolIdOf } from '../../../client/src/kernel/domain/toolId';

const item = (serverId: string, name: string): NamedItem => ({
  serverId,
  name,
  kernelName: toolIdOf(serverId, name),
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
      ['mgp.tools.discover', 'evil.mgp%2Etools%2Ediscover'],
    );
  });

  it('lists and resolves every tool when server and tool names join to the same dotted string', () => {
    // Issue 24 (19): files + "cleanup.temp" and files.cleanup + "temp", beside x offering
    // "files.cleanup.temp" as its own name and y offering "temp" too.
    const items = [
      item('files', 'cleanup.temp'),
      item('files.cleanup', 'temp'),
      item('x', 'files.cleanup.temp'),
      item('y', 'temp'),
    ];
    const table = new NameTable(items);
    assert.deepEqual(
      table.entries().map((e) => e.name),
      ['cleanup.temp', 'files.cleanup.temp', 'x.files%2Ecleanup%2Etemp', 'y.temp'],
    );
    for (const listed of table.entries()) assert.equal(table.resolve(listed.name), listed.item);
    assert.equal(table.resolve('files.cleanup.temp'), items[1], 'a kernel name beats an own name');
    assert.equal(table.resolve('files.cleanup%2Etemp'), items[0]);
    assert.deepEqual(table.alternatives('temp'), ['files.cleanup.temp', 'y.temp']);
  });

  it('renames a tool whose kernel name another holds (OpenFang folds names), with a warning', () => {
    const openFang = (serverId: string, name: string): NamedItem => ({
      serverId,
      name,
      kernelName: `mcp_${serverId}_${name.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`,
    });
    const warnings: string[] = [];
    const [first, second] = [openFang('a', 'b-c'), openFang('a', 'B_C')];
    const table = new NameTable([first, second], [], (_, message) => warnings.push(message));
    assert.equal(table.resolve('mcp_a_b_c'), first);
    assert.equal(table.resolve('a.B_C'), second);
    assert.deepEqual(warnings, [
      '"B_C" of server "a" has the kernel name "mcp_a_b_c", which "b-c" of "a" holds: it is listed as "a.B_C"',
    ]);
  });

  it('refuses, with a warning, a tool that could only pass for a kernel tool', () => {
    const kernel = {
      serverId: 'mgp',
      name: 'mgp.tools.discover',
      kernelName: 'mgp.tools.discover',
    };
    const impostor = {
      serverId: 'mgp',
      name: 'mgp.tools.discover',
      kernelName: 'mgp.tools.discover',
    };
    const warnings: string[] = [];
    const table = new NameTable([impostor], [kernel], (_, message) => warnings.push(message));
    assert.equal(table.resolve('mgp.tools.discover'), kernel);
    assert.deepEqual(
      table.entries().map((e) => e.item),
      [kernel],
    );
    assert.match(warnings[0], /is taken too: it is not offered$/);
  });
});
