import { strict as assert } from 'node:assert';
import { KERNEL_TOOLS_TITLE, toolPickGroups } from '../../client/src/vscode/runTool/toolPicks';
import { exampleServer, node, startKernel, TestKernel } from './support/kernelHarness';

/** Run Tool's picker over a real kernel and the example server: the kernel's tools stand apart. */
describe("Run Tool's picker", function () {
  let t: TestKernel | undefined;
  afterEach(async () => t?.dispose());

  it("groups the server's tools under its id and the kernel's own tools apart, last", async () => {
    t = await startKernel(
      `[[servers]]\nid = "example"\ncommand = ${node}\nargs = [${exampleServer}]\n`,
    );
    const groups = toolPickGroups(t.kernel.tools());
    assert.deepEqual(
      groups.map((g) => g.title),
      ['example', KERNEL_TOOLS_TITLE],
    );
    const [server, kernel] = groups;
    assert.ok(server.picks.some((p) => p.label === 'example.add'));
    assert.ok(server.picks.every((p) => p.key.serverId === 'example'));
    assert.ok(kernel.picks.some((p) => p.key.toolName === 'mgp.lifecycle.shutdown'));
    assert.ok(kernel.picks.every((p) => p.key.serverId !== 'example'));
  });
});
