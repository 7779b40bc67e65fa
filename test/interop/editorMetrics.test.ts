import { strict as assert } from 'node:assert';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { KernelMetrics } from '../../client/src/kernel/metrics/kernelMetrics';
import { within } from '../support/patience';
import { cliPath } from './support/gatewayProcess';
import { editorOnSocket, type EditorOnSocket } from './support/editorOnSocket';
import { fixtureServer, node, type TestKernel } from './support/kernelHarness';

const run = promisify(execFile);

const CONFIG = `[[servers]]
id = "plain"
command = ${node}
args = [${fixtureServer('params-echo.js')}]
`;

/**
 * "The editor": a kernel in this process serving its local socket as VS Code does
 * (client/src/vscode/gateway/editorGateway.ts), with its metrics on or off as the person's
 * `mgp.metrics.enabled` says; `mgp metrics` in its own process reads them.
 */
describe('mgp metrics: the editor kernel’s metrics', function () {
  this.timeout(60000);
  let onSocket: EditorOnSocket;
  let editor: TestKernel;
  let metrics: KernelMetrics | undefined;
  let env: Record<string, string>;

  before(async () => {
    onSocket = await editorOnSocket(CONFIG, () => metrics?.text());
    ({ editor, env } = onSocket);
  });
  after(async () => {
    metrics?.dispose();
    await onSocket.close();
  });

  const mgpMetrics = (args: string[] = []) =>
    run(process.execPath, [cliPath, 'metrics', '--cwd', editor.dir, ...args], { env }).catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

  it('says how to turn them on while they are off', async () => {
    const answer = await mgpMetrics();
    assert.equal((answer as { code?: number }).code, 1);
    assert.match(
      answer.stderr,
      /metrics are off in the editor: turn on the setting 'mgp\.metrics\.enabled'/,
    );
  });

  it('prints what the editor’s kernel did since they were turned on', async () => {
    metrics = new KernelMetrics({
      onRecord: (listener) => editor.trail.onRecord(listener),
      manager: editor.kernel.manager,
    });
    await editor.kernel.call({ serverId: 'plain', toolName: 'echo', args: { text: 'one' } });
    await editor.trail.flush();
    const { stdout } = await mgpMetrics();
    assert.match(stdout, /mgp_tool_calls_total\{server="plain",tool="echo",result="SUCCESS"\} 1/);
    assert.match(stdout, /mgp_servers_up(\{[^}]*\})? 1/);
  });

  it('serves them on 127.0.0.1 to the printed token, each scrape afresh', async () => {
    const child = spawn(
      process.execPath,
      [cliPath, 'metrics', '--cwd', editor.dir, '--http', '0'],
      {
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      let out = '';
      const printed = await within(
        new Promise<{ url: string; token: string }>((resolve) =>
          child.stdout.on('data', (chunk: Buffer) => {
            out += chunk.toString();
            const url = /^Metrics: (\S+)$/m.exec(out)?.[1];
            const token = /^Metrics token: (\S+)$/m.exec(out)?.[1];
            if (url && token) resolve({ url, token });
          }),
        ),
        'the printed address and token',
      );
      assert.match(printed.url, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      assert.equal((await fetch(printed.url)).status, 401, 'no token, no metrics');
      const scrape = () =>
        fetch(printed.url, { headers: { authorization: `Bearer ${printed.token}` } });
      await editor.kernel.call({ serverId: 'plain', toolName: 'echo', args: { text: 'two' } });
      await editor.trail.flush();
      const answer = await scrape();
      assert.equal(answer.status, 200);
      assert.match(answer.headers.get('content-type') ?? '', /^text\/plain/);
      assert.match(await answer.text(), /mgp_tool_calls_total\{[^}]*tool="echo"[^}]*\} 2/);

      metrics?.dispose();
      metrics = undefined;
      const off = await scrape();
      assert.equal(off.status, 503);
      assert.match(await off.text(), /metrics are off in the editor/);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
