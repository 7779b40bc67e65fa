// Tool-call approvals: the modal dialog for a dangerous tool (Deny has the focus, Escape denies, one
// Allow with "Allow For…" to choose the scope), then the notification form (setting
// mgp.approvals.prompt = notification), which closes when the Approvals panel answers it, the panel's
// Allow with its scope beside it, past decisions and standing grants, revoking a session grant, and
// readability in three themes.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { notification, palette } from '../uiKit.mjs';
import { HANG_MS, waitFor } from '../patience.mjs';

export const title = 'approvals';

/**
 * "MGP: Run Tool": picks the tool in the quick pick; in its Run Tool panel, types the arguments as JSON
 * ("Edit as JSON") and presses Run. Returns a function that finds the panel again.
 */
export async function runTool({ page, webviewFrame }, qualifiedName, args) {
  const [serverId, toolName] = [
    qualifiedName.slice(0, qualifiedName.indexOf('.')),
    qualifiedName.slice(qualifiedName.indexOf('.') + 1),
  ];
  const title = `Run ${serverId} · ${toolName}`;
  await palette(page, 'MGP: Run Tool', qualifiedName);
  await page.locator('.tab', { hasText: title }).waitFor();
  const frame = await webviewFrame(title);
  await frame.locator('main[data-state="ready"]').waitFor();
  const toggle = frame.locator('.json-toggle');
  // A tool that takes no arguments has no form, so nothing to type.
  if (await toggle.count()) {
    if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
    await frame.locator('textarea.json-editor').fill(JSON.stringify(args));
  }
  await frame.locator('button.run').click();
  return title;
}

/** Shows the Run Tool panel titled `title` and waits until its result holds `text`. */
export async function runResult({ page, webviewFrame }, title, text) {
  await page.locator('.tab', { hasText: title }).click();
  const frame = await webviewFrame(title);
  await frame.locator('.outcome .result[data-state="ok"]', { hasText: text }).waitFor();
}

export async function run(kit) {
  const { page, dirs, step, shot, webviewFrame, setTheme, assertReadable, THEMES } = kit;
  const panel = () => webviewFrame('Approvals');
  const pending = async () =>
    (await panel()).locator('article[data-request][data-tool="delete_notes"]');

  const dangerousDialog = () =>
    page.locator('.monaco-dialog-box', { hasText: 'Allow "example" to run delete_notes?' });

  await step(
    'a dangerous tool asks first in a modal dialog with server, tool, arguments and risk; Deny has the focus and Escape denies',
    async () => {
      const run = await runTool(kit, 'example.delete_notes', { title: 'groceries' });
      const dialog = dangerousDialog();
      await dialog.waitFor();
      const text = (await dialog.textContent()).replace(/\s+/g, ' ');
      for (const expected of [
        'Server: example',
        'Tool: delete_notes',
        '"title": "groceries"',
        'Risk: dangerous',
        'Requested by: you, in the editor',
        'cannot be undone',
        'untrusted',
      ])
        assert.ok(text.includes(expected), `the dialog shows ${expected}: ${text}`);
      assert.ok(!text.includes('heuristic'), `no internal words in the dialog: ${text}`);
      const buttons = await dialog.locator('.dialog-buttons a.monaco-button').allTextContents();
      for (const label of ['Deny', 'Allow', 'Allow For…'])
        assert.ok(buttons.includes(label), `a ${label} button: ${buttons}`);
      assert.equal(
        await page.evaluate(() => document.activeElement?.textContent?.trim()),
        'Deny',
        'the focused button of a dangerous tool is Deny',
      );
      await shot('approval-modal');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await page.locator('.tab', { hasText: run }).click();
      const frame = await webviewFrame(run);
      // Denied: a block by the kernel (your approval), not an error of the server.
      await frame
        .locator('.outcome .result[data-state="blocked"]', { hasText: 'Approval' })
        .waitFor();
    },
  );

  await step(
    '"Allow For…" offers the scopes, each saying what it covers; "Once" runs the call',
    async () => {
      const run = await runTool(kit, 'example.delete_notes', { title: 'groceries' });
      const dialog = dangerousDialog();
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Allow For…', exact: true }).click();
      const rows = page.locator('.quick-input-list .monaco-list-row');
      await rows.first().waitFor();
      const labels = await rows.evaluateAll((all) =>
        all.map((row) => row.querySelector('.label-name')?.textContent),
      );
      assert.deepEqual(labels, [
        'Once',
        'This session',
        'All of "example" this session',
        'Always in this workspace',
      ]);
      const always = (await rows.nth(3).textContent()).replace(/\s+/g, ' ');
      assert.match(always, /until you revoke it in the Approvals panel/);
      await shot('approval-scope-pick');
      await rows.first().click();
      await runResult(kit, run, 'Deleted 0 notes');
    },
  );

  await step(
    'the setting mgp.approvals.prompt is set to "notification" in the Settings editor',
    async () => {
      await palette(page, 'Preferences: Open User Settings');
      await page.locator('.settings-editor').waitFor();
      await page.locator('.settings-editor .suggest-input-container').click();
      await page.keyboard.type('mgp.approvals.prompt');
      const row = page.locator(
        '.settings-editor .setting-item-contents[data-key="mgp.approvals.prompt"]',
      );
      await row.waitFor();
      await row.locator('select').selectOption('notification');
      await waitFor(
        () =>
          readFileSync(join(dirs.userData, 'User/settings.json'), 'utf8').includes(
            '"mgp.approvals.prompt": "notification"',
          ),
        'settings.json has the setting',
      );
      await palette(page, 'View: Close Editor');
    },
  );

  await step(
    'the Approvals panel shows the first decision and the standing grants, among them the server permissions with their expiry',
    async () => {
      await palette(
        page,
        'MGP: Show Approvals',
        undefined,
        page.locator('.tab', { hasText: 'Approvals' }).first(),
      );
      await (
        await panel()
      )
        .locator('#pending-heading', { hasText: 'Waiting for your answer (0)' })
        .waitFor();
      await (
        await panel()
      )
        .locator('tr[data-answer="once"]', { hasText: 'delete_notes' })
        .waitFor();
      await (
        await panel()
      )
        .locator('[data-grant="permission:example:memory.write"]', { hasText: 'Approved' })
        .waitFor();
    },
  );

  await step(
    'a request shows in the open panel at once and as a short notification; Allow there runs it and closes the notification',
    async () => {
      const run = await runTool(kit, 'example.write_note', {
        title: 'drafts',
        body: 'ideas for the talk',
      });
      const card = (await panel()).locator('article[data-request][data-tool="write_note"]');
      await card.waitFor();
      const asking = await notification(page, '"example" wants to run write_note', HANG_MS);
      await asking.locator('a', { hasText: 'Review in Approvals' }).waitFor();
      await shot('approval-notification');
      // The tool says it is moderate; its annotations say destructive: the higher risk wins, and the claim is shown.
      assert.match((await card.textContent()).replace(/\s+/g, ' '), /the server claims "moderate"/);
      await card.locator('button[data-answer="once"]').click();
      await card.waitFor({ state: 'detached' });
      await asking.waitFor({ state: 'detached' });
      await palette(page, 'Notifications: Hide Notifications');
      await runResult(kit, run, 'Stored note');
    },
  );

  await step(
    'the dangerous tool again: the panel shows risk, side effects, arguments, agent and the untrusted warning',
    async () => {
      await runTool(kit, 'example.delete_notes', {});
      await (await pending()).waitFor();
      const card = await pending();
      assert.equal(await card.getAttribute('data-server'), 'example');
      assert.equal(await card.locator('[data-risk]').first().textContent(), '▲ dangerous');
      const text = (await card.textContent()).replace(/\s+/g, ' ');
      assert.equal(
        await card.locator('[title^="Where this risk comes from"]').getAttribute('title'),
        'Where this risk comes from: heuristic',
      );
      for (const expected of [
        'database · cannot be undone',
        'memory.write',
        'you, in the editor',
        'From the server — untrusted:',
        'Deletes the note with the given title',
        'may be misleading',
      ])
        assert.ok(text.includes(expected), `the request shows "${expected}": ${text}`);
      assert.equal((await card.locator('pre.args').textContent()).trim(), '{}');
      assert.ok(!text.includes('agent.vscode') && !text.includes('heuristic'), text);
      assert.deepEqual(await card.locator('.actions button').allTextContents(), ['Allow', 'Deny']);
      assert.deepEqual(await card.locator('.actions select option').allTextContents(), [
        'Once',
        'This session',
        'All of "example" this session',
        'Always in this workspace',
      ]);
      await card.locator('.actions select').selectOption('always');
      await card
        .locator('.covers', { hasText: 'until you revoke it in the Approvals panel' })
        .waitFor();
      await card.locator('.actions select').selectOption('once');
      await page.locator('.tab', { hasText: 'Approvals' }).click();
      await shot('approvals-panel-pending');
    },
  );

  for (const theme of THEMES) {
    await step(`the Approvals panel is readable in ${theme.name}`, async () => {
      await page.locator('.tab', { hasText: 'Approvals' }).click();
      await setTheme(theme, await panel());
      await page.mouse.move(1300, 140); // no hover on a tab in the picture
      await (await pending()).waitFor();
      await assertReadable(await panel(), [
        'h1',
        '#pending-heading',
        'article[data-request] h3',
        'article[data-request] .facts dt',
        '.untrusted .muted',
        'th',
        '[data-grant] td',
        '.empty',
      ]);
      await shot(`approvals-panel-${theme.file}`);
    });
  }

  await step(
    'Allow with "This session" chosen beside it runs the call; the panel lists the decision and the session grant',
    async () => {
      await page.locator('.tab', { hasText: 'Approvals' }).click();
      await (await pending()).locator('.actions select').selectOption('session');
      await (
        await pending()
      )
        .locator('button[data-answer="session"]', { hasText: 'Allow' })
        .click();
      await runResult(kit, 'Run example · delete_notes', 'Deleted 1 note');
      await page.locator('.tab', { hasText: 'Approvals' }).click();
      await (
        await panel()
      )
        .locator('#pending-heading', { hasText: 'Waiting for your answer (0)' })
        .waitFor();
      await (
        await panel()
      )
        .locator('tr[data-answer="session"]', { hasText: 'delete_notes' })
        .waitFor();
      await (await panel()).locator('[data-grant="session:example:delete_notes"]').waitFor();
      await shot('approvals-panel-session-grant');
    },
  );

  await step('the session grant is revoked from the panel', async () => {
    await page.locator('.tab', { hasText: 'Approvals' }).click();
    await (
      await panel()
    )
      .locator('[data-grant="session:example:delete_notes"] button', { hasText: 'Revoke' })
      .click();
    await (
      await panel()
    )
      .locator('[data-grant="session:example:delete_notes"]')
      .waitFor({ state: 'detached' });
    await (
      await panel()
    )
      .locator('[data-section="tools"] h3', { hasText: 'Tool approvals (0)' })
      .waitFor();
    await shot('approvals-panel-revoked');
  });
}
