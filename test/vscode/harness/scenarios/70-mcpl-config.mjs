// The language server knows the feature sets a running MCPL server declares (the kernel sends them):
// in mgp.toml, completion under `[servers.mcpl]` offers `live`'s sets, and a name it does not
// declare is flagged. The line is taken out again afterwards.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { goToLine, openMgpToml } from '../uiKit.mjs';
import { waitFor } from '../patience.mjs';

export const title = 'MCPL feature sets in mgp.toml';

/**
 * Saving a change to live's table changes its definition, which the user allowed: the workspace
 * server is asked about again before it restarts (SECURITY.md, launch approval).
 */
async function allowChangedLive(page) {
  await page
    .locator('.monaco-dialog-box', { hasText: 'MCP server "live" changed since you allowed it' })
    .getByRole('button', { name: 'Start', exact: true })
    .click();
}

export async function run({ page, workspace, step, shot, runFromPalette }) {
  const lines = readFileSync(join(workspace, 'mgp.toml'), 'utf8').split('\n');
  const live = lines.findIndex((l) => l.includes('id = "live"'));
  const pushEvents = lines.findIndex((l, i) => i > live && l.startsWith('push_events')) + 1;
  assert.ok(live >= 0 && pushEvents > live, 'the example mgp.toml has live with [servers.mcpl]');

  await step('completion in disabled_feature_sets offers the sets live declares', async () => {
    await openMgpToml(page);
    await goToLine(page, pushEvents);
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    // insertText: the editor's auto-closing quotes and brackets stay out of it.
    await page.keyboard.insertText('disabled_feature_sets = [""]');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Control+Space');
    const suggestions = page.locator('.suggest-widget .monaco-list-row');
    for (const name of ['memory.facts', 'alerts.push', 'chat.room'])
      await suggestions.filter({ hasText: name }).first().waitFor();
    await shot('mcpl-feature-set-completion');
    await page.keyboard.press('Escape');
  });

  await step('a feature set live does not declare is flagged in the Problems panel', async () => {
    await page.keyboard.insertText('alerts.pushh');
    await page.keyboard.press('Control+S');
    await allowChangedLive(page);
    await runFromPalette('View: Focus Problems (Errors, Warnings, Infos)');
    const problem = page.locator('.markers-panel .monaco-list-row', {
      hasText: 'server "live" does not declare feature set "alerts.pushh"',
    });
    await problem.waitFor();
    assert.match(await problem.innerText(), new RegExp(`\\[Ln ${pushEvents + 1}, Col \\d+\\]`));
    await shot('mcpl-feature-set-diagnostic');
  });

  await step('taking the line out again takes the problem away', async () => {
    await page.locator('.tab', { hasText: 'mgp.toml' }).click();
    await goToLine(page, pushEvents + 1);
    await page.keyboard.press('Control+Shift+K'); // Delete Line
    await page.keyboard.press('Control+S');
    // The tab shows no unsaved mark while the web workbench saves by itself: the file tells.
    const saved = () => readFileSync(join(workspace, 'mgp.toml'), 'utf8') === lines.join('\n');
    await waitFor(saved, 'mgp.toml is saved as it was');
    await allowChangedLive(page);
    await page
      .locator('.markers-panel .monaco-list-row', { hasText: 'alerts.pushh' })
      .waitFor({ state: 'detached' });
    await runFromPalette('View: Close Editor');
  });
}
