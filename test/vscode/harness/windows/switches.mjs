// Turning a tool off from the Servers view: its row greys and says so, its Tools group counts the
// tools on, and the tool is no longer offered (Run Tool's picker lists every other tool of the
// server, not it). Turning it on again brings it back. Screenshots in dark and light.
import { strict as assert } from 'node:assert';
import {
  approvePermissions,
  expandTools,
  openWorkbench,
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

  await step('the example workspace runs its servers', async () => {
    await openWorkbench(page, server, workspace);
    await startWorkspaceServers(page, ['example', 'everything', 'live']);
    await approvePermissions(page, 'example');
    tools = await expandTools(await serverRow(page, 'everything', 'connected'));
    await toolRow(page, 'echo').waitFor();
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

  await step('"Turn Tool On" brings echo back', async () => {
    await inlineAction(toolRow(page, 'echo'), 'Turn Tool On');
    await page
      .locator('.monaco-list-row[aria-label^="Tool echo,"]:not([aria-label$="turned off"])')
      .waitFor();
    await tools.locator('.label-description', { hasText: /^\d+$/ }).waitFor();
  });
}
