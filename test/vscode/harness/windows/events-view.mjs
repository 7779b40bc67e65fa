// The Events view while no server runs: collapsed, and once opened an empty state in plain words (no
// spec section in it). Screenshots in dark and light. (An event and its detail: scenarios/60-mcpl-views.)
import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openWorkbench } from '../uiKit.mjs';

export const title = 'the Events view while no server runs';

// No config, so no server runs and nothing asks.
export const window = {
  prepare(workspace) {
    rmSync(join(workspace, 'mgp.toml'));
  },
};

const paneHeader = (page, name) =>
  page.locator('.pane-header', { hasText: new RegExp(`^${name}`) }).first();

export async function run(kit) {
  const { page, server, workspace, step, shot, setTheme, THEMES } = kit;
  const dark = THEMES.find((t) => t.file === 'dark');
  const light = THEMES.find((t) => t.file === 'light');
  const events = paneHeader(page, 'Events');

  await step('before any server runs, the Events view is collapsed', async () => {
    await openWorkbench(page, server, workspace);
    await page.locator('.activitybar [aria-label^="MGP"]').first().click();
    await page
      .locator('.welcome-view-content', { hasText: 'No MCP server is configured' })
      .waitFor();
    await events.waitFor();
    assert.equal(await events.getAttribute('aria-expanded'), 'false');
  });

  await step('opened, it says in plain words what will show there', async () => {
    await events.click();
    const empty = page.locator('.welcome-view-content', { hasText: 'No events yet.' });
    await empty.waitFor();
    const text = await empty.innerText();
    assert.match(text, /When a server reports something/);
    assert.doesNotMatch(text, /§|MCPL|notifications\//, 'no spec section or wire name');
    await events.hover();
    await shot('events-empty-dark');
    await setTheme(light);
    await empty.waitFor();
    await shot('events-empty-light');
    await setTheme(dark);
  });
}
