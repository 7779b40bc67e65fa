// Issue: revoking a *denied* server permission deleted the row while the server kept the denial, and
// nothing could approve it short of a restart. In the Approvals panel a granted permission is revoked
// into a kept denial; a denial offers Approve and Reset, each delivered to the running server (MGP §3);
// Reset asks again at once.
import { strict as assert } from 'node:assert';
import { approvePermissions, palette } from '../uiKit.mjs';
import { switchTheme } from './10-run-tool.mjs';

export const title = 'server permissions: revoke, approve, reset';

export async function run(kit) {
  const { page, step, shot, webviewFrame, THEMES } = kit;
  const panel = () => webviewFrame('Approvals');
  const row = async () => (await panel()).locator('[data-grant="permission:example:memory.write"]');
  const button = async (label) =>
    (await row()).locator('button', { hasText: new RegExp(`^${label}$`) });

  await step(
    'a granted permission is revoked into a kept denial that offers Approve and Reset',
    async () => {
      await palette(page, 'MGP: Show Approvals');
      await (await row()).filter({ hasText: 'Approved' }).waitFor();
      await (await button('Revoke')).click();
      await (await row()).filter({ hasText: 'Denied' }).waitFor();
      assert.deepEqual(await (await row()).locator('button').allTextContents(), [
        'Approve',
        'Reset',
      ]);
      for (const theme of [...THEMES].reverse()) {
        await switchTheme(kit, theme, await panel());
        await page.locator('.tab', { hasText: 'Approvals' }).click();
        await (await row()).scrollIntoViewIfNeeded();
        await page.mouse.move(1300, 140);
        await shot(`permission-denied-${theme.file}`);
      }
    },
  );

  await step('Approve turns the denial into an approval', async () => {
    await (await button('Approve')).click();
    await (await row()).filter({ hasText: 'Approved' }).waitFor();
    assert.deepEqual(await (await row()).locator('button').allTextContents(), ['Revoke']);
  });

  await step(
    'Reset forgets the decision and the server asks for the permission again',
    async () => {
      await (await button('Revoke')).click();
      await (await row()).filter({ hasText: 'Denied' }).waitFor();
      await (await button('Reset')).click();
      const dialog = page.locator('.monaco-dialog-box', {
        hasText: 'MCP server "example" asks for',
      });
      await dialog.waitFor();
      assert.match(await dialog.textContent(), /memory\.write/);
      await shot('permission-reset-asks');
      await approvePermissions(page, 'example', 'For 1 day');
      await (await row()).filter({ hasText: 'Approved' }).waitFor();
    },
  );

  await step('Approve All, then Escape at "How long?": nothing is approved', async () => {
    await (await button('Revoke')).click();
    await (await button('Reset')).click();
    await (await row()).waitFor({ state: 'detached' });
    await page
      .locator('.monaco-dialog-box', { hasText: 'MCP server "example" asks for' })
      .waitFor();
    await page.getByRole('button', { name: 'Approve All', exact: true }).click();
    const question = page.locator('.quick-input-widget', {
      hasText: 'How long do the approvals last?',
    });
    await question.waitFor();
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'hidden' });
    await (await row()).filter({ hasText: 'Denied' }).waitFor();
    // Approved again from the panel, as the scenarios after this one find it.
    await (await button('Approve')).click();
    await (await row()).filter({ hasText: 'Approved' }).waitFor();
  });
}
