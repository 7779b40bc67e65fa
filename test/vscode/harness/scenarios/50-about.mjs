// "MGP: About MGP Kernel": the kernel's status, live updates, and readability in three themes.
import { strict as assert } from 'node:assert';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { pkg } from '../paths.mjs';

export const title = 'about panel';

export async function run({
  page,
  workspace,
  step,
  shot,
  runFromPalette,
  webviewFrame,
  setTheme,
  assertReadable,
  THEMES,
}) {
  const about = () => webviewFrame('About MGP Kernel');

  await step('"MGP: About MGP Kernel" runs from the command palette', async () => {
    await runFromPalette('MGP: About MGP Kernel');
    await page.locator('.tab', { hasText: 'About MGP Kernel' }).waitFor();
  });

  await step('the About panel answers with the kernel status', async () => {
    const frame = await about();
    await frame.locator('[data-fact="version"]', { hasText: pkg.version }).waitFor();
    await frame.locator('tr[data-server="example"]').waitFor();
    await frame.locator('tr[data-server="everything"]').waitFor();
    assert.equal(await frame.locator('[data-fact="trust"]').textContent(), 'Trusted');
    await frame.locator('[data-fact="language-server"]', { hasText: 'running' }).waitFor();
  });

  await step(
    "the About panel lists a running server's instructions, collapsed, as text",
    async () => {
      const frame = await about();
      const entry = frame.locator('details[data-instructions="everything"]');
      await entry.waitFor();
      assert.equal(await entry.getAttribute('open'), null, 'collapsed at first');
      await entry.locator('summary').focus();
      await page.keyboard.press('Enter');
      const text = entry.locator('pre.instructions');
      await text.waitFor();
      assert.ok((await text.textContent()).trim().length > 0);
      assert.equal(await text.locator('*').count(), 0, 'the instructions are text, not markup');
      await entry.scrollIntoViewIfNeeded();
      await shot('about-panel-instructions');
    },
  );

  await step('the About panel follows a change to mgp.toml', async () => {
    appendFileSync(
      join(workspace, 'mgp.toml'),
      '\n[[servers]]\nid = "remote-demo"\ntransport = "http"\nurl = "https://mcp.example.com/mcp"\n',
    );
    await (await about()).locator('tr[data-server="remote-demo"]').waitFor();
    // The new workspace server asks before it starts; this test leaves it unapproved.
    const dialog = page.locator('.monaco-dialog-box', {
      hasText: 'Start MCP server "remote-demo" from this workspace?',
    });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  });

  for (const theme of THEMES) {
    await step(`the About panel is readable in ${theme.name}`, async () => {
      await page.locator('.tab', { hasText: 'About MGP Kernel' }).click();
      const frame = await about();
      await setTheme(theme, frame);
      await assertReadable(frame, ['[data-fact="version"]', 'dt']);
      await shot(`about-panel-${theme.file}`);
    });
  }
}
