// `node scripts/screenshot.mjs`: the README's picture, media/screenshot.png. Installs the packaged
// extension (run `npm run package` first) into code-server on a copy of the example workspace, in the
// default dark theme at 1280×800; opens a dangerous tool of the example server from the Servers view
// in the Run Tool panel, runs it, and takes the approval question the kernel asks, with the Servers
// view beside it. The same harness as the real-VS-Code suites (test/vscode/harness).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, openPage } from '../test/vscode/harness/browser.mjs';
import {
  installVsix,
  prepareProfile,
  startCodeServer,
} from '../test/vscode/harness/codeServer.mjs';
import { assertToolsInstalled, repo, vsixPath } from '../test/vscode/harness/paths.mjs';
import {
  approvePermissions,
  expandTools,
  findWebviewFrame,
  openWorkbench,
  serverRow,
} from '../test/vscode/harness/uiKit.mjs';
import { copyExampleWorkspace, freshScratch } from '../test/vscode/harness/workspace.mjs';

const output = join(repo, 'media/screenshot.png');
const SERVERS = ['example', 'everything', 'live'];

/** Opens `tool` of the example server from the Servers view; returns its Run Tool panel's frame. */
async function openTool(page, tool) {
  await expandTools(await serverRow(page, 'example', 'connected'));
  await page.locator(`.monaco-list-row[aria-label^="Tool ${tool},"]`).first().click();
  const frame = await findWebviewFrame(page, `Run example · ${tool}`);
  await frame.locator('main[data-state="ready"]').waitFor();
  return frame;
}

async function takeScreenshot(page, server, workspace) {
  await openWorkbench(page, server, workspace);
  await approvePermissions(page, 'example');
  for (const id of SERVERS) await serverRow(page, id, 'connected');
  await page
    .locator('.statusbar-item', { hasText: `MGP ${SERVERS.length}/${SERVERS.length}` })
    .waitFor();
  const frame = await openTool(page, 'delete_notes');
  await frame.locator('[data-pointer="/title"] input').fill('groceries');
  await frame.locator('button.run').click();
  await page
    .locator('.monaco-dialog-box', { hasText: 'Allow "example" to run delete_notes?' })
    .waitFor();
  await page.mouse.move(1270, 790); // no hover in the picture
  await page.screenshot({ path: output });
  console.log(`wrote ${output}`);
}

async function main() {
  assertToolsInstalled();
  if (!existsSync(vsixPath)) throw new Error(`${vsixPath} is missing: run npm run package first`);
  const scratch = freshScratch('screenshot');
  const dirs = prepareProfile(scratch);
  installVsix(dirs, vsixPath);
  const workspace = copyExampleWorkspace(scratch);
  const server = await startCodeServer({
    dirs,
    workspace,
    env: { MGP_PREAPPROVED_SERVERS: SERVERS.join(',') },
  });
  const browser = await launchBrowser();
  try {
    const { page } = await openPage(browser, { width: 1280, height: 800 });
    await takeScreenshot(page, server, workspace);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
