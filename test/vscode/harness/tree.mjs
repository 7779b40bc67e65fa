// The workbench's trees and panes: the MGP Servers view's rows, and expanding a row or a pane header.
import { HANG_MS, shownWithin } from './patience.mjs';

/**
 * Expands a pane header or a tree row, clicking it until it says it is expanded: a click can be lost
 * while the workbench redraws under the pointer. Gives up at the hang deadline.
 */
export async function expand(element) {
  await element.waitFor();
  const expanded = element.and(element.page().locator('[aria-expanded="true"]'));
  for (const until = Date.now() + HANG_MS; !(await expanded.count());) {
    if (Date.now() > until) throw new Error(`${element} did not expand within ${HANG_MS} ms`);
    await element.click();
    await expanded.waitFor({ timeout: 5000 }).catch(() => {});
  }
}

/**
 * Shows the MGP container's Servers view and waits for a server's row in the state given. The view is
 * short and its list virtual: a row scrolled out of it is not drawn, so the list is taken back to
 * its top (Home) while the row is not there.
 */
export async function serverRow(page, id, state, timeout = HANG_MS) {
  const container = page.locator('.activitybar [aria-label^="MGP"]').first();
  await container.waitFor();
  const open = page.locator('.sidebar .title-label h2', { hasText: /^MGP$/ });
  const row = page.locator(`.monaco-list-row[aria-label^="Server ${id}, ${state}"]`);
  const list = page
    .locator('.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Servers' }) })
    .locator('.monaco-list')
    .first();
  for (const until = Date.now() + timeout; ;) {
    // Checked each time round: a window just reloaded can restore, or close, its sidebar late.
    if (!(await open.isVisible())) await container.click();
    if (await shownWithin(row, 2000)) return row;
    if (Date.now() > until) throw new Error(`no row "Server ${id}, ${state}" within ${timeout} ms`);
    // Only when the server has no row drawn at all, and nothing is asking the user anything.
    const drawn = await page.locator(`.monaco-list-row[aria-label^="Server ${id},"]`).count();
    const asking = page.locator('.quick-input-widget, .monaco-dialog-box');
    if (!drawn && !(await asking.first().isVisible()) && (await list.isVisible())) {
      await list.focus();
      await page.keyboard.press('Home');
    }
  }
}

/** Opens a server's row and the Tools group under it; returns the group's row. */
export function expandTools(serverRow) {
  return expandGroup(serverRow, 'Tools');
}

/** Opens a server's row and one group under it (Tools, Resources, Prompts); returns the group's row. */
export async function expandGroup(serverRow, name) {
  await expand(serverRow);
  const group = serverRow
    .locator('xpath=following-sibling::div[contains(@class,"monaco-list-row")]')
    .filter({ hasText: new RegExp(`^${name}`) })
    .first();
  await expand(group);
  return group;
}
