// Tool-call approvals: the modal dialog for a dangerous tool, then the Approvals panel answering a
// request (setting mgp.approvals.prompt = notification), its past decisions and standing grants,
// revoking a session grant, and readability in three themes.
import { strict as assert } from 'node:assert';
import { writeSettings } from '../codeServer.mjs';

export const title = 'approvals';

/** "MGP: Run Tool": picks the tool in the quick pick, types its JSON arguments, presses Enter. */
export async function runTool({ page, runFromPalette }, qualifiedName, args) {
  await runFromPalette('MGP: Run Tool');
  const input = page.locator('.quick-input-widget input');
  await input.fill(qualifiedName);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: qualifiedName }).first().click();
  const [server, tool] = qualifiedName.split('.');
  await page.locator('.quick-input-widget .quick-input-title', { hasText: `Run ${server} · ${tool}` }).waitFor({ timeout: 10000 });
  await input.fill(JSON.stringify(args));
  await input.press('Enter');
}

/** The Markdown result of a tool run, shown in an editor. */
function result(page, text) {
  return page.locator('.monaco-editor .view-lines', { hasText: text }).first();
}

export async function run(kit) {
  const { page, dirs, step, shot, runFromPalette, webviewFrame, setTheme, assertReadable, THEMES } = kit;
  const panel = () => webviewFrame('Approvals');
  const pending = () => panel().locator('article[data-request][data-tool="delete_notes"]');

  await step('a dangerous tool asks first in a modal dialog with server, tool, arguments and risk; "Allow Once" runs it', async () => {
    await runTool(kit, 'example.delete_notes', { title: 'groceries' });
    const dialog = page.locator('.monaco-dialog-box', { hasText: 'Allow "example" to run delete_notes?' });
    await dialog.waitFor({ timeout: 20000 });
    const text = (await dialog.textContent()).replace(/\s+/g, ' ');
    for (const expected of ['Server: example', 'Tool: delete_notes', '"title": "groceries"', 'Risk: dangerous', 'untrusted']) assert.ok(text.includes(expected), `the dialog shows ${expected}: ${text}`);
    await shot('approval-modal');
    await dialog.getByRole('button', { name: 'Allow Once', exact: true }).click();
    await result(page, 'Deleted 0 notes').waitFor({ timeout: 20000 });
  });

  await step('with mgp.approvals.prompt = notification, the Approvals panel shows the first decision and the standing grants', async () => {
    writeSettings(dirs, { 'mgp.approvals.prompt': 'notification' });
    await runFromPalette('MGP: Show Approvals');
    await page.locator('.tab', { hasText: 'Approvals' }).waitFor({ timeout: 20000 });
    await panel().locator('#pending-heading', { hasText: 'Waiting for your answer (0)' }).waitFor({ timeout: 20000 });
    await panel().locator('tr[data-answer="once"]', { hasText: 'delete_notes' }).waitFor({ timeout: 10000 });
    await panel().locator('[data-grant="permission:example:memory.write"]', { hasText: 'Approved' }).waitFor({ timeout: 10000 });
  });

  await step('a new request shows in the open panel at once, with risk, side effects, arguments, agent and the untrusted warning', async () => {
    await runTool(kit, 'example.write_note', { title: 'drafts', body: 'ideas for the talk' });
    await result(page, 'Stored note').waitFor({ timeout: 20000 });
    await runTool(kit, 'example.delete_notes', {});
    await pending().waitFor({ timeout: 20000 });
    const card = pending();
    assert.equal(await card.getAttribute('data-server'), 'example');
    assert.equal(await card.locator('[data-risk]').first().textContent(), '▲ dangerous');
    const text = (await card.textContent()).replace(/\s+/g, ' ');
    for (const expected of ['from server', 'database · not reversible', 'memory.write', 'agent.vscode', 'From the server — untrusted:', 'Deletes the note with the given title', 'may be misleading']) assert.ok(text.includes(expected), `the request shows "${expected}": ${text}`);
    assert.equal((await card.locator('pre.args').textContent()).trim(), '{}');
    assert.deepEqual(await card.locator('.actions button').allTextContents(), ['Allow once', 'Allow for session', 'Always allow', 'Allow all of "example" for session', 'Deny']);
    await page.locator('.tab', { hasText: 'Approvals' }).click();
    await shot('approvals-panel-pending');
  });

  for (const theme of THEMES) {
    await step(`the Approvals panel is readable in ${theme.name}`, async () => {
      await page.locator('.tab', { hasText: 'Approvals' }).click();
      await setTheme(theme, panel());
      await pending().waitFor({ timeout: 10000 });
      await assertReadable(panel(), ['h1', '#pending-heading', 'article[data-request] h3', 'article[data-request] .facts dt', '.untrusted .muted', 'th', '[data-grant] td', '.empty']);
      await shot(`approvals-panel-${theme.file}`);
    });
  }

  await step('"Allow for session" in the panel runs the call; the panel lists the decision and the session grant', async () => {
    await pending().locator('button[data-answer="session"]').click();
    await result(page, 'Deleted 1 note').waitFor({ timeout: 20000 });
    await panel().locator('#pending-heading', { hasText: 'Waiting for your answer (0)' }).waitFor({ timeout: 10000 });
    await panel().locator('tr[data-answer="session"]', { hasText: 'delete_notes' }).waitFor({ timeout: 10000 });
    await panel().locator('[data-grant="session:example:delete_notes"]').waitFor({ timeout: 10000 });
  });

  await step('the session grant is revoked from the panel', async () => {
    await page.locator('.tab', { hasText: 'Approvals' }).click();
    await panel().locator('[data-grant="session:example:delete_notes"] button', { hasText: 'Revoke' }).click();
    await panel().locator('[data-grant="session:example:delete_notes"]').waitFor({ state: 'detached', timeout: 10000 });
    await panel().locator('[data-section="tools"] h3', { hasText: 'Tool approvals (0)' }).waitFor({ timeout: 10000 });
    await shot('approvals-panel-revoked');
  });
}
