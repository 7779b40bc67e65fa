// Issue: Restricted Mode was silent (no status bar item while servers were only registered; Start and
// Allow did nothing visible), and Reload and "Allow Workspace Servers to Start" started nothing. Now
// the item shows whenever servers are configured, says why they wait, and the actions that cannot run
// offer "Trust Workspace…"; after trust, a declined server is asked about again on Reload and starts
// when allowed.
import { strict as assert } from 'node:assert';
import {
  approvePermissions,
  closeModalEditor,
  notification,
  openWorkbench,
  palette,
  serverRow,
  trustInEditor,
} from '../uiKit.mjs';

export const title = 'Restricted Mode says why servers wait and offers the way out';
export const window = { trust: false };

const startDialog = (page, id) =>
  page.locator('.monaco-dialog-box', { hasText: `Start MCP server "${id}" from this workspace?` });

export async function run(kit) {
  const { page, server, workspace, step, shot, setTheme, THEMES } = kit;
  const status = (text) => page.locator('.statusbar-item', { hasText: text });

  await step(
    'in Restricted Mode the status bar and the Servers view say the servers wait for trust',
    async () => {
      await openWorkbench(page, server, workspace);
      await status('Restricted Mode').waitFor();
      const row = await serverRow(page, 'example', 'registered');
      assert.match(await row.textContent(), /not started · Restricted Mode/);
      await page
        .locator('.monaco-list-row', {
          hasText: 'Restricted Mode: trust this workspace to start its servers',
        })
        .waitFor();
      const item = status('MGP 0/3');
      await item.waitFor();
      assert.match(
        await item.locator('.codicon').first().getAttribute('class'),
        /workspace-untrusted/,
      );
      for (const theme of THEMES) {
        await setTheme(theme);
        await page.mouse.move(700, 600);
        await shot(`restricted-mode-${theme.file}`);
      }
    },
  );

  await step(
    '▶ Start on a server in Restricted Mode says why and offers "Trust Workspace…"',
    async () => {
      const row = await serverRow(page, 'example', 'registered');
      await row.hover();
      await row.locator('.action-label[aria-label="Start Server"]').click();
      const offer = await notification(
        page,
        '"example" may not start: the workspace is not trusted',
      );
      await offer.locator('.monaco-button', { hasText: 'Trust Workspace…' }).waitFor();
      await shot('restricted-mode-start-offer');
      await palette(page, 'Notifications: Clear All Notifications');
      await serverRow(page, 'example', 'registered');
    },
  );

  await step(
    '"Allow Workspace Servers to Start" offers "Trust Workspace…", which trusts it',
    async () => {
      await palette(page, 'MGP: Allow Workspace Servers to Start');
      const offer = await notification(page, 'cannot start in Restricted Mode');
      await shot('restricted-mode-offer-trust');
      await offer.locator('.monaco-button', { hasText: 'Trust Workspace…' }).click();
      await trustInEditor(page);
    },
  );

  await step(
    'after trust each server is asked about; the one declined waits, and says so',
    async () => {
      await startDialog(page, 'example').waitFor();
      await startDialog(page, 'example').getByRole('button', { name: 'Cancel' }).click();
      for (const id of ['everything', 'live'])
        await startDialog(page, id).getByRole('button', { name: 'Start', exact: true }).click();
      await closeModalEditor(page);
      await serverRow(page, 'everything', 'connected');
      const row = await serverRow(page, 'example', 'registered');
      assert.match(await row.textContent(), /not started · not allowed yet/);
      await status('MGP 2/3').waitFor();
      await page
        .locator('.monaco-list-row', { hasText: 'Allow workspace servers to start…' })
        .waitFor();
    },
  );

  await step('"Reload Server Configuration" asks again about the declined server', async () => {
    await palette(page, 'MGP: Reload Server Configuration');
    await startDialog(page, 'example').waitFor();
    await startDialog(page, 'example').getByRole('button', { name: 'Cancel' }).click();
    await serverRow(page, 'example', 'registered');
  });

  await step('allowing it from the Servers view starts it', async () => {
    await page
      .locator('.monaco-list-row', { hasText: 'Allow workspace servers to start…' })
      .click();
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'example' }).waitFor();
    await page.keyboard.press('Enter');
    await approvePermissions(page, 'example');
    await serverRow(page, 'example', 'connected');
    await status('MGP 3/3').waitFor();
  });
}
