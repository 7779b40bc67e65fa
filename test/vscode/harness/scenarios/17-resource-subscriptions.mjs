// Resource subscriptions and resource links (MCP 2025-11-25): a resource of server-everything (which
// declares resources.subscribe) is subscribed from its row in the Servers view, which then says so,
// and let go from its open document's editor title. A resource_link in a tool's result (Run Tool)
// opens the resource; subscribed from the editor title, the document follows the server's updates.
import { strict as assert } from 'node:assert';
import { expandGroup, findWebviewFrame, palette, serverRow, THEMES } from '../uiKit.mjs';

export const title = 'resource subscriptions and resource links';

const RESOURCE = 'architecture.md';
const resourceRow = (page, suffix = '') =>
  page.locator(`.monaco-list-row[aria-label="Resource ${RESOURCE}${suffix}"]`);
const editorAction = (page, label) =>
  page.locator(`.editor-actions .action-label[aria-label="${label}"]`).first();

/** Runs a tool of server-everything in the Run Tool panel with its default arguments. */
async function runTool(page, toolName, expected) {
  await palette(page, 'MGP: Run Tool', `everything.${toolName}`);
  const frame = await findWebviewFrame(page, `Run everything · ${toolName}`);
  await frame.locator(`main[data-tool="everything.${toolName}"][data-state="ready"]`).waitFor();
  await frame.locator('button.run').click();
  await frame.locator('.outcome .result[data-state="ok"]', { hasText: expected }).waitFor();
  return frame;
}

/** The text of the active editor's lines. */
function editorText(page) {
  return page.locator('.editor-instance .monaco-editor .view-lines').first().innerText();
}

export async function run({ page, step, shot, setTheme }) {
  await step(
    'a resource is subscribed from its row in the Servers view, which says so',
    async () => {
      await serverRow(page, 'example', 'connected');
      // The view is short and its list virtual: close the open servers so everything's rows are drawn.
      const open = page.locator('.monaco-list-row[aria-label^="Server "][aria-expanded="true"]');
      for (let clicks = 0; clicks < 10 && (await open.count()); clicks++)
        await open.first().click();
      await expandGroup(await serverRow(page, 'everything', 'connected'), 'Resources');
      const row = resourceRow(page);
      await row.waitFor();
      await row.hover();
      await row.locator('.action-label[aria-label="Subscribe to Resource"]').click();
      const subscribed = resourceRow(page, ', subscribed');
      await subscribed.waitFor();
      assert.match(await subscribed.locator('.label-description').innerText(), /^subscribed/);
      for (const theme of ['dark', 'light']) {
        await setTheme(THEMES.find((t) => t.file === theme));
        await subscribed.hover();
        await subscribed.locator('.action-label[aria-label="Unsubscribe from Resource"]').waitFor();
        await shot(`resource-subscribed-row-${theme}`);
      }
      await setTheme(THEMES.find((t) => t.file === 'dark'));
    },
  );

  await step("the subscribed resource's editor offers Unsubscribe, and it lets go", async () => {
    await resourceRow(page, ', subscribed').click();
    const tab = page.locator('.tab', { hasText: RESOURCE });
    await tab.waitFor();
    await editorAction(page, 'Unsubscribe from Resource').click();
    await editorAction(page, 'Subscribe to Resource').waitFor();
    await resourceRow(page).waitFor();
    await palette(page, 'View: Close Editor');
    await tab.waitFor({ state: 'detached' });
  });

  await step('a resource_link in a Run Tool result opens the resource as a document', async () => {
    const frame = await runTool(page, 'get-resource-links', 'Here are 3 resource links');
    const link = frame.locator('button.resource-link', { hasText: 'Text Resource 2' });
    await link.waitFor();
    for (const theme of ['dark', 'light']) {
      await setTheme(
        THEMES.find((t) => t.file === theme),
        frame,
      );
      await link.scrollIntoViewIfNeeded();
      await shot(`resource-links-in-run-tool-${theme}`);
    }
    await setTheme(
      THEMES.find((t) => t.file === 'dark'),
      frame,
    );
    await link.click();
    await page.locator('.tab', { hasText: 'Text Resource 2.txt' }).waitFor();
    await page
      .locator('.editor-instance .view-lines', { hasText: 'Resource 2: This is a plaintext' })
      .waitFor();
  });

  await step(
    "subscribed from the editor title, the open document follows the server's updates",
    async () => {
      const tab = page.locator('.tab', { hasText: 'Text Resource 2.txt' });
      await tab.click();
      await editorAction(page, 'Subscribe to Resource').click();
      await editorAction(page, 'Unsubscribe from Resource').waitFor();
      const first = await editorText(page);
      // server-everything sends updates of subscribed resources once this tool turned them on.
      await runTool(page, 'toggle-subscriber-updates', 'Started simulated resource updated');
      await tab.click();
      // Monaco draws spaces as no-break spaces: compare the text with plain spaces.
      await page.waitForFunction(
        (before) => {
          const lines = document.querySelector('.editor-instance .monaco-editor .view-lines');
          const text = lines?.textContent?.replace(/\u00a0/g, ' ') ?? '';
          return /created at/.test(text) && text !== before;
        },
        first.replace(/\u00a0/g, ' ').replace(/\n/g, ''),
        { timeout: 30_000 },
      );
      await palette(page, 'View: Toggle Word Wrap');
      for (const theme of ['dark', 'light']) {
        await setTheme(THEMES.find((t) => t.file === theme));
        await shot(`resource-updated-document-${theme}`);
      }
      await setTheme(THEMES.find((t) => t.file === 'dark'));
      await editorAction(page, 'Unsubscribe from Resource').click();
      await editorAction(page, 'Subscribe to Resource').waitFor();
      await runTool(page, 'toggle-subscriber-updates', 'Stopped simulated resource updates');
      await palette(page, 'View: Close All Editors');
      await tab.waitFor({ state: 'detached' });
    },
  );
}
