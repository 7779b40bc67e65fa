// Issue: a server's resources and prompts opened as dirty untitled documents (closing one asked to save
// it). Now they open as read-only documents named after the resource or prompt, read through the kernel.
import { strict as assert } from 'node:assert';
import { palette } from '../uiKit.mjs';

export const title = 'resources and prompts open as read-only documents';

/** A read-only document closes without asking to save it: the tab goes, and no dialog came. */
async function closeActiveEditor(page, tab) {
  await palette(page, 'View: Close Editor');
  await tab.waitFor({ state: 'detached' });
  assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no "save changes?" dialog');
}

/** Types into the active editor and checks the text and the tab stay as they were. */
async function assertReadOnly(page, tab, text) {
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await page.keyboard.type('xyz');
  await page.locator('.monaco-editor-overlaymessage', { hasText: 'read-only' }).waitFor();
  assert.equal(await tab.evaluate((t) => t.classList.contains('dirty')), false, 'not dirty');
  const lines = await page
    .locator('.editor-instance .monaco-editor .view-lines')
    .first()
    .innerText();
  assert.ok(!lines.includes('xyz'), 'typing changes nothing');
  assert.ok(lines.replace(/\u00a0/g, ' ').includes(text), lines);
}

export async function run({ page, step, shot, setTheme, THEMES }) {
  await step(
    'Read Resource opens the about resource as a read-only markdown document',
    async () => {
      await palette(page, 'MGP: Read Resource', 'about');
      const tab = page.locator('.tab', { hasText: 'about.md' });
      await tab.waitFor();
      await page
        .locator('.editor-instance .view-lines', { hasText: '# mgp-example-server' })
        .waitFor();
      await assertReadOnly(page, tab, '# mgp-example-server');
      await shot('resource-read-only');
      // Light, high contrast, then back to dark, the theme the other scenarios start in.
      for (const theme of THEMES) {
        await setTheme(theme);
        await page.mouse.move(1300, 400);
        await shot(`resource-read-only-${theme.file}`);
      }
      await closeActiveEditor(page, tab);
    },
  );

  await step(
    'Use Prompt asks its argument, then opens the prompt as a read-only document',
    async () => {
      await palette(page, 'MGP: Use Prompt', 'summarize-notes');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor();
      await input.fill('brief');
      await page.keyboard.press('Enter');
      const tab = page.locator('.tab', { hasText: 'summarize-notes.md' });
      await tab.waitFor();
      await page
        .locator('.editor-instance .view-lines', {
          hasText: 'Summarize my notes in a brief style.',
        })
        .waitFor();
      await assertReadOnly(page, tab, 'Summarize my notes in a brief style.');
      await closeActiveEditor(page, tab);
    },
  );
}
