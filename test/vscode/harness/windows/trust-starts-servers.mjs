// Issue: trusting the workspace did not start its servers (the kernel had held them back and never
// looked again). The workspace opens in Restricted Mode; trusting it from the banner asks to start
// each server, and then they run without any further click.
import {
  approvePermissions,
  closeModalEditor,
  openWorkbench,
  serverRow,
  startWorkspaceServers,
  trustInEditor,
} from '../uiKit.mjs';

export const title = 'trusting the workspace starts its servers';
export const window = { trust: false };

export async function run({ page, server, workspace, step, shot }) {
  await step('the workspace opens in Restricted Mode and its servers are held back', async () => {
    await openWorkbench(page, server, workspace);
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).waitFor();
    await serverRow(page, 'example', 'registered');
  });

  await step(
    'trusting the folder from the Restricted Mode banner asks to start each server',
    async () => {
      await page.locator('.monaco-workbench .banner a', { hasText: 'Manage' }).first().click();
      await trustInEditor(page);
      await startWorkspaceServers(page, ['example', 'everything', 'live']);
      await approvePermissions(page, 'example');
    },
  );

  await step('every server runs without any further click', async () => {
    await closeModalEditor(page);
    await serverRow(page, 'example', 'connected');
    await serverRow(page, 'everything', 'connected');
    await serverRow(page, 'live', 'connected');
    await page.locator('.statusbar-item', { hasText: 'MGP 3/3' }).waitFor();
    await shot('trust-servers-started');
  });
}
