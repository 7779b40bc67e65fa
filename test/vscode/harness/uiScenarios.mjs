// (b) UI scenarios: the workbench in headless chromium, driven as a person would, with screenshots
// saved under test-results/. Runs against the extension installed from the .vsix. The modules in
// scenarios/ run in name order and share one window on a trusted copy of the example workspace. The
// modules in windows/ each get a window of their own (a fresh profile, state and workspace), for what
// must start from scratch: Workspace Trust, a broken config. `--scenario NAME` runs only the modules
// whose file name NAME matches, as a regular expression: a plain word matches a name that contains it
// (00-workbench runs first when a shared-window module is among them; `^\d\d-` picks them all).
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, openPage } from './browser.mjs';
import { DEMO_SETTINGS, startDemoServer } from '../../../scripts/demoServer.mjs';
import { installVsix, prepareProfile, startCodeServer } from './codeServer.mjs';
import { resultsDir, vsixPath } from './paths.mjs';
import { createUiKit } from './uiKit.mjs';
import { copyExampleWorkspace, freshScratch } from './workspace.mjs';

const sharedDir = new URL('./scenarios/', import.meta.url).pathname;
const windowsDir = new URL('./windows/', import.meta.url).pathname;

function modules(dir, only) {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.mjs'))
    .sort()
    .filter((name) => !only || new RegExp(only).test(name))
    .map((name) => join(dir, name));
}

/**
 * One code-server window: a scratch profile, the example workspace copied (then `prepare` may change
 * it), the modules run in order against one page. `window` options: `trust` (false: the workspace
 * opens untrusted and VS Code asks), `settings` (user settings), `env` (code-server's environment),
 * `demo` (started as `npm start` starts it, with its settings: no smoke-test driver, so toasts and
 * dialogs show, and the trust question at first open).
 */
async function runWindow(name, files, results, window = {}) {
  const scratch = freshScratch(`ui-${name}`);
  const dirs = prepareProfile(
    scratch,
    window.demo ? { ...DEMO_SETTINGS, ...window.settings } : window.settings,
  );
  installVsix(dirs, vsixPath);
  const workspace = copyExampleWorkspace(scratch);
  await window.prepare?.(workspace);
  const server = window.demo
    ? await startDemoServer({ dirs, workspace, env: window.env })
    : await startCodeServer({ dirs, workspace, trust: window.trust ?? true, env: window.env });
  const browser = await launchBrowser();
  const { page } = await openPage(browser);
  try {
    for (const file of files) {
      const scenario = await import(file);
      console.log(` ${scenario.title ?? file}`);
      // A kit per scenario: a failed step stops the rest of its own scenario only.
      await scenario.run(createUiKit({ page, resultsDir, server, workspace, dirs, results }));
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

export async function runUiScenarios({ only } = {}) {
  rmSync(resultsDir, { recursive: true, force: true });
  mkdirSync(resultsDir, { recursive: true });
  const results = { passed: 0, failed: 0 };
  const shared = modules(sharedDir, only);
  if (shared.length > 0) {
    const first = join(sharedDir, '00-workbench.mjs');
    await runWindow('scenarios', [first, ...shared.filter((file) => file !== first)], results);
  }
  for (const file of modules(windowsDir, only)) {
    const scenario = await import(file);
    const name = file.slice(windowsDir.length).replace(/\.mjs$/, '');
    await runWindow(name, [file], results, scenario.window);
  }
  return results;
}
