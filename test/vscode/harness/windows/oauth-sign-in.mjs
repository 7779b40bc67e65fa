// Signing in to a remote OAuth-protected server from the editor (MCP 2025-11-25, Authorization): the
// server (the SDK's bearer-auth middleware behind oidc-provider, both on loopback) is in mgp.toml; its
// row asks for a sign-in; "Sign In to Server" opens the authorization page in the browser, where the
// person signs in and consents; the redirect reaches the loopback listener through asExternalUri; the
// row is connected with its tools and a tool runs with the token. Signing out asks for it again.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { resultsDir } from '../paths.mjs';
import { runResult, runToolFrame, switchTheme } from '../scenarios/10-run-tool.mjs';
import {
  expandTools,
  notification,
  openWorkbench,
  palette,
  serverRow,
  startWorkspaceServers,
} from '../uiKit.mjs';

export const title = 'OAuth sign-in to a remote server';

let protectedServer;

export const window = {
  async prepare(workspace) {
    // Not 127.0.0.1: code-server would tunnel the browser's visit through its /proxy/PORT/ route,
    // which a remote authorization server never is (and which merges the `//` of the decoded
    // `resource=http://…` in the query into one).
    // The SDK's metadata router takes a plain-http issuer only on 127.0.0.1 or localhost, or with
    // this switch, read when the module loads.
    process.env.MCP_DANGEROUSLY_ALLOW_INSECURE_ISSUER_URL = '1';
    const { startProtectedServer } = await import('../../../fixtures/oauth/protectedServer.mjs');
    delete process.env.MCP_DANGEROUSLY_ALLOW_INSECURE_ISSUER_URL; // kept from code-server
    // The server's URL has a query whose values hold `&` and an escaped `+`: the authorization
    // server accepts only its exact resource, so the browser must get the authorization URL as the
    // kernel wrote it, not decoded and encoded again by the editor.
    protectedServer = await startProtectedServer({
      authorizationHost: '127.0.0.2',
      query: '?tenant=a%2Bb&region=eu%26us',
    });
    writeFileSync(
      join(workspace, 'mgp.toml'),
      `[[servers]]\nid = "secure"\ntransport = "http"\nurl = "${protectedServer.mcpUrl}"\napproved_tools = ["whoami"]\n`,
    );
    // 127.0.0.2 is loopback: a sign-in reaches it only where the user's own config names it (a
    // workspace file cannot), here the file MGP_CONFIG_PATH names, outside the workspace.
    const userConfig = join(dirname(workspace), 'user-mgp.toml');
    writeFileSync(userConfig, '[kernel]\nprivate_hosts = ["127.0.0.2"]\n');
    window.env = { ...window.env, MGP_CONFIG_PATH: userConfig };
  },
};

/** The row of the server while it asks for a sign-in. */
async function signInRow(page) {
  const row = await serverRow(page, 'secure', 'error');
  await row.locator('.label-description', { hasText: 'sign-in required' }).waitFor();
  return row;
}

/**
 * oidc-provider's development login page, then its consent page, driven as a person does, until the
 * redirect reaches the loopback listener (the page then shows its "signed in" answer).
 */
async function signInAtAuthorizationServer(popup, login) {
  await popup.waitForLoadState();
  await popup.locator('input[name="login"]').waitFor();
  assert.equal(new URL(popup.url()).origin, protectedServer.issuer);
  await popup.screenshot({ path: join(resultsDir, 'oauth-authorization-page.png') });
  await popup.locator('input[name="login"]').fill(login);
  await popup.locator('input[name="password"]').fill('any');
  await popup.locator('button[type="submit"]').click();
  const consent = popup.locator('button[type="submit"]', { hasText: /continue/i });
  await consent.waitFor();
  await popup.screenshot({ path: join(resultsDir, 'oauth-consent-page.png') });
  await consent.click();
  await popup.waitForURL((url) => url.pathname.endsWith('/callback'));
}

export async function run(kit) {
  const { page, server, workspace, step, shot, THEMES } = kit;
  const dark = THEMES.find((t) => t.file === 'dark');
  const light = THEMES.find((t) => t.file === 'light');
  const highContrast = THEMES.find((t) => t.file === 'high-contrast');
  try {
    await step('the protected server asks for a sign-in, its row says so', async () => {
      await openWorkbench(page, server, workspace);
      await startWorkspaceServers(page, ['secure']);
      const row = await signInRow(page);
      await row.hover();
      await row.locator('.action-label[aria-label="Sign In to Server"]').waitFor();
      // Waiting for a sign-in is not a failure: the status bar asks, in the warning colour.
      await page
        .locator('.statusbar-item.warning-kind', { hasText: 'MGP 0/1' })
        .getByRole('button', { name: /secure asks you to sign in/ })
        .waitFor();
      await shot('oauth-sign-in-required-dark');
      await switchTheme(kit, light);
      await (await signInRow(page)).hover();
      await shot('oauth-sign-in-required-light');
      await switchTheme(kit, highContrast);
      await (await signInRow(page)).hover();
      await shot('oauth-sign-in-required-high-contrast');
      await switchTheme(kit, dark);
    });

    let callbackUrl;
    await step(
      '"Sign In to Server" opens the authorization page; login and consent reach the loopback redirect',
      async () => {
        const row = await signInRow(page);
        await row.hover();
        const opened = page.context().waitForEvent('page');
        await row.locator('.action-label[aria-label="Sign In to Server"]').click();
        // The editor asks before it opens a website that is not a trusted domain: the person opens it.
        const ask = page.locator('.monaco-dialog-box', { hasText: 'open the external website?' });
        await ask.locator('.dialog-message-detail', { hasText: protectedServer.issuer }).waitFor();
        await shot('oauth-open-external-website');
        await ask.getByRole('button', { name: 'Open', exact: true }).click();
        const popup = await opened;
        await signInAtAuthorizationServer(popup, 'ada');
        callbackUrl = popup.url();
        console.log(`      the redirect reached ${callbackUrl}`);
        await popup.close();
      },
    );

    await step('the row is connected with its tools', async () => {
      await serverRow(page, 'secure', 'connected');
      await notification(page, 'Signed in to secure.');
      await page.keyboard.press('Escape');
      await expandTools(await serverRow(page, 'secure', 'connected'));
      await page.locator('.monaco-list-row[aria-label^="Tool whoami,"]').first().waitFor();
      await page.mouse.move(1300, 400);
      await shot('oauth-signed-in-dark');
      await switchTheme(kit, light);
      await page.mouse.move(1300, 400);
      await shot('oauth-signed-in-light');
      await switchTheme(kit, dark);
    });

    await step('whoami runs from Run Tool with the token: "signed in as ada"', async () => {
      await palette(page, 'MGP: Run Tool', 'secure.whoami');
      const frame = await runToolFrame(kit, 'secure', 'whoami');
      await frame.locator('main[data-tool="secure.whoami"][data-state="ready"]').waitFor();
      await frame.locator('button.run').click();
      const result = runResult(frame);
      await result.locator('.result-text', { hasText: /^signed in as ada$/ }).waitFor();
      assert.equal(await result.getAttribute('data-state'), 'ok');
      await shot('oauth-tool-result');
      const withToken = protectedServer.requests.filter((r) => r.rpc === 'tools/call');
      assert.ok(
        withToken.length > 0 && withToken.every((r) => r.bearer),
        'the call carried the bearer token',
      );
    });

    await step('"MGP: Sign Out of Server" makes the row ask for a sign-in again', async () => {
      await palette(page, 'MGP: Sign Out of Server', 'secure');
      await notification(page, 'Signed out of secure.');
      await page.keyboard.press('Escape');
      await signInRow(page);
      await page.mouse.move(1300, 400);
      await shot('oauth-signed-out');
    });
  } finally {
    await protectedServer?.close();
  }
}
