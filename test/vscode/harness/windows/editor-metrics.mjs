// The editor's kernel's metrics, turned on in the person's own settings (mgp.metrics.enabled): a
// call an MCP client makes through `mgp serve` attached to this window is counted, and `mgp metrics`
// in a terminal on the folder prints it, in Prometheus's text format. Screenshot of the setting.
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { scratchEnv } from '../codeServer.mjs';
import { repo } from '../paths.mjs';
import { openWorkbench, palette, serverRow } from '../uiKit.mjs';

export const title = "the editor kernel's metrics, read by mgp metrics";

const cli = join(repo, 'dist/cli.js');
const exec = promisify(execFile);

export const window = {
  settings: { 'mgp.metrics.enabled': true },
  prepare(workspace) {
    writeFileSync(
      join(workspace, 'mgp.toml'),
      '# The servers of this window are the user’s own.\n',
    );
    const own = join(workspace, '..', 'user-servers.toml');
    const echo = join(repo, 'test/fixtures/servers/params-echo.js');
    writeFileSync(
      own,
      `[[servers]]\nid = "plain"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(echo)}]\n`,
    );
    window.env = { MGP_CONFIG_PATH: own };
  },
};

export async function run({ page, server, workspace, dirs, step, shot }) {
  const env = scratchEnv(dirs, window.env);

  await step('a call through mgp serve, attached to this window, is counted', async () => {
    await openWorkbench(page, server, workspace);
    await serverRow(page, 'plain', 'connected');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'serve', '--expose', 'all', '--cwd', workspace],
      env,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'metrics-probe', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'echo', arguments: { text: 'counted' } });
      assert.notEqual(result.isError, true, JSON.stringify(result));
    } finally {
      await client.close();
    }
  });

  await step('mgp metrics prints it, from the editor', async () => {
    const { stdout } = await exec(process.execPath, [cli, 'metrics', '--cwd', workspace], { env });
    assert.match(stdout, /mgp_tool_calls_total\{server="plain",tool="echo",result="SUCCESS"\} 1/);
    assert.match(stdout, /# TYPE mgp_tool_call_duration_seconds histogram/);
  });

  await step('the setting, in the person’s own settings', async () => {
    await palette(page, 'Preferences: Open User Settings');
    // The Settings editor opens with the search box focused (a small editor of its own).
    await page.locator('.settings-editor .settings-header').waitFor();
    await page.keyboard.type('mgp.metrics.enabled');
    await page
      .locator('.settings-editor .setting-item-contents', {
        hasText: 'Keep metrics of this window',
      })
      .first()
      .waitFor();
    await shot('editor-metrics-setting');
  });
}
