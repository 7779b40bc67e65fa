// MGP: Validate Server (MGP §17.8) in the editor. The example server, validated from its context
// menu in the Servers view, reaches its tier with no FAIL; a section a check cites opens the bundled
// MGP text at that heading, read-only; Re-run runs again; the server's page shows the tier badge; the
// mgp.toml shows a "Validate" lens over the server. A user server that lies about permissions
// (it runs write_note without the grant) FAILs exactly that check, with what was expected, what came
// and the exchange. Screenshots of both reports in dark and light.
import { strict as assert } from 'node:assert';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  approvePermissions,
  findWebviewFrame,
  openMgpToml,
  openWorkbench,
  palette,
  serverRow,
  startWorkspaceServers,
} from '../uiKit.mjs';
import { switchTheme } from '../scenarios/10-run-tool.mjs';
import { HANG_MS } from '../patience.mjs';
import { repo } from '../paths.mjs';

export const title = 'validate a server: the report page, its links, the badge and the lens';

const claims = join(repo, 'test/fixtures/servers/mgp-claims.js');

export const window = {
  prepare(workspace) {
    appendFileSync(
      join(workspace, 'mgp.toml'),
      `\n[[servers]]\nid = "claims"\ncommand = "node"\n` +
        `args = [${JSON.stringify(claims)}, "--runs-without-grant"]\n`,
    );
  },
};

/** Opens the report from a server row's context menu, clicked again until the report's tab shows. */
async function validateFromMenu(page, id) {
  const item = page.locator('.context-view .action-label', { hasText: 'Validate Server' });
  const tab = page.locator('.tab', { hasText: `Validation: ${id}` });
  for (const until = Date.now() + HANG_MS; !(await tab.isVisible());) {
    if (Date.now() > until) throw new Error('the context menu opened no report (a hang)');
    if (!(await item.isVisible()))
      await (await serverRow(page, id, 'connected')).click({ button: 'right' });
    await item.click({ timeout: 5000 }).catch(() => undefined);
    await tab.waitFor({ timeout: 5000 }).catch(() => undefined);
  }
}

async function finished(frame) {
  await frame.locator('#app[data-running="false"] .result').waitFor({ timeout: HANG_MS * 2 });
}

export async function run(kit) {
  const { page, server, workspace, step, shot, assertReadable, THEMES } = kit;
  let report;

  await step('the example workspace runs; the lying server is not allowed yet', async () => {
    await openWorkbench(page, server, workspace);
    await startWorkspaceServers(page, ['example', 'everything', 'live']);
    // The lying server is not allowed to start yet: validating it asks first.
    await page
      .locator('.monaco-dialog-box', { hasText: 'Start MCP server "claims" from this workspace?' })
      .getByRole('button', { name: 'Cancel', exact: true })
      .click();
    await approvePermissions(page, 'example');
    await serverRow(page, 'example', 'connected');
  });

  await step(
    '"Validate Server" on the example server lists every check as it ends, then its tier with no FAIL',
    async () => {
      await validateFromMenu(page, 'example');
      report = await findWebviewFrame(page, 'Validation: example');
      await finished(report);
      const result = await report.locator('[data-result]').textContent();
      assert.match(result, /^Tier [1-4] compliant \(\d+\/11 extensions\)/);
      assert.equal(await report.locator('[data-status="fail"]').count(), 0, 'no FAIL');
      assert.ok((await report.locator('[data-check]').count()) >= 20, 'every check is listed');
      assert.match(await report.locator('[data-fact="isolation"]').textContent(), /sandbox/);
      for (const group of ['MCP', 'Tier 1', 'Tier 2', 'Tier 3'])
        await report.locator(`[data-group="${group}"]`).waitFor();
    },
  );

  for (const theme of THEMES.filter((t) => t.file === 'dark' || t.file === 'light'))
    await step(`the example's report is readable in ${theme.name}`, async () => {
      await page.locator('.tab', { hasText: 'Validation: example' }).click();
      await switchTheme(kit, theme, report);
      await assertReadable(report, [
        'h1',
        'h2',
        '.status',
        '.check-title',
        '.detail',
        'button.link',
        '.tier-badge',
      ]);
      await page.mouse.move(1300, 400);
      await shot(`validate-example-${theme.file}`);
    });

  await step('a cited section opens the bundled MGP text at its heading, read-only', async () => {
    await report
      .locator('[data-check="mgp.security-metadata"] button.link', { hasText: 'MGP §4' })
      .click();
    await page.locator('.tab', { hasText: 'mgp-0.5.2-draft.md' }).waitFor();
    const line = (text) => page.locator('.editor-instance .view-line', { hasText: text });
    await line('## 4. Tool Security Metadata').waitFor();
    await line('## 4. Tool Security Metadata').click();
    await page.keyboard.type('x');
    // A change would mark the tab dirty; VS Code says "Cannot edit in read-only editor" instead.
    await page.locator('.monaco-editor-overlaymessage', { hasText: 'read-only' }).waitFor();
    assert.equal(await page.locator('.tab.dirty', { hasText: 'mgp-0.5.2-draft.md' }).count(), 0);
    await shot('validate-section-link');
  });

  await step('Re-run runs the checks again', async () => {
    await page.locator('.tab', { hasText: 'Validation: example' }).click();
    const before = await report.locator('[data-fact="when"]').textContent();
    await report.locator('button[data-action="rerun"]').click();
    await report.locator('#app[data-running="true"]').waitFor();
    await finished(report);
    assert.notEqual(await report.locator('[data-fact="when"]').textContent(), before);
  });

  await step(
    'the lying server FAILs the permission flow, with what was expected and what came',
    async () => {
      await palette(page, 'MGP: Validate Server', 'claims');
      // Validating runs the server: one not allowed yet is asked about first, as its ▶ would.
      await startWorkspaceServers(page, ['claims']);
      const claimsReport = await findWebviewFrame(page, 'Validation: claims');
      // Allowed, it starts in the kernel too, and asks for its permission there.
      await approvePermissions(page, 'claims');
      await finished(claimsReport);
      const failed = await claimsReport
        .locator('[data-status="fail"]')
        .evaluateAll((nodes) => nodes.map((node) => node.dataset.check));
      assert.deepEqual(failed, ['mgp.permission-flow']);
      const check = claimsReport.locator('[data-check="mgp.permission-flow"]');
      await check.locator('[data-fact="expected"]').waitFor();
      await check.locator('[data-fact="received"]').waitFor();
      await check.locator('.exchange summary').click();
      await check.locator('.exchange pre').first().waitFor();
      await check.scrollIntoViewIfNeeded();
      for (const theme of [...THEMES]
        .reverse()
        .filter((t) => t.file === 'dark' || t.file === 'light')) {
        await switchTheme(kit, theme, claimsReport);
        await assertReadable(claimsReport, [
          '.status-fail',
          '.facts dt',
          '.facts dd',
          '.exchange pre',
          '.advice',
        ]);
        await page.mouse.move(1300, 400);
        await shot(`validate-fail-${theme.file}`);
      }
    },
  );

  await step(
    "the example server's page shows its tier badge; Show report opens the report",
    async () => {
      await palette(
        page,
        'MGP: Show Server Details',
        'example',
        page.locator('.tab', { hasText: 'Server: example' }).first(),
      );
      const detail = await findWebviewFrame(page, 'Server: example');
      const badge = detail.locator('[data-fact="validation"] .tier-badge');
      await badge.waitFor();
      assert.match(await badge.textContent(), /^MGP Tier [1-4] · \d+\/11 extensions$/);
      await detail.locator('[data-fact="validation"]').scrollIntoViewIfNeeded();
      await shot('validate-detail-badge');
      await detail.locator('button[data-action="showValidation"]').click();
      await page.locator('.tab.active', { hasText: 'Validation: example' }).waitFor();
    },
  );

  await step('mgp.toml shows a Validate lens over each server started from a command', async () => {
    await openMgpToml(page);
    const lens = page.locator('.contentWidgets .codelens-decoration a', { hasText: 'Validate' });
    await lens.first().waitFor();
    assert.ok((await lens.count()) >= 3, 'one per server of the file');
    await shot('validate-lens');
    await lens.first().click();
    await page.locator('.tab.active', { hasText: 'Validation: example' }).waitFor();
  });
}
