// (b) UI scenarios: the workbench in headless chromium, driven as a person would, with screenshots
// saved under test-results/. Runs against the extension installed from the .vsix. Each module in
// scenarios/ (run in name order, sharing one window) adds its steps; `--scenario NAME` runs only the
// modules whose file name contains NAME (00-workbench always runs first).
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, openPage } from './browser.mjs';
import { installVsix, prepareProfile, startCodeServer } from './codeServer.mjs';
import { resultsDir, vsixPath } from './paths.mjs';
import { createUiKit } from './uiKit.mjs';
import { copyExampleWorkspace, freshScratch } from './workspace.mjs';

const scenarioDir = new URL('./scenarios/', import.meta.url).pathname;

function scenarioFiles(only) {
  return readdirSync(scenarioDir)
    .filter((name) => name.endsWith('.mjs'))
    .sort()
    .filter((name) => !only || name.startsWith('00-') || name.includes(only));
}

export async function runUiScenarios({ only } = {}) {
  const scratch = freshScratch('ui-scenarios');
  const dirs = prepareProfile(scratch);
  installVsix(dirs, vsixPath);
  const workspace = copyExampleWorkspace(scratch);
  rmSync(resultsDir, { recursive: true, force: true });
  mkdirSync(resultsDir, { recursive: true });

  const server = await startCodeServer({ dirs, workspace });
  const browser = await launchBrowser();
  const { page } = await openPage(browser);
  const kit = createUiKit({ page, resultsDir, server, workspace, dirs });
  try {
    for (const file of scenarioFiles(only)) {
      const scenario = await import(join(scenarioDir, file));
      console.log(` ${scenario.title ?? file}`);
      await scenario.run(kit);
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  return kit.results;
}
