// (b) UI scenarios: the workbench in headless chromium, driven as a person would, with screenshots
// saved under test-results/. Runs against the extension installed from the .vsix.
import { strict as assert } from 'node:assert';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, openPage } from './browser.mjs';
import { installVsix, prepareProfile, startCodeServer } from './codeServer.mjs';
import { extensionId, pkg, resultsDir, vsixPath } from './paths.mjs';
import { copyExampleWorkspace, freshScratch } from './workspace.mjs';

const THEMES = [
  { name: 'Light Modern', bodyClass: 'vs', webviewClass: 'vscode-light', file: 'light' },
  { name: 'Dark High Contrast', bodyClass: 'hc-black', webviewClass: 'vscode-high-contrast', file: 'high-contrast' },
  { name: 'Dark Modern', bodyClass: 'vs-dark', webviewClass: 'vscode-dark', file: 'dark' },
];

function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]);
}

/** WCAG contrast ratio between two computed CSS colours (rgb/rgba strings). */
function contrastRatio(foreground, background) {
  const luminance = (css) => {
    const [r, g, b] = css.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [luminance(foreground), luminance(background)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}

/** Runs a command the way a person does: F1, type its title, pick it. */
async function runFromPalette(page, title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 10000 });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().click();
}

export async function runUiScenarios() {
  const scratch = freshScratch('ui-scenarios');
  const dirs = prepareProfile(scratch);
  installVsix(dirs, vsixPath);
  const workspace = copyExampleWorkspace(scratch);
  rmSync(resultsDir, { recursive: true, force: true });
  mkdirSync(resultsDir, { recursive: true });

  const server = await startCodeServer({ dirs, workspace });
  const browser = await launchBrowser();
  const { page } = await openPage(browser);
  const results = { passed: 0, failed: 0 };
  const shot = (name) => page.screenshot({ path: join(resultsDir, `${name}.png`) });

  async function step(title, body) {
    try {
      await body();
      results.passed += 1;
      console.log(`  ✔ ${title}`);
    } catch (error) {
      results.failed += 1;
      console.log(`  ✘ ${title}\n      ${String(error instanceof Error ? error.message : error).replace(/\n/g, '\n      ')}`);
      await shot(`failed-${title.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`).catch(() => {});
    }
  }

  const aboutFrame = () => page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');

  try {
    await step('the workbench loads the example workspace', async () => {
      await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
      await page.locator('.monaco-workbench').waitFor({ timeout: 60000 });
      await page.locator('.activitybar').waitFor({ timeout: 30000 });
    });

    await step('the workspace asks before starting each of its servers, and the user approves', async () => {
      for (const id of ['example', 'everything']) {
        const dialog = page.locator('.monaco-dialog-box', { hasText: `Start MCP server "${id}" from this workspace?` });
        await dialog.waitFor({ timeout: 30000 });
        if (id === 'example') await shot('approve-server');
        await dialog.locator('button', { hasText: /^Start$/ }).click();
      }
    });

    await step('the MGP activity-bar container shows the Servers view with the configured servers', async () => {
      const container = page.locator('.activitybar [aria-label^="MGP"]').first();
      await container.waitFor({ timeout: 30000 });
      await container.click();
      await page.locator('.monaco-list-row[aria-label^="Server example, connected"]').waitFor({ timeout: 30000 });
      await page.locator('.monaco-list-row[aria-label^="Server everything, connected"]').waitFor({ timeout: 30000 });
      await page.locator('.statusbar-item', { hasText: 'MGP 2/2' }).waitFor({ timeout: 10000 });
      await shot('servers-view');
    });

    await step('a tool runs from the Servers view with arguments checked against its schema', async () => {
      await page.locator('.monaco-list-row[aria-label^="Server example, connected"]').click();
      await page.locator('.monaco-list-row', { hasText: /^Tools/ }).first().click();
      await page.locator('.monaco-list-row', { hasText: 'Returns the text it is given' }).first().click();
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ timeout: 10000 });
      assert.equal(await input.inputValue(), '{"text":""}');
      await input.fill('{"text": 5}');
      await page.locator('.quick-input-message', { hasText: 'must be string' }).waitFor({ timeout: 5000 });
      await input.fill('{"text": "hello from the Servers view"}');
      await page.keyboard.press('Enter');
      await page.locator('.view-lines', { hasText: 'hello from the Servers view' }).waitFor({ timeout: 20000 });
      await page.locator('.view-lines', { hasText: '# example · echo' }).waitFor({ timeout: 5000 });
      await shot('run-tool-result');
    });

    await step('"MGP: About MGP Kernel" runs from the command palette', async () => {
      await runFromPalette(page, 'MGP: About MGP Kernel');
      await page.locator('.tab', { hasText: 'About MGP Kernel' }).waitFor({ timeout: 20000 });
    });

    await step('the About panel answers with the kernel status', async () => {
      const frame = aboutFrame();
      await frame.locator('[data-fact="version"]', { hasText: pkg.version }).waitFor({ timeout: 30000 });
      await frame.locator('tr[data-server="example"]').waitFor({ timeout: 10000 });
      await frame.locator('tr[data-server="everything"]').waitFor({ timeout: 10000 });
      assert.equal(await frame.locator('[data-fact="trust"]').textContent(), 'Trusted');
      await frame.locator('[data-fact="language-server"]', { hasText: 'running' }).waitFor({ timeout: 20000 });
    });

    await step('the About panel follows a change to mgp.toml', async () => {
      appendFileSync(join(workspace, 'mgp.toml'), '\n[[servers]]\nid = "remote-demo"\ntransport = "http"\nurl = "https://mcp.example.com/mcp"\n');
      await aboutFrame().locator('tr[data-server="remote-demo"]').waitFor({ timeout: 20000 });
    });

    for (const theme of THEMES) {
      await step(`the About panel is readable in ${theme.name}`, async () => {
        await runFromPalette(page, 'Preferences: Color Theme');
        const input = page.locator('.quick-input-widget input');
        await input.fill(theme.name);
        await page.locator('.quick-input-list .monaco-list-row', { hasText: theme.name }).first().waitFor({ timeout: 10000 });
        await page.keyboard.press('Enter');
        await page.locator(`.monaco-workbench.${theme.bodyClass}`).waitFor({ timeout: 20000 });
        const frame = aboutFrame();
        // The webview receives the new theme's variables after the workbench switches.
        await frame.locator(`body.${theme.webviewClass}`).waitFor({ timeout: 20000 });
        const colours = await frame.locator('[data-fact="version"]').evaluate((node) => {
          const body = getComputedStyle(document.body);
          return { text: getComputedStyle(node).color, muted: getComputedStyle(document.querySelector('dt')).color, background: body.backgroundColor };
        });
        const text = contrastRatio(colours.text, colours.background);
        const muted = contrastRatio(colours.muted, colours.background);
        assert.ok(text >= 4.5, `text contrast ${text.toFixed(2)} (${colours.text} on ${colours.background})`);
        assert.ok(muted >= 4.5, `label contrast ${muted.toFixed(2)} (${colours.muted} on ${colours.background})`);
        await shot(`about-panel-${theme.file}`);
      });
    }

    await step('an error in mgp.toml shows in the Problems panel at its line', async () => {
      appendFileSync(join(workspace, 'mgp.toml'), '\n[[servers]]\nid = "typo"\ncommand = "node"\ntransport = "stdoi"\n');
      await page.keyboard.press('Control+P');
      const input = page.locator('.quick-input-widget input');
      await input.fill('mgp.toml');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'mgp.toml' }).first().click();
      await page.locator('.tab', { hasText: 'mgp.toml' }).waitFor({ timeout: 10000 });
      await runFromPalette(page, 'View: Focus Problems');
      const problem = page.locator('.markers-panel .monaco-list-row', { hasText: 'transport must be one of stdio, http, sse; got "stdoi"' });
      await problem.waitFor({ timeout: 20000 });
      assert.match(await problem.innerText(), /\[Ln 24, Col 13\]/);
      await shot('problems-panel');
    });

    await step('hovering a key shows its documentation from the spec', async () => {
      const key = page.locator('.view-lines .view-line span', { hasText: /^transport$/ }).last();
      await key.scrollIntoViewIfNeeded();
      await key.hover();
      const hover = page.locator('.monaco-hover-content', { hasText: 'transport' }).first();
      await hover.waitFor({ timeout: 15000 });
      assert.match(await hover.innerText(), /stdio/);
      // The hover fades in: take the picture once it is fully shown.
      await page.waitForFunction(() => [...document.querySelectorAll('.monaco-hover')].some((node) => getComputedStyle(node).opacity === '1'));
      await shot('hover');
    });

    await step('the kernel log shows activation and no error', async () => {
      const logs = filesUnder(join(dirs.userData, 'logs'));
      const kernelLog = logs.find((file) => file.endsWith('MGP Kernel.log'));
      assert.ok(kernelLog, `an "MGP Kernel.log" among ${logs.length} log files`);
      const text = readFileSync(kernelLog, 'utf8');
      assert.match(text, /MGP Kernel activated/);
      assert.deepEqual(text.split('\n').filter((line) => line.includes('[error]')), []);
      const hostLogs = logs.filter((file) => file.endsWith('exthost.log')).map((file) => readFileSync(file, 'utf8')).join('\n');
      assert.ok(!hostLogs.includes(`Activating extension '${extensionId}' failed`), 'activation failure in exthost.log');
    });
  } finally {
    await browser.close();
    await server.stop();
  }
  return results;
}
