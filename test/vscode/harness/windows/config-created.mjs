// A folder with no MCP config at all: the kernel has nothing to do. Once an mgp.toml is saved into it
// (as a person writing one would), the server it names is asked about, and runs.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { approvePermissions, openWorkbench, serverRow, startWorkspaceServers } from '../uiKit.mjs';

export const title = 'an mgp.toml saved into a folder without one';

let config = '';

export const window = {
  prepare(workspace) {
    const file = join(workspace, 'mgp.toml');
    const text = readFileSync(file, 'utf8');
    // The example server alone, written later by the scenario.
    const second = text.indexOf('[[servers]]', text.indexOf('[[servers]]') + 1);
    config = second > 0 ? text.slice(0, second) : text;
    rmSync(file);
  },
};

export async function run(kit) {
  const { page, server, workspace, step, shot } = kit;

  await step('the folder opens with no config; nothing asks', async () => {
    await openWorkbench(page, server, workspace);
    await page.locator('.activitybar [aria-label^="Explorer"]').first().waitFor();
  });

  await step('an mgp.toml saved into it asks to start its server, which then runs', async () => {
    writeFileSync(join(workspace, 'mgp.toml'), config);
    await startWorkspaceServers(page, ['example'], () => shot('config-created-asks'));
    await approvePermissions(page, 'example');
    await serverRow(page, 'example', 'connected');
  });
}
