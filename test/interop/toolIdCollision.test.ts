/**
 * Issue 24 (19): two real servers whose ids and tool names join to one dotted string: the tool
 * `cleanup.temp` of server `files` and the tool `temp` of server `files.cleanup` were both
 * `files.cleanup.temp`, and one hid the other. Discovery, pins and the gateway keep both apart.
 */
import { strict as assert } from 'node:assert';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { fixtureServer, node, startKernel, TestKernel } from './support/kernelHarness';
import { GatewayWorkspace, stdioGateway } from './support/gatewayProcess';

const servers = (pins = { files: '', cleanup: '' }) => `[kernel]
approval_policy = "auto_approve"

[[servers]]
id = "files"
command = ${node}
args = [${fixtureServer('named-tools.js')}, "--tools", "cleanup.temp", "--label", "files"]
${pins.files}

[[servers]]
id = "files.cleanup"
command = ${node}
args = [${fixtureServer('named-tools.js')}, "--tools", "temp", "--label", "files.cleanup"]
${pins.cleanup}
`;

interface Found {
  tool_id: string;
  server_id: string;
  name: string;
}

describe('tool ids of colliding server and tool names (real servers)', function () {
  this.timeout(90000);

  describe('in the kernel', () => {
    let t: TestKernel | undefined;
    after(async () => t?.dispose());

    it('discovers both tools, each under its own id', async () => {
      t = await startKernel(servers());
      const { result } = await t.kernel.call({
        serverId: 'mgp',
        toolName: 'mgp.tools.discover',
        args: { query: 'clean up temporary files', max_results: 10 },
      });
      const found = (result.structuredContent as { tools: Found[] }).tools
        .filter((tool) => tool.server_id.startsWith('files') && tool.name !== 'echo')
        .map((tool) => [tool.server_id, tool.name, tool.tool_id])
        .sort();
      assert.deepEqual(found, [
        ['files', 'cleanup.temp', 'files.cleanup%2Etemp'],
        ['files.cleanup', 'temp', 'files.cleanup.temp'],
      ]);
    });

    it("pins the tools each server's pinned_tools names, both of them", async () => {
      await t?.dispose();
      t = await startKernel(
        servers({ files: 'pinned_tools = ["cleanup.temp"]', cleanup: 'pinned_tools = ["temp"]' }),
      );
      const pinned = t.kernel.discovery.cache
        .pinnedEntries()
        .map((entry) => [entry.server_id, entry.name])
        .sort();
      assert.deepEqual(pinned, [
        ['files', 'cleanup.temp'],
        ['files.cleanup', 'temp'],
      ]);
    });
  });

  describe('through mgp serve --expose all', () => {
    let workspace: GatewayWorkspace;
    let close: () => Promise<void> = async () => undefined;
    after(async () => {
      await close();
      workspace?.remove();
    });

    it('lists both tools under names of their own, and runs each by any of its names', async () => {
      workspace = new GatewayWorkspace(servers());
      const gateway = await stdioGateway(workspace, ['--expose', 'all']);
      close = gateway.close;
      const names = (await gateway.client.listTools()).tools.map((tool) => tool.name);
      const safe = names.filter((name) => !name.startsWith('mgp_'));
      assert.equal(new Set(safe).size, safe.length, names.join(', '));
      for (const name of names) assert.match(name, /^[A-Za-z0-9_-]{1,64}$/);
      const ran = async (name: string) =>
        ((await gateway.client.callTool({ name, arguments: {} })) as CallToolResult)
          .structuredContent;
      const temps = safe.filter((name) => name.includes('temp'));
      const labels = await Promise.all(temps.map(async (name) => JSON.stringify(await ran(name))));
      assert.deepEqual(labels.sort(), [
        '{"label":"files","tool":"cleanup.temp"}',
        '{"label":"files.cleanup","tool":"temp"}',
      ]);
      assert.deepEqual(await ran('files.cleanup%2Etemp'), {
        label: 'files',
        tool: 'cleanup.temp',
      });
      assert.deepEqual(await ran('files.cleanup.temp'), { label: 'files.cleanup', tool: 'temp' });
      assert.deepEqual(await ran('temp'), { label: 'files.cleanup', tool: 'temp' });
    });
  });
});
