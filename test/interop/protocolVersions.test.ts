import { strict as assert } from 'node:assert';
import {
  eventually,
  fixtureServer,
  node,
  startKernel,
  type TestKernel,
} from './support/kernelHarness';

// Protocol-version negotiation (MCP 2025-11-25, lifecycle: version negotiation): the kernel asks for
// the latest version; a server that answers with an older one the kernel supports is used at that
// version, and one that answers with a version the kernel does not know is refused with a clear
// error. The servers are real processes (test/fixtures/servers, `--protocol-version`).

const server = (version: string) =>
  `[[servers]]\nid = "old"\ncommand = ${node}\nargs = [${fixtureServer('params-echo.js')}, "--protocol-version", "${version}"]\n`;

describe('interop: protocol-version negotiation with real servers', function () {
  let t: TestKernel | undefined;
  afterEach(async () => {
    await t?.dispose();
    t = undefined;
  });

  for (const version of ['2025-06-18', '2025-03-26', '2024-11-05']) {
    it(`a server that speaks only ${version} is used at ${version}`, async () => {
      t = await startKernel(server(version));
      const old = t.kernel.manager.find('old')!;
      assert.equal(old.state, 'connected', old.lastError);
      assert.equal(old.liveConnection?.protocolVersion, version);
      const result = await t.kernel.call({
        serverId: 'old',
        toolName: 'echo',
        args: { text: 'hi' },
      });
      assert.notEqual(result.result.isError, true, JSON.stringify(result.result));
      const [connected] = await t.ofType('SERVER_CONNECTED');
      assert.match(JSON.stringify(connected), new RegExp(`"protocol_version":"${version}"`));
    });
  }

  it('a server that answers a version the kernel does not know is refused, and says which', async () => {
    t = await startKernel(server('2023-01-01'));
    const old = t.kernel.manager.find('old')!;
    await eventually(() => old.lastError !== undefined, 'the refusal');
    assert.notEqual(old.state, 'connected');
    assert.match(old.lastError ?? '', /2023-01-01/);
  });
});
