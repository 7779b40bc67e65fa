// The Events view: collapsed while it is empty, with an empty state in plain words (no spec section
// in it); once a server reports something its header counts the events, and a click opens the event
// with a line in plain words above its JSON. Screenshots in dark and light.
import { strict as assert } from 'node:assert';
import { approvePermissions, openWorkbench, startWorkspaceServers } from '../uiKit.mjs';
import { runResult, runTool } from '../scenarios/20-approvals.mjs';

export const title = 'the Events view: empty, then an event opened';
export const window = {};

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

  await step(
    'an event a server sends shows, counted in the header, and opens on a click',
    async () => {
      await startWorkspaceServers(page, ['example', 'everything', 'live']);
      await approvePermissions(page, 'example');
      const run = await runTool(kit, 'example.emit_event', {
        channel: 'build.finished',
        severity: 'info',
        data: { job: 'nightly', ok: true },
      });
      await runResult(kit, run, 'Emitted info event on build.finished');
      const row = page.locator('.monaco-list-row[aria-label^="Event build.finished from example"]');
      await row.first().waitFor();
      assert.match(
        (await events.locator('.description').textContent()) ?? '',
        /^\d+\+?$/,
        'the header counts the events',
      );
      await row.first().click();
      const tab = page.locator('.tab', { hasText: 'example build.finished' });
      await tab.waitFor();
      const editor = page.locator('.editor-instance .view-lines').first();
      await editor.filter({ hasText: 'nightly' }).waitFor();
      const text = (await editor.innerText()).replace(/\u00a0/g, ' ');
      assert.match(text, /^\/\/ example reported "build\.finished" \(info\) at /);
      assert.match(text, /"job": "nightly"/);
      await shot('events-detail-dark');
      await setTheme(light);
      await editor.filter({ hasText: 'nightly' }).waitFor();
      await shot('events-detail-light');
      await setTheme(dark);
    },
  );
}
