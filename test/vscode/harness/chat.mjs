// The chat view as a person uses it: typing a request, waiting for the answer, opening the steps
// shown, seeing output live. Shared by the chat windows, with the audit records they check.
import { HANG_MS } from './patience.mjs';

export { auditRecords } from './auditLog.mjs';

export const chatView = (page) => page.locator('.interactive-session').first();
export const lastResponse = (page) =>
  page.locator('.interactive-item-container.interactive-response').last();

/** Types a request into the chat input (replacing what the sticky participant left there) and sends it. */
export async function ask(page, text) {
  const input = page.locator('.interactive-input-part .monaco-editor').first();
  await input.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text);
  // Sent with the button: after a slash command Enter would accept a suggestion instead.
  await page.locator('.interactive-input-part').getByRole('button', { name: /^Send/ }).click();
  await page
    .locator('.interactive-item-container.interactive-request', {
      hasText: text.replace(/^@mgp /, ''),
    })
    .last()
    .waitFor();
}

/**
 * Waits until `shown`, in the last response, is visible, opening VS Code's "Completed N steps" fold
 * of that response on the way. VS Code builds the fold again as a finished response settles, open
 * for one frame when it animates: a click then may close it, so click until it reads expanded.
 */
export async function openCompletedSteps(page, shown) {
  const summary = lastResponse(page).locator('summary.completed-response-summary').first();
  const deadline = Date.now() + HANG_MS;
  while (!(await shown.isVisible())) {
    if (Date.now() > deadline) throw new Error('timed out opening the completed steps');
    if ((await summary.count()) && (await summary.getAttribute('aria-expanded')) !== 'true')
      await summary.click();
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Notes, in the page, whether a response still loading ever shows a code block holding `text`: a
 * check made once the block is seen would miss it on a machine slow enough that the response ended
 * first. Returns a reader of the note.
 */
export async function watchLiveCodeBlock(page, text) {
  await page.evaluate((wanted) => {
    window.mgpLiveCodeBlock = false;
    const live = () =>
      [...document.querySelectorAll('.interactive-item-container.chat-response-loading')].some(
        (item) =>
          [...item.querySelectorAll('.interactive-result-code-block')].some((block) =>
            // Editors draw spaces as no-break spaces.
            block.textContent.replace(/\s+/g, ' ').includes(wanted),
          ),
      );
    const observer = new MutationObserver(() => {
      if (!live()) return;
      window.mgpLiveCodeBlock = true;
      observer.disconnect();
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  }, text);
  return () => page.evaluate(() => window.mgpLiveCodeBlock);
}

/** Waits until the last response holds `text` and is done (no progress left). */
export async function responseDone(page, text, timeout = HANG_MS) {
  await lastResponse(page)
    .locator('.rendered-markdown', { hasText: text })
    .first()
    .waitFor({ timeout });
  const deadline = Date.now() + timeout;
  while (await page.locator('.interactive-item-container.chat-response-loading').count()) {
    if (Date.now() > deadline) throw new Error(`the response holding "${text}" never finished`);
    await page.waitForTimeout(100);
  }
}

export async function switchWorkbenchTheme({ page, runFromPalette }, theme) {
  await runFromPalette('Preferences: Color Theme');
  await page.locator('.quick-input-widget input').fill(theme.name);
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: theme.name })
    .first()
    .waitFor();
  await page.keyboard.press('Enter');
  await page.locator(`.monaco-workbench.${theme.bodyClass}`).waitFor();
}
