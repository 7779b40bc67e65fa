// (a) The mocha suite inside the extension host, with the real `vscode` API, run against the
// extension as installed from the .vsix. VS Code's extensionDevelopmentPath/extensionTestsPath
// mechanism, passed as the browser URL's `payload` (code-server needs enable-smoke-test-driver).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, openPage } from './browser.mjs';
import { installVsix, prepareProfile, startCodeServer } from './codeServer.mjs';
import { extensionId, pkg, repo, vsixPath } from './paths.mjs';
import { copyExampleWorkspace, freshScratch } from './workspace.mjs';
import { HANG_MS } from './patience.mjs';

export async function runHostSuite({ timeoutMs = 10 * HANG_MS } = {}) {
  const scratch = freshScratch('host-suite');
  const dirs = prepareProfile(scratch);
  installVsix(dirs, vsixPath);
  const installed = readdirSync(dirs.extensions).find((name) => name.startsWith(`${extensionId}-`));
  if (!installed)
    throw new Error(`${extensionId} is not in ${dirs.extensions} after installing the .vsix`);
  const extensionPath = join(dirs.extensions, installed);
  const workspace = copyExampleWorkspace(scratch);
  const resultsFile = join(scratch, 'results.json');
  const testsEntry = join(repo, 'out/test/vscode/suite/index.js');
  if (!existsSync(testsEntry))
    throw new Error(`${testsEntry} is missing: run node esbuild.mjs --tests`);

  // VS Code refuses modal dialogs while extension tests run: the workspace's servers are approved up
  // front (MGP_PREAPPROVED_SERVERS), and permission requests nobody can answer are refused for the run.
  const server = await startCodeServer({
    dirs,
    workspace,
    env: {
      MGP_TEST_RESULTS: resultsFile,
      MGP_TEST_WORKSPACE: workspace,
      MGP_PREAPPROVED_SERVERS: 'example,everything,live',
    },
  });
  const browser = await launchBrowser();
  try {
    const { page, consoleLines } = await openPage(browser);
    let exitCode;
    const exited = new Promise((resolve) =>
      page.exposeFunction('codeAutomationExit', (code) => {
        exitCode = code;
        resolve(code);
      }),
    );
    const authority = `127.0.0.1:${server.port}`;
    const payload = [
      ['extensionDevelopmentPath', `vscode-remote://${authority}${extensionPath}`],
      ['extensionTestsPath', `vscode-remote://${authority}${testsEntry}`],
    ];
    const url = `${server.url}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    await page.goto(url);
    // Workspace servers ask before they start (a modal), and the example server asks for its
    // permissions: approve them as the person at the editor would.
    let finished = false;
    const approving = (async () => {
      while (!finished) {
        // "Start" for each workspace server, "Approve All" for the example server's permissions (MGP §3),
        // then the expiry quick pick's first entry ("Until revoked").
        for (const name of ['Start', 'Approve All']) {
          const button = page
            .locator('.monaco-dialog-box')
            .getByRole('button', { name, exact: true });
          if (await button.count().catch(() => 0))
            await button
              .first()
              .click()
              .catch(() => undefined);
        }
        const expiry = page.locator('.quick-input-list .monaco-list-row', {
          hasText: 'Until revoked',
        });
        if (await expiry.count().catch(() => 0))
          await expiry
            .first()
            .click()
            .catch(() => undefined);
        await page.waitForTimeout(200).catch(() => undefined);
      }
    })();
    exited.then(() => (finished = true));
    const timedOut = new Promise((resolve) =>
      setTimeout(() => resolve('timeout'), timeoutMs).unref(),
    );
    const outcome = await Promise.race([exited, timedOut]);
    finished = true;
    await approving;
    if (outcome === 'timeout') {
      console.log(consoleLines.slice(-40).join('\n'));
      throw new Error(`the extension-host suite did not finish within ${timeoutMs / 1000} s`);
    }
    if (!existsSync(resultsFile)) {
      console.log(consoleLines.slice(-40).join('\n'));
      throw new Error(`the extension-host suite ended with ${exitCode} but wrote no results`);
    }
    const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
    for (const test of results.tests) {
      console.log(
        `  ${test.state === 'passed' ? '✔' : '✘'} ${test.title}${test.error ? `\n      ${test.error.replace(/\n/g, '\n      ')}` : ''}`,
      );
    }
    return {
      passed: results.passed,
      failed: results.failed + (exitCode !== 0 && results.failed === 0 ? 1 : 0),
      name: `extension host (${pkg.version})`,
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}
