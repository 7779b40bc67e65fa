// The server detail page: opened from a server's inline action in the Servers view, it shows the
// server's state, identity, capabilities, negotiated MGP extensions, permissions and tools with their
// switches; a switch turned there is the Servers view's switch; it follows the server when it stops and
// starts. The MCPL server shows its feature sets, a server that sends instructions shows them as text.
// Screenshots in dark and light.
import { strict as assert } from 'node:assert';
import {
  approvePermissions,
  expandTools,
  findWebviewFrame,
  openWorkbench,
  palette,
  serverRow,
  startWorkspaceServers,
} from '../uiKit.mjs';
import { switchTheme } from '../scenarios/10-run-tool.mjs';
import { HANG_MS } from '../patience.mjs';

export const title = 'server detail page';

const toolRow = (page, name) =>
  page.locator(`.monaco-list-row[aria-label^="Tool ${name},"]`).first();

/** Clicks a row's inline action (shown while the pointer is over the row). */
async function inlineAction(row, label, timeout = HANG_MS) {
  await row.hover({ timeout });
  await row.locator(`.action-label[aria-label="${label}"]`).click({ timeout });
}

/**
 * Opens a server's page from its inline action. A tree redrawn under the pointer (a tool count, a
 * state) can swallow the click, so the action is clicked again until the page's tab shows.
 */
async function openDetailsInline(page, id) {
  const tab = page.locator('.tab', { hasText: `Server: ${id}` });
  for (const until = Date.now() + HANG_MS; !(await tab.isVisible());) {
    if (Date.now() > until) throw new Error(`"Show Server Details" opened no page for ${id}`);
    const row = await serverRow(page, id, 'connected');
    await inlineAction(row, 'Show Server Details', 5000).catch(() => undefined);
    await tab.waitFor({ timeout: 5000 }).catch(() => undefined);
  }
}

export async function run(kit) {
  const { page, server, workspace, step, shot, assertReadable, THEMES } = kit;
  let frame;
  const tool = (name) => frame.locator(`.tool[data-tool="${name}"]`);

  await step('the example workspace runs its servers', async () => {
    await openWorkbench(page, server, workspace);
    await startWorkspaceServers(page, ['example', 'everything', 'live']);
    await approvePermissions(page, 'example');
    await serverRow(page, 'example', 'connected');
  });

  await step(
    '"Show Server Details" on the example server shows its state, version, capabilities, MGP extensions, permissions and tools',
    async () => {
      await openDetailsInline(page, 'example');
      frame = await findWebviewFrame(page, 'Server: example');
      await frame.locator('#app[data-state="connected"]').waitFor();
      assert.equal(await frame.locator('h1').textContent(), 'example');
      assert.match(await frame.locator('[data-fact="state"]').textContent(), /connected/);
      assert.equal(await frame.locator('[data-fact="transport"]').textContent(), 'stdio');
      assert.match(await frame.locator('[data-fact="target"]').textContent(), /mgp-example-server/);
      assert.match(await frame.locator('[data-fact="server-info"]').textContent(), /\d+\.\d+/);
      const capabilities = await frame
        .locator('[data-section="capabilities"] .chip')
        .allTextContents();
      assert.ok(capabilities.includes('tools'), capabilities.join(', '));
      assert.match(await frame.locator('[data-fact="mgp-version"]').textContent(), /^MGP \d/);
      const extensions = await frame.locator('[data-section="extensions"] .chip').allTextContents();
      assert.ok(extensions.includes('security'), extensions.join(', '));
      const decisions = await frame.locator('[data-permission] [data-decision]').allTextContents();
      assert.ok(decisions.length > 0, 'the permissions it asked for are listed');
      assert.ok(
        decisions.every((text) => text === '✓ granted'),
        decisions.join(', '),
      );
      assert.equal(await tool('echo').locator('input[role="switch"]').isChecked(), true);
    },
  );

  await step(
    "the example server's own icons show: on its row, its tools' rows and its page (MCP 2025-11-25 icons)",
    async () => {
      // An image icon is a background image on the row's icon, with no codicon class.
      const imageIcon = (row) =>
        row.locator('.custom-view-tree-node-item-icon[style*="background-image"]');
      const serverIcon = imageIcon(await serverRow(page, 'example', 'connected'));
      await serverIcon.waitFor();
      await expandTools(await serverRow(page, 'example', 'connected'));
      const addIcon = imageIcon(toolRow(page, 'add'));
      await addIcon.waitFor();
      for (const icon of [serverIcon, addIcon]) {
        const { cls, image } = await icon.evaluate((node) => ({
          cls: node.className,
          image: node.style.backgroundImage,
        }));
        assert.doesNotMatch(cls, /codicon/, 'an image, not a codicon');
        assert.match(image, /url\(/);
      }
      // A dangerous tool keeps its flame: a server's picture does not cover the kernel's mark.
      const runCode = toolRow(page, 'run_code');
      await runCode.waitFor();
      assert.match(
        await runCode.locator('.custom-view-tree-node-item-icon').getAttribute('class'),
        /codicon-flame/,
      );
      const pageIcons = frame.locator('h1 img.server-icon');
      await pageIcons.first().waitFor({ state: 'attached' });
      for (const src of await pageIcons.evaluateAll((nodes) => nodes.map((n) => n.src)))
        assert.match(src, /^data:image\/png;base64,/);
      await shot('server-icons-tree');
    },
  );

  await step(
    'turning echo off with the keyboard on the page turns it off in the Servers view too',
    async () => {
      const toggle = tool('echo').locator('input[role="switch"]');
      await toggle.focus();
      await page.keyboard.press('Space');
      await frame.locator('.tool[data-tool="echo"][data-off="true"]').waitFor();
      // The page draws again on each update from the host (another server's start among them)
      // and puts the focus back on the control it was on: the switch has it once they settle.
      await frame
        .waitForFunction(
          () => document.activeElement?.matches('.tool[data-tool="echo"] input[role="switch"]'),
          undefined,
          { timeout: 10_000 },
        )
        .catch(() => {
          throw new Error('the switch lost the focus when the page drew again');
        });
      await expandTools(await serverRow(page, 'example', 'connected'));
      await page
        .locator('.monaco-list-row[aria-label^="Tool echo,"][aria-label$="turned off"]')
        .waitFor();
      const [, on, all] = (await frame.locator('[data-section="tools"] h2').textContent()).match(
        /^Tools \((\d+) of (\d+) on\)$/,
      );
      assert.equal(Number(on), Number(all) - 1);
    },
  );

  for (const theme of THEMES.filter((t) => t.file === 'dark' || t.file === 'light')) {
    await step(`the server detail page is readable in ${theme.name}`, async () => {
      await page.locator('.tab', { hasText: 'Server: example' }).click();
      await switchTheme(kit, theme, frame);
      await assertReadable(frame, [
        'h1',
        '.facts dt',
        '.facts dd',
        '.chip',
        '.tool-name',
        '.tool.off .tool-name',
        '[data-risk]',
        '[data-decision]',
        '.muted',
      ]);
      await page.mouse.move(1300, 400);
      await shot(`server-detail-${theme.file}`);
    });
  }

  await step('echo turned on again from the Servers view is on in the page', async () => {
    await inlineAction(toolRow(page, 'echo'), 'Turn Tool On');
    await frame.locator('.tool[data-tool="echo"][data-off="false"]').waitFor();
  });

  await step('the page follows the server: Stop, then Start, from its own buttons', async () => {
    await frame.locator('button[data-action="stop"]').click();
    await frame.locator('#app[data-state="disconnected"]').waitFor();
    assert.equal(await frame.locator('.tool').count(), 0, 'no tools listed while stopped');
    await frame.locator('button[data-action="start"]').click();
    await frame.locator('#app[data-state="connected"]').waitFor();
    await tool('echo').waitFor();
  });

  await step(
    'the MCPL server shows its feature sets; everything shows its instructions as text',
    async () => {
      await palette(
        page,
        'MGP: Show Server Details',
        'live',
        page.locator('.tab', { hasText: 'Server: live' }).first(),
      );
      const live = await findWebviewFrame(page, 'Server: live');
      await live.locator('#app[data-state="connected"]').waitFor();
      assert.ok((await live.locator('[data-feature-set]').count()) > 0, 'feature sets listed');
      assert.match(
        await live.locator('[data-feature-set="memory.facts"]').textContent(),
        /on · from config/,
      );
      await shot('server-detail-mcpl');

      const everything = await serverRow(page, 'everything', 'connected');
      // A click on a context menu just drawn can go nowhere: the menu is opened and clicked again
      // until the page's tab shows.
      const item = page.locator('.context-view .action-label', { hasText: 'Show Server Details' });
      const tab = page.locator('.tab', { hasText: 'Server: everything' });
      for (const until = Date.now() + HANG_MS; !(await tab.isVisible());) {
        if (Date.now() > until) throw new Error('the context menu opened no details (a hang)');
        if (!(await item.isVisible())) await everything.click({ button: 'right' });
        await item.click({ timeout: 5000 }).catch(() => undefined);
        await tab.waitFor({ timeout: 5000 }).catch(() => undefined);
      }
      const frameOf = await findWebviewFrame(page, 'Server: everything');
      await frameOf.locator('#app[data-state="connected"]').waitFor();
      const text = frameOf.locator('pre.instructions');
      await text.waitFor();
      assert.ok((await text.textContent()).length > 0);
      assert.equal(await text.locator('*').count(), 0, 'the instructions are text, not markup');
      assert.match(
        await frameOf.locator('[data-fact="mgp-version"]').textContent(),
        /does not speak MGP/,
      );
      await frameOf.locator('[data-section="instructions"]').scrollIntoViewIfNeeded();
      await shot('server-detail-instructions');
    },
  );
}
