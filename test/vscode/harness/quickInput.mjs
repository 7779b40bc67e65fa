// The workbench's quick input as a person uses it: the command palette, Quick Open, a pick in an
// open quick pick, and "Developer: Reload Window" (run once, whatever the pick that ran it says).
import { basename } from 'node:path';
import { HANG_MS, shownWithin } from './patience.mjs';

/**
 * Types `text` into the open quick pick and accepts the row labelled exactly `label`: with Enter when
 * it is the focused row (a click can land on a hover that opened under the pointer), else by a click.
 * Each step gives up after `timeout`: a caller that can reopen a closed quick pick passes a short one
 * (a closed quick pick keeps its rows in the page, hidden, so a click would wait on them forever).
 */
export async function pickInQuickInput(page, text, label = text, timeout = HANG_MS) {
  await page.locator('.quick-input-widget input').fill(text, { timeout });
  const exact = new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  const row = page
    .locator('.quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: exact }) })
    .first();
  await row.waitFor({ timeout });
  if (await row.evaluate((r) => r.classList.contains('focused'), null, { timeout }))
    await page.keyboard.press('Enter');
  else await row.click({ timeout });
}

/**
 * Runs a command from the palette, the pointer out of the way first, and picks `item` in the quick
 * pick the command opens, when given. A webview that becomes the active editor (after "View: Close
 * Editor", say) can take the focus a moment later and so close a quick pick just opened: then it
 * starts over. F1 can also not reach the workbench at all (the focus held by a webview or a menu):
 * when the palette has not opened, the next try clicks the title bar's command center, which opens
 * the same quick input without the keyboard. A quick pick that stays open but is slow to take the
 * text (a loaded machine) is waited for, and one that closes is asked for again, until the hang
 * deadline. A webview taking the focus between the pick and its Enter takes the Enter too, and the
 * command never runs: given `shows` (a locator the command makes visible), it is run again when that
 * has not shown 15 s after the pick.
 */
export async function palette(page, title, item, shows) {
  await page.mouse.move(1300, 400); // away from tabs and rows whose hovers could cover the palette
  const deadline = Date.now() + HANG_MS;
  const widget = page.locator('.quick-input-widget');
  let picked = false;
  for (let attempt = 0; ; attempt++) {
    try {
      if (!picked) {
        // F1 replaces any quick pick left open; on a retry, a palette still open keeps its place.
        if (attempt === 0 || !(await widget.isVisible())) {
          if (attempt % 2 === 0) await page.keyboard.press('F1');
          else await page.locator('.command-center').first().click({ timeout: 5000 });
        }
        await page.locator('.quick-input-widget input').waitFor({ timeout: 15_000 });
        await pickInQuickInput(page, `>${title}`, title, 5000);
        picked = true;
      }
      if (item !== undefined) await pickInQuickInput(page, item, item, 5000);
      if (!shows || (await shownWithin(shows, 15_000))) return;
      if (Date.now() > deadline) throw new Error(`"${title}" ran, and nothing it shows appeared`);
      picked = false;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      // The command ran, but its quick pick closed (after a reload, restored editors take the
      // focus one after another, for longer on a loaded machine): run it again.
      if (!(await widget.isVisible())) picked = false;
    }
  }
}

/**
 * Reloads the window once ("Developer: Reload Window") and waits for the new workbench. Not through
 * palette(): a pick that the reload itself interrupts looks failed there, and its retry would reload
 * the window a second time under the caller's next steps. The page is marked first; the command is
 * asked for again only while the marked page is still there.
 */
export async function reloadWindow(page) {
  const mark = `reload-${Date.now()}`;
  await page.evaluate((m) => (window.mgpReloadMark = m), mark);
  // Throws while the page navigates: not reloaded yet, ask again.
  const reloaded = () => page.evaluate((m) => window.mgpReloadMark !== m, mark).catch(() => false);
  for (const until = Date.now() + HANG_MS; !(await reloaded());) {
    if (Date.now() > until) throw new Error('the window did not reload');
    await page.mouse.move(1300, 400);
    await page.keyboard.press('F1');
    await page
      .locator('.quick-input-widget input')
      .waitFor({ timeout: 15_000 })
      .then(() =>
        pickInQuickInput(page, '>Developer: Reload Window', 'Developer: Reload Window', 5000),
      )
      .catch(() => undefined);
    await page
      .waitForFunction((m) => window.mgpReloadMark !== m, mark, { timeout: 15_000 })
      .catch(() => undefined);
  }
  await page.locator('.monaco-workbench').waitFor();
}

/**
 * Opens Quick Open, types `text` and runs `then` (each step giving up after five seconds). As in
 * palette(): a webview taking the focus can close Quick Open just opened; then it starts over.
 */
async function inQuickOpen(page, text, then = async () => {}) {
  const deadline = Date.now() + HANG_MS;
  let opened = false;
  for (;;) {
    try {
      if (!opened || !(await page.locator('.quick-input-widget').isVisible()))
        await page.keyboard.press('Control+P');
      opened = true;
      await page.locator('.quick-input-widget input').fill(text, { timeout: 5000 });
      await then();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

/** Quick Open's `:line` (Ctrl+G is the browser's in code-server). */
export async function goToLine(page, line) {
  // An Enter that comes before Quick Open has read the line goes nowhere: typed and pressed again.
  await inQuickOpen(page, `:${line}`, async () => {
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5000 });
  });
}

/** Opens a file by its absolute path (one outside the workspace too) with Quick Open. */
export async function openFileByPath(page, path) {
  await inQuickOpen(page, path, async () => {
    await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 5000 });
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5000 });
  });
  await page.locator('.tab.active', { hasText: basename(path) }).waitFor();
}

/** Opens the workspace's mgp.toml with Quick Open and waits for its tab. */
export async function openMgpToml(page) {
  await inQuickOpen(page, 'mgp.toml', () =>
    page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'mgp.toml' })
      .first()
      .click({ timeout: 5000 }),
  );
  await page.locator('.tab.active', { hasText: 'mgp.toml' }).waitFor();
}
