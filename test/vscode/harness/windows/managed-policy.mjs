// The machine's managed policy (MGP_MANAGED_POLICY here, /etc/mgp/policy.toml on a fleet) denies the
// example workspace's `everything` server: the Servers view shows it blocked by policy, says why and
// where, nobody is asked to start it, and it never starts; the other servers run. Screenshots in
// dark and light. Then the policy file, opened in the editor and edited, gets the language server's
// diagnostics in the Problems panel (the file has no policy.toml name: MGP_MANAGED_POLICY names it).
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  approvePermissions,
  hoverUntil,
  openFileByPath,
  openWorkbench,
  palette,
  serverRow,
  startWorkspaceServers,
} from '../uiKit.mjs';

export const title = 'managed policy: a denied server is shown blocked by policy';

const policy = join(tmpdir(), `mgp-ui-managed-policy-${process.pid}.toml`);

export const window = {
  env: { MGP_MANAGED_POLICY: policy },
  prepare() {
    writeFileSync(policy, '[servers]\ndeny = ["command:npx *server-everything*"]\n');
  },
};

export async function run(kit) {
  const { page, server, workspace, step, shot, setTheme, THEMES } = kit;

  await step(
    'the servers the policy allows are asked about and run; the denied one is not asked about',
    async () => {
      await openWorkbench(page, server, workspace);
      await startWorkspaceServers(page, ['example', 'live']);
      await approvePermissions(page, 'example');
      await serverRow(page, 'example', 'connected');
    },
  );

  await step(
    'the Servers view shows "everything" blocked by policy, with the reason and the file',
    async () => {
      const row = await serverRow(page, 'everything', 'blocked by policy');
      const text = await row.textContent();
      assert.match(text, /blocked by policy · denied by the managed policy/);
      assert.match(text, /servers\.deny "command:npx \*server-everything\*"/);
      const hover = page.locator('.monaco-hover', { hasText: 'Blocked by the managed policy' });
      await hoverUntil(page, row, hover);
      assert.match(
        await hover.textContent(),
        new RegExp(policy.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
      );
      for (const theme of THEMES) {
        await setTheme(theme);
        await hoverUntil(page, row, hover);
        await shot(`managed-policy-${theme.file}`);
      }
      assert.equal(
        await page
          .locator('.monaco-dialog-box', { hasText: 'Start MCP server "everything"' })
          .count(),
        0,
        'nobody is asked to start a server the policy denies',
      );
    },
  );

  await step('the language server checks policy.toml as it is edited', async () => {
    await openFileByPath(page, policy);
    await page.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText('\n[kernel]\napproval_policy = "sometimes"\n');
    await palette(page, 'View: Focus Problems (Errors, Warnings, Infos)');
    const problem = page.locator('.markers-panel .monaco-list-row', {
      hasText:
        'approval_policy must be one of interactive, auto_approve, deny_all, config_only; got "sometimes"',
    });
    await problem.waitFor();
    assert.match(await problem.innerText(), /\[Ln 5, Col 19\]/);
    await shot('managed-policy-diagnostics');
  });
}
