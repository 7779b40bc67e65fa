// The example workspace opens, its servers are approved, and the Servers view shows them connected,
// each in its sandbox.
import { strict as assert } from 'node:assert';
import { waitFor } from '../patience.mjs';
import { hoverUntil } from '../uiKit.mjs';

export const title = 'workbench and servers';

export async function run({ page, server, workspace, step, shot }) {
  await step('the workbench loads the example workspace', async () => {
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
    await page.locator('.monaco-workbench').waitFor();
    await page.locator('.activitybar').waitFor();
  });

  await step(
    'the workspace asks before starting each of its servers, and the user approves',
    async () => {
      for (const id of ['example', 'everything', 'live']) {
        const dialog = page.locator('.monaco-dialog-box', {
          hasText: `Start MCP server "${id}" from this workspace?`,
        });
        await dialog.waitFor();
        if (id === 'example') await shot('approve-server');
        await dialog.getByRole('button', { name: 'Start', exact: true }).click();
      }
    },
  );

  await step(
    'the example server asks for its permissions (MGP §3), and the user approves them for a day',
    async () => {
      const dialog = page.locator('.monaco-dialog-box', {
        hasText: 'MCP server "example" asks for',
      });
      await dialog.waitFor();
      // It asks for dangerous permissions: Enter takes Choose… (the dangerous ones unchecked), not
      // Approve All.
      assert.match(await dialog.textContent(), /risk dangerous/);
      const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim());
      await waitFor(async () => (await focused()) === 'Choose…', 'Choose… has the focus');
      await shot('permissions-dangerous-default');
      await dialog.getByRole('button', { name: 'Approve All', exact: true }).click();
      await page.locator('.quick-input-widget input').waitFor();
      await page
        .locator('.quick-input-list .monaco-list-row', { hasText: 'For 1 day' })
        .first()
        .click();
    },
  );

  await step(
    'the MGP activity-bar container shows the Servers view with the configured servers',
    async () => {
      const container = page.locator('.activitybar [aria-label^="MGP"]').first();
      await container.waitFor();
      await container.click();
      await page.locator('.monaco-list-row[aria-label^="Server example, connected"]').waitFor();
      await page.locator('.monaco-list-row[aria-label^="Server everything, connected"]').waitFor();
      await page.locator('.monaco-list-row[aria-label^="Server live, connected"]').waitFor();
      await page.locator('.statusbar-item', { hasText: 'MGP 3/3' }).waitFor();
      // The view's title bar reaches Tool Discovery and Run Tool.
      const header = page.locator('.pane-header', { hasText: 'Servers' });
      await header.hover();
      for (const action of ['Show Tool Discovery', 'Run Tool'])
        await header.locator(`.action-label[aria-label^="${action}"]`).waitFor();
      await shot('servers-view');
    },
  );

  await step('each stdio server says it runs in the OS sandbox, and with what', async () => {
    const row = page.locator('.monaco-list-row[aria-label^="Server example, connected"]');
    await row.locator('.label-description', { hasText: 'stdio · sandboxed' }).waitFor();
    await hoverUntil(
      page,
      row,
      page.locator('.monaco-hover', { hasText: 'Isolation: sandboxed (bubblewrap): writes' }),
    );
    await shot('server-isolation');
    await page.keyboard.press('Escape');
  });
}
