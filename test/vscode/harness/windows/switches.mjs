// Turning a tool off from the Servers view: its row greys and says so, its Tools group counts the
// tools on, and the tool is no longer offered (Run Tool's picker lists every other tool of the
// server, not it). A Run Tool panel open on it says the person turned it off (not that the server
// lost it), disables Run and offers Turn On, which brings it back. Screenshots in dark and light.
import { strict as assert } from 'node:assert';
import {
  approvePermissions,
  expandTools,
  openWorkbench,
  findWebviewFrame,
  palette,
  serverRow,
  startWorkspaceServers,
} from '../uiKit.mjs';

export const title = 'switches: a tool turned off in the Servers view';

const toolRow = (page, name) =>
  page.locator(`.monaco-list-row[aria-label^="Tool ${name},"]`).first();

/** Clicks a row's inline action (shown while the pointer is over the row). */
async function inlineAction(row, label) {
  await row.hover();
  await row.locator(`.action-label[aria-label="${label}"]`).click();
}

export async function run(kit) {
  const { page, server, workspace, step, shot, setTheme, THEMES } = kit;
  const dark = THEMES.find((t) => t.file === 'dark');
  const light = THEMES.find((t) => t.file === 'light');
  let tools;
  const echoPanel = () => findWebviewFrame(page, 'Run everything · echo');

  await step('the example workspace runs its servers', async () => {
    await openWorkbench(page, server, workspace);
    await startWorkspaceServers(page, ['example', 'everything', 'live']);
    await approvePermissions(page, 'example');
    tools = await expandTools(await serverRow(page, 'everything', 'connected'));
    await toolRow(page, 'echo').waitFor();
    await palette(page, 'MGP: Run Tool', 'everything.echo');
    const frame = await echoPanel();
    await frame.locator('button.run:not([disabled])').waitFor();
  });

  await step('"Turn Tool Off" on echo greys its row and counts the tools still on', async () => {
    const total = Number((await tools.locator('.label-description').textContent()).trim());
    await inlineAction(toolRow(page, 'echo'), 'Turn Tool Off');
    await page
      .locator('.monaco-list-row[aria-label^="Tool echo,"][aria-label$="turned off"]')
      .waitFor();
    await tools.locator('.label-description', { hasText: `${total - 1} of ${total} on` }).waitFor();
    await page.mouse.move(1300, 400);
    await shot('switches-tool-off-dark');
    await setTheme(light);
    await shot('switches-tool-off-light');
    await setTheme(dark);
  });

  await step(
    'the Run Tool panel on echo says it is turned off, disables Run, offers Turn On',
    async () => {
      const frame = await echoPanel();
      const notice = frame.locator('.notice', {
        hasText: 'This tool is turned off: you turned echo off',
      });
      await notice.waitFor();
      assert.doesNotMatch(await notice.textContent(), /no longer lists/);
      await notice.locator('button', { hasText: /^Turn On$/ }).waitFor();
      await frame.locator('button.run[disabled]').waitFor();
      await shot('switches-run-tool-off-dark');
      await setTheme(light, frame);
      await shot('switches-run-tool-off-light');
      await setTheme(dark, frame);
    },
  );

  await step("Run Tool's picker does not offer echo", async () => {
    await palette(page, 'MGP: Run Tool');
    const input = page.locator('.quick-input-widget input');
    await input.fill('everything.');
    const names = page.locator('.quick-input-list .monaco-list-row .label-name');
    await names
      .filter({ hasText: /^everything\./ })
      .first()
      .waitFor();
    // Filtered down to echo's own name: were echo offered, it would be the row left. The list has
    // caught up with the text once no row lacks the word (none at all, when nothing matches).
    await input.fill('everything.echo');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.quick-input-list .monaco-list-row .label-name')].every((n) =>
        n.textContent.includes('echo'),
      ),
    );
    const labels = await names.allTextContents();
    assert.ok(!labels.includes('everything.echo'), labels.join(', '));
    await input.fill('everything.');
    await names
      .filter({ hasText: /^everything\./ })
      .first()
      .waitFor();
    await shot('switches-run-tool-picker');
    await page.keyboard.press('Escape');
  });

  await step("Run Tool's Turn On brings echo back, in the tree and in the panel", async () => {
    const frame = await echoPanel();
    await frame.locator('.notice button', { hasText: /^Turn On$/ }).click();
    await frame
      .locator('.notice', { hasText: 'This tool is turned off' })
      .waitFor({ state: 'hidden' });
    await frame.locator('button.run:not([disabled])').waitFor();
    await page
      .locator('.monaco-list-row[aria-label^="Tool echo,"]:not([aria-label$="turned off"])')
      .waitFor();
    await tools.locator('.label-description', { hasText: /^\d+$/ }).waitFor();
  });
}
