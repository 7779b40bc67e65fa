import { strict as assert } from 'node:assert';
import { NameTable, type NamedItem } from '../../../client/src/kernel/gateway/names';
import { safeName, safeQualifiedName } from '../../../client/src/kernel/gateway/safeNames';
import { toolIdOf } from '../../../client/src/kernel/domain/toolId';

const item = (serverId: string, name: string): NamedItem => ({
  serverId,
  name,
  kernelName: toolIdOf(serverId, name),
});

const kernelTool = (name: string): NamedItem => ({ serverId: 'mgp', name, kernelName: name });
const names = (table: NameTable<NamedItem>, style: 'spec' | 'safe' = 'spec') =>
  table.entries(style).map((e) => e.name);
const SAFE = /^[A-Za-z0-9_-]{1,64}$/;

describe('gateway names', () => {
  it('a gateway for one server lists its tools under their own names', () => {
    const table = new NameTable([item('a', 'search'), item('a', 'fetch')], { qualify: false });
    assert.deepEqual(names(table), ['search', 'fetch']);
    assert.deepEqual(names(table, 'safe'), ['search', 'fetch']);
    assert.equal(table.resolve('search')?.name, 'search');
    assert.equal(table.resolve('a.fetch')?.name, 'fetch', 'the kernel name always resolves');
  });

  it('a gateway for several names every tool by its server, whoever else is up', () => {
    const alone = new NameTable([item('a', 'echo')], { qualify: true });
    const crowded = new NameTable([item('a', 'echo'), item('b', 'echo'), item('b', 'add')], {
      qualify: true,
    });
    assert.deepEqual(names(alone), ['a.echo']);
    assert.deepEqual(names(crowded), ['a.echo', 'b.echo', 'b.add']);
    assert.deepEqual(names(alone, 'safe'), ['a__echo']);
    assert.deepEqual(names(crowded, 'safe'), ['a__echo', 'b__echo', 'b__add']);
    // An own name resolves while one server offers it; a shared one names its holders.
    assert.equal(alone.resolve('echo')?.serverId, 'a');
    assert.equal(crowded.resolve('add')?.serverId, 'b');
    assert.equal(crowded.resolve('echo'), undefined);
    assert.deepEqual(crowded.alternatives('echo'), ['a.echo', 'b.echo']);
    assert.equal(crowded.resolve('b__echo')?.serverId, 'b', 'either style resolves');
  });

  it('kernel tools keep their names: dotted in the spec style, underscored in the safe one', () => {
    const discover = kernelTool('mgp.tools.discover');
    const table = new NameTable([item('a', 'echo')], { fixed: [discover], qualify: true });
    assert.deepEqual(names(table), ['mgp.tools.discover', 'a.echo']);
    assert.deepEqual(names(table, 'safe'), ['mgp_tools_discover', 'a__echo']);
    assert.equal(table.resolve('mgp_tools_discover'), discover);
    assert.equal(table.resolve('mgp.tools.discover'), discover);
  });

  it('never lets a server tool pass for a kernel tool, in either style', () => {
    const discover = kernelTool('mgp.tools.discover');
    const dotted = item('evil', 'mgp.tools.discover');
    const underscored = item('evil', 'mgp_tools_discover');
    const table = new NameTable([dotted, underscored], { fixed: [discover], qualify: false });
    assert.equal(table.resolve('mgp.tools.discover'), discover);
    assert.equal(table.resolve('mgp_tools_discover'), discover);
    assert.deepEqual(names(table), [
      'mgp.tools.discover',
      'evil.mgp%2Etools%2Ediscover',
      'evil.mgp_tools_discover',
    ]);
    for (const name of names(table, 'safe')) assert.match(name, SAFE);
  });

  it('safe names keep to the alphabet and 64 characters, and stay apart', () => {
    const tricky = [
      item('files', 'cleanup.temp'),
      item('files.cleanup', 'temp'),
      item('a', 'b__c'),
      item('a__b', 'c'),
      item('x', 'ünïcode tool'),
      item('server-with-a-rather-long-name', 'and_a_tool_whose_name_goes_on_and_on_forever'),
    ];
    const table = new NameTable(tricky, { qualify: true });
    const safe = names(table, 'safe');
    assert.equal(new Set(safe).size, tricky.length, safe.join(' '));
    for (const name of safe) assert.match(name, SAFE);
    for (const listed of table.entries('safe'))
      assert.equal(table.resolve(listed.name), listed.item);
    assert.equal(safeQualifiedName('a', 'b'), 'a__b');
    assert.equal(safeName('read_file'), 'read_file');
    assert.match(safeName('read.file'), /^read_file_[0-9a-f]{6}$/);
  });

  it('names depend only on the item: the same tool, the same names, in any company', () => {
    const alone = new NameTable([item('git', 'status')], { qualify: true });
    const later = new NameTable([item('files', 'status'), item('git', 'status')], {
      qualify: true,
    });
    const named = (table: NameTable<NamedItem>, style: 'spec' | 'safe') =>
      table.entries(style).find((e) => e.item.serverId === 'git')?.name;
    assert.equal(named(alone, 'spec'), named(later, 'spec'));
    assert.equal(named(alone, 'safe'), named(later, 'safe'));
  });

  it('leaves out, with a warning, an item whose name another holds (OpenFang folds names)', () => {
    const openFang = (serverId: string, name: string): NamedItem => ({
      serverId,
      name,
      kernelName: `mcp_${serverId}_${name.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`,
    });
    const warnings: string[] = [];
    const [first, second] = [openFang('a', 'b-c'), openFang('a', 'B_C')];
    const table = new NameTable([first, second], {
      qualify: true,
      warn: (_, message) => warnings.push(message),
    });
    assert.equal(table.resolve('mcp_a_b_c'), first);
    assert.deepEqual(
      table.entries().map((e) => e.item),
      [first],
    );
    assert.match(warnings[0], /"B_C" of server "a" .* it is not offered$/);
  });
});
