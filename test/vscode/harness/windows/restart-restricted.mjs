// Issue 24 (15): "Restart Server" started a workspace server in Restricted Mode (restart skipped the
// start gate). The workspace opens untrusted; restarting its server is refused with the reason, and
// the server stays held back.
import { openWorkbench, palette, serverRow } from '../uiKit.mjs';

export const title = 'Restart Server in Restricted Mode does not start a workspace server';
export const window = { trust: false };

export async function run({ page, server, workspace, step, shot }) {
  await step('the workspace opens in Restricted Mode and its servers are held back', async () => {
    await openWorkbench(page, server, workspace);
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).waitFor();
    await serverRow(page, 'example', 'registered');
  });

  await step(
    'MGP: Restart Server is refused with the reason, and the server stays held back',
    async () => {
      await palette(page, 'MGP: Restart Server', 'example');
      // The warning is in the notification centre (a headless window shows no toasts).
      await palette(page, 'Notifications: Show Notifications');
      await page
        .locator('.notifications-center', {
          hasText: '"example" may not start: the workspace is not trusted',
        })
        .waitFor();
      await shot('restart-restricted-refused');
      await serverRow(page, 'example', 'registered');
      if (await page.locator('.monaco-dialog-box').isVisible())
        throw new Error('a dialog opened: the server was started');
    },
  );
}
