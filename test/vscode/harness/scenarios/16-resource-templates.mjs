// Resource templates under their server, opened by asking each variable with the server's completions
// (completion/complete as the person types), and prompt arguments asked the same way: server-everything's
// completable-prompt narrows the names it suggests by the department chosen first.
import { expand, palette, serverRow, THEMES } from '../uiKit.mjs';
import { HANG_MS } from '../patience.mjs';

export const title = 'resource templates and prompt arguments with completion';

const row = (page, text) => page.locator('.monaco-list-row', { hasText: text }).first();

/** The open quick pick's suggestions (rows) as their labels. */
/**
 * The labels of the open quick pick once they hold every `expected` and none of `unexpected`: the
 * server's narrowed answer comes after the list first drawn, and a closed pick keeps its rows in the
 * page, hidden. Gives up at the hang deadline, with the last labels seen.
 */
async function suggestions(page, expected, unexpected) {
  const labels = page.locator('.quick-input-widget:visible .monaco-list-row .label-name');
  let seen = [];
  for (const until = Date.now() + HANG_MS; Date.now() < until; await page.waitForTimeout(100)) {
    seen = await labels.allInnerTexts();
    const has = (pattern) => seen.some((label) => pattern.test(label));
    if (expected.every((label) => seen.includes(label)) && !has(unexpected)) return seen;
  }
  throw new Error(`suggestions not narrowed to ${expected.join(', ')}: ${seen.join(', ')}`);
}

export async function run({ page, step, shot, setTheme }) {
  await step('the Resources of a server list its templates, with their URI template', async () => {
    // Earlier scenarios leave servers open, and the view is short and its list virtual: close them
    // so that everything's row is drawn.
    await serverRow(page, 'example', 'connected');
    const open = page.locator('.monaco-list-row[aria-label^="Server "][aria-expanded="true"]');
    for (let clicks = 0; clicks < 10 && (await open.count()); clicks++) await open.first().click();
    await expand(await serverRow(page, 'everything', 'connected'));
    const resources = page.locator('.monaco-list-row[aria-label^="Resources"]').last();
    await resources.waitFor();
    // A click focuses the row and toggles it (it may have been open already): once it has the
    // focus, expand() clicks until it reads expanded. A key sent right after the click could find
    // the row as it was, and move the focus instead.
    await resources.click();
    await page.locator('.monaco-list-row.focused[aria-label^="Resources"]').waitFor();
    await expand(resources);
    await page
      .locator('.monaco-list-row.focused[aria-expanded="true"][aria-label^="Resources"]')
      .waitFor();
    // The view is short and its list virtual: walk down from Resources, as a keyboard user does,
    // until the template's row has the focus (the list scrolls it into view). One row per press:
    // presses sent before the focus has moved would carry it past the template.
    const template = 'Resource template Dynamic Text Resource';
    const focused = page.locator(
      '.monaco-list:has(.monaco-list-row[aria-label^="Resources"]) .monaco-list-row.focused',
    );
    for (let presses = 0; presses < 30; presses++) {
      const label = await focused.getAttribute('aria-label');
      if (label === template) break;
      await page.keyboard.press('ArrowDown');
      await focused.and(page.locator(`:not([aria-label=${JSON.stringify(label)}])`)).waitFor();
    }
    await page.locator(`.monaco-list-row.focused[aria-label="${template}"]`).waitFor();
    await row(page, 'demo://resource/dynamic/text/{resourceId}').waitFor();
    await shot('resource-templates-in-servers-view');
  });

  await step(
    'a click on a template asks its variable with the completion the server gives, then opens the resource',
    async () => {
      await page
        .locator('.monaco-list-row[aria-label="Resource template Dynamic Text Resource"]')
        .click();
      const input = page.locator('.quick-input-widget input');
      await input.waitFor();
      await page
        .locator('.quick-input-widget .quick-input-title', {
          hasText: 'Dynamic Text Resource: resourceId',
        })
        .waitFor();
      await input.fill('42');
      // server-everything suggests an integer id back as it is: the row is its suggestion, not the typed one.
      await page
        .locator('.quick-input-list .monaco-list-row', { hasText: '42' })
        .filter({ hasNotText: 'as typed' })
        .waitFor();
      await page.keyboard.press('Enter');
      const tab = page.locator('.tab', { hasText: 'Dynamic Text Resource (42).txt' });
      await tab.waitFor();
      await page
        .locator('.editor-instance .view-lines', {
          hasText: 'Resource 42: This is a plaintext resource',
        })
        .waitFor();
      await palette(page, 'View: Close Editor');
      await tab.waitFor({ state: 'detached' });
    },
  );

  await step(
    "Use Prompt suggests each argument's values as you type, narrowed by the ones chosen (dark and light)",
    async () => {
      for (const theme of [
        THEMES.find((t) => t.file === 'dark'),
        THEMES.find((t) => t.file === 'light'),
      ]) {
        await setTheme(theme);
        await palette(page, 'MGP: Use Prompt', 'completable-prompt');
        const input = page.locator('.quick-input-widget input');
        await page
          .locator('.quick-input-widget .quick-input-title', {
            hasText: 'completable-prompt: department (1/2)',
          })
          .waitFor();
        await input.fill('S');
        await suggestions(page, ['Sales', 'Support'], /Engineering|Marketing/);
        await shot(`prompt-completion-department-${theme.file}`);
        await page
          .locator('.quick-input-list .monaco-list-row', { hasText: 'Sales' })
          .first()
          .click();
        await page
          .locator('.quick-input-widget .quick-input-title', {
            hasText: 'completable-prompt: name (2/2)',
          })
          .waitFor();
        await suggestions(page, ['David', 'Eve', 'Frank'], /Alice|John|Grace/);
        await shot(`prompt-completion-name-${theme.file}`);
        await page
          .locator('.quick-input-list .monaco-list-row', { hasText: 'Eve' })
          .first()
          .click();
        const tab = page.locator('.tab', { hasText: 'completable-prompt.md' });
        await tab.waitFor();
        await page
          .locator('.editor-instance .view-lines', {
            hasText: 'Please promote Eve to the head of the Sales team.',
          })
          .waitFor();
        await palette(page, 'View: Close Editor');
        await tab.waitFor({ state: 'detached' });
      }
      await setTheme(THEMES.find((t) => t.file === 'dark'));
    },
  );
}
