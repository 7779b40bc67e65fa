import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentCaller } from '../../client/src/kernel/agent/identity';
import { stateDirectory } from '../../client/src/kernel/audit/location';
import { gatewayTools } from '../../client/src/kernel/gateway/toolListing';
import { KernelError, TOOL_DISABLED } from '../../client/src/kernel/domain/errors';
import { GatewayWorkspace, stdioGateway } from './support/gatewayProcess';
import { refusalResult } from './support/refusals';
import { exampleServer, node, startKernel, TestKernel, textOf } from './support/kernelHarness';

const toml = `[[servers]]
id = "example"
command = ${node}
args = [${exampleServer}]

[[servers]]
id = "second"
command = ${node}
args = [${exampleServer}]
`;

async function refusal(call: Promise<unknown>): Promise<KernelError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof KernelError) return error;
    throw error;
  }
  assert.fail('the call was not refused');
}

/** The tool ids `mgp.tools.discover` answers for a query, asked as an agent (as the LM tools ask). */
async function discovered(t: TestKernel, query: string): Promise<string[]> {
  const outcome = await t.kernel.call({
    serverId: 'mgp',
    toolName: 'mgp.tools.discover',
    args: { query, max_results: 50 },
    caller: agentCaller('agent.copilot'),
  });
  const tools = (outcome.result.structuredContent?.tools ?? []) as { tool_id: string }[];
  return tools.map((tool) => tool.tool_id);
}

describe('turning tools and servers off (switches)', function () {
  this.timeout(60000);
  let t: TestKernel;
  afterEach(async () => t?.dispose());

  it('a tool turned off is refused (4002, audited), and gone from discovery, tools() and the gateway listing', async () => {
    t = await startKernel(toml);
    assert.ok((await discovered(t, 'echo a message')).includes('example.echo'));
    await t.kernel.switchboard.setTool('example', 'echo', false);

    const error = await refusal(
      t.kernel.call({ serverId: 'example', toolName: 'echo', args: { text: 'hi' } }),
    );
    assert.equal(error.wireCode, TOOL_DISABLED);
    assert.match(error.message, /example\.echo is turned off/);
    const blocked = (await t.ofType('TOOL_BLOCKED')).at(-1);
    assert.equal(blocked?.result, 'DISABLED');
    assert.equal(blocked?.target.tool_name, 'echo');
    assert.equal(blocked?.details.reason, 'tool_turned_off');
    const switched = (await t.ofType('dev.mgp-kernel.switched')).at(-1);
    assert.equal(switched?.result, 'DISABLED');
    assert.deepEqual(switched?.target, { server_id: 'example', tool_name: 'echo' });

    assert.ok(!(await discovered(t, 'echo a message')).includes('example.echo'));
    const listed = t.kernel.tools().map((e) => `${e.serverId}.${e.name}`);
    assert.ok(!listed.includes('example.echo'));
    assert.ok(listed.includes('second.echo'), 'the same tool of another server stays');
    assert.ok(listed.includes('example.add'), 'the server’s other tools stay');
    const gateway = gatewayTools(t.kernel);
    assert.equal(gateway.resolve('example.echo'), undefined);
    assert.ok(gateway.resolve('second.echo'));
    assert.equal(t.kernel.approvalVerdict('example', 'echo'), undefined, 'nobody is asked');

    // The other server's echo still runs.
    const other = await t.kernel.call({
      serverId: 'second',
      toolName: 'echo',
      args: { text: 'hi' },
    });
    assert.match(textOf(other.result), /hi/);

    await t.kernel.switchboard.setTool('example', 'echo', true);
    assert.ok((await discovered(t, 'echo a message')).includes('example.echo'));
    const again = await t.kernel.call({
      serverId: 'example',
      toolName: 'echo',
      args: { text: 'back' },
    });
    assert.match(textOf(again.result), /back/);
  });

  it('a server turned off stops, does not start again, and its switch outlives the kernel', async () => {
    t = await startKernel(toml);
    assert.equal(t.kernel.manager.get('second').state, 'connected');
    await t.kernel.switchboard.setServer('second', false);
    assert.equal(t.kernel.manager.get('second').state, 'disconnected');
    assert.match(t.kernel.manager.get('second').heldBack ?? '', /turned off/);
    await assert.rejects(t.kernel.manager.start('second'), /may not start: turned off/);
    const error = await refusal(
      t.kernel.call({ serverId: 'second', toolName: 'echo', args: { text: 'hi' } }),
    );
    assert.equal(error.wireCode, TOOL_DISABLED);
    assert.equal((await t.ofType('TOOL_BLOCKED')).at(-1)?.details.reason, 'server_turned_off');
    assert.ok(!t.kernel.tools().some((e) => e.serverId === 'second'));

    // A new kernel on the same state folder (the next window, or `mgp` in the folder) keeps it off.
    const dir = t.dir;
    await t.stop();
    t = await startKernel(toml, { dir });
    assert.equal(t.kernel.manager.get('example').state, 'connected');
    assert.equal(t.kernel.manager.get('second').state, 'registered');
    assert.match(t.kernel.manager.get('second').heldBack ?? '', /turned off/);

    await t.kernel.switchboard.setServer('second', true);
    assert.equal(t.kernel.manager.get('second').state, 'connected');
    const back = await t.kernel.call({
      serverId: 'second',
      toolName: 'echo',
      args: { text: 'on' },
    });
    assert.match(textOf(back.result), /on/);
  });

  it('mgp serve reads the same switches: the tool is not listed, and a call by name is refused as turned off', async () => {
    const workspace = new GatewayWorkspace(toml);
    const state = stateDirectory({
      workspaceFolder: workspace.dir,
      env: workspace.env,
      home: workspace.dir,
    });
    mkdirSync(state, { recursive: true });
    writeFileSync(
      join(state, 'switches.json'),
      JSON.stringify({ version: 1, servers: ['second'], tools: { example: ['echo'] } }),
    );
    const gateway = await stdioGateway(workspace, ['--expose', 'all']);
    try {
      const names = (await gateway.client.listTools()).tools.map((tool) => tool.name);
      assert.ok(names.includes('example__add'), names.join(', '));
      assert.ok(!names.some((name) => /echo/.test(name)), names.join(', '));
      assert.ok(!names.some((name) => name.startsWith('second__')), names.join(', '));
      const refused = await refusalResult(
        gateway.client.callTool({ name: 'example.echo', arguments: { text: 'hi' } }),
      );
      assert.equal(refused.code, 4002);
      assert.match(refused.violations[0], /turned off/);
    } finally {
      await gateway.close();
    }
    const records = await workspace.audit();
    const blocked = records.filter((r) => r.event_type === 'TOOL_BLOCKED').at(-1);
    assert.equal(blocked?.details.reason, 'tool_turned_off');
    workspace.remove();
  });
});
