// What UI scenarios share: the page, steps that count and screenshot on failure, the palette, webview
// frames, themes and contrast. Scenario modules under scenarios/ receive one UiKit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HANG_MS, shownWithin } from './patience.mjs';
import { palette } from './quickInput.mjs';

export { expand, expandGroup, expandTools, serverRow } from './tree.mjs';
export {
  goToLine,
  openFileByPath,
  openMgpToml,
  palette,
  pickInQuickInput,
  reloadWindow,
} from './quickInput.mjs';

// `setting`: the value of workbench.colorTheme once the theme is chosen (its settings id).
export const THEMES = [
  {
    name: 'Light Modern',
    setting: 'Light Modern',
    bodyClass: 'vs',
    webviewClass: 'vscode-light',
    file: 'light',
  },
  {
    name: 'Dark High Contrast',
    setting: 'Default High Contrast',
    bodyClass: 'hc-black',
    webviewClass: 'vscode-high-contrast',
    file: 'high-contrast',
  },
  {
    name: 'Dark Modern',
    setting: 'Dark Modern',
    bodyClass: 'vs-dark',
    webviewClass: 'vscode-dark',
    file: 'dark',
  },
];

/** WCAG contrast ratio between two computed CSS colours (rgb/rgba strings). */
export function contrastRatio(foreground, background) {
  const luminance = (css) => {
    const [r, g, b] = css
      .match(/[\d.]+/g)
      .slice(0, 3)
      .map(Number)
      .map((v) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [luminance(foreground), luminance(background)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}

/**
 * The content frame of the webview whose page title is `title` (webview content is two iframes deep,
 * and the outer iframes carry no title in this build): polled until it exists. Panels that keep their
 * context while hidden keep this frame.
 */
export async function findWebviewFrame(page, title, timeout = HANG_MS) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (frame.isDetached() || frame === page.mainFrame()) continue;
      if ((await frame.title().catch(() => '')) === title) return frame;
    }
    await page.waitForTimeout(100);
  }
  throw new Error(`no webview titled "${title}" within ${timeout} ms`);
}

/**
 * Hovers `target` until `hover` shows. A tree row is drawn again whenever its view refreshes (a
 * server connecting elsewhere), which takes a hover away: the mouse leaves and comes back until the
 * hover stays, up to the hang deadline.
 */
export async function hoverUntil(page, target, hover) {
  for (const until = Date.now() + HANG_MS; !(await hover.isVisible());) {
    if (Date.now() > until) throw new Error(`no ${hover} on hovering ${target}`);
    await page.mouse.move(700, 600);
    await target.hover();
    await hover.waitFor({ timeout: 3000 }).catch(() => undefined);
  }
}

/** Answers "Start" in the dialog each workspace server's first start asks, in the order given. */
export async function startWorkspaceServers(page, ids, shot) {
  for (const id of ids) {
    const dialog = page.locator('.monaco-dialog-box', {
      hasText: `Start MCP server "${id}" from this workspace?`,
    });
    await dialog.waitFor();
    if (shot) await shot(id);
    await dialog.getByRole('button', { name: 'Start', exact: true }).click();
  }
}

/** Approves all the permissions a server asks for (MGP §3), for the expiry given ("For 1 day"…). */
export async function approvePermissions(page, serverId, expiry = 'For 1 day') {
  const dialog = page.locator('.monaco-dialog-box', {
    hasText: `MCP server "${serverId}" asks for`,
  });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Approve All', exact: true }).click();
  await page.locator('.quick-input-widget input').waitFor();
  await page.locator('.quick-input-list .monaco-list-row', { hasText: expiry }).first().click();
}

/**
 * A notification holding `text`, found in the notification center: with the smoke-test driver on
 * (the harness needs it) the workbench shows no toasts, so the center is where notifications are.
 */
export async function notification(page, text) {
  const center = page.locator('.notifications-center');
  const row = center.locator('.monaco-list-row', { hasText: text }).first();
  for (const until = Date.now() + HANG_MS; ;) {
    // The center may still be closing from an earlier "Clear All": show it again until the row is in.
    if (!(await center.isVisible())) await palette(page, 'Notifications: Show Notifications');
    if (await shownWithin(row, 2000)) return row;
    if (Date.now() > until) throw new Error(`no notification "${text}" within ${HANG_MS} ms`);
  }
}

/** Trusts the workspace in the Workspace Trust editor (opened by the caller), then closes that editor. */
export async function trustInEditor(page) {
  await page
    .locator('.workspace-trust-editor .monaco-button', { hasText: /^Trust$/ })
    .first()
    .click();
  await page.locator('.workspace-trust-editor', { hasText: 'You trust this folder' }).waitFor();
}

/** Closes a modal editor (Workspace Trust opens as one) when it is open. */
export async function closeModalEditor(page) {
  const modal = page.locator('.monaco-modal-editor-block');
  for (let attempt = 0; attempt < 5 && (await modal.isVisible()); attempt++) {
    await modal
      .locator('.codicon-close, .codicon-chrome-close')
      .first()
      .click({ timeout: 2000 })
      .catch(() => page.keyboard.press('Escape'));
    await modal.waitFor({ state: 'hidden', timeout: 2000 }).catch(() => undefined);
  }
}

/** Opens the workspace in the page and waits for the workbench. */
export async function openWorkbench(page, server, workspace) {
  await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
  await page.locator('.monaco-workbench').waitFor();
  await page.locator('.activitybar').waitFor();
}

export function createUiKit({ page, resultsDir, server, workspace, dirs, results }) {
  const shot = (name) => page.screenshot({ path: join(resultsDir, `${name}.png`) });

  // The steps of a window build on each other: after one fails, the rest are reported as not run
  // rather than each waiting out the hang deadline on a state that will not come.
  let failedStep;

  async function step(title, body) {
    if (failedStep) {
      results.failed += 1;
      console.log(`  ✘ ${title}\n      not run: the earlier step "${failedStep}" failed`);
      return;
    }
    try {
      await body();
      results.passed += 1;
      console.log(`  ✔ ${title}`);
    } catch (error) {
      results.failed += 1;
      failedStep = title;
      console.log(
        `  ✘ ${title}\n      ${String(error instanceof Error ? (error.stack ?? error.message) : error).replace(/\n/g, '\n      ')}`,
      );
      await shot(
        `failed-${title
          .replace(/[^a-z0-9]+/gi, '-')
          .toLowerCase()
          .slice(0, 80)}`,
      ).catch(() => {});
    }
  }

  /** Runs a command the way a person does: F1, type its title, pick it. */
  const runFromPalette = (title, shows) => palette(page, title, undefined, shows);

  const webviewFrame = (title, timeout) => findWebviewFrame(page, title, timeout);

  /** The theme the user settings hold: written only when a pick is accepted, never by a preview. */
  function chosenTheme() {
    try {
      const text = readFileSync(join(dirs.userData, 'User/settings.json'), 'utf8');
      return JSON.parse(text)['workbench.colorTheme'];
    } catch {
      return undefined; // being written
    }
  }

  /** Switches the colour theme and waits until both the workbench and the webviews have it. */
  async function setTheme(theme, frame) {
    for (const until = Date.now() + HANG_MS; ;) {
      // Through palette(): a picker closed under the pick (a webview taking the focus) is reopened.
      await palette(page, 'Preferences: Color Theme', theme.name);
      // The picker previews the focused theme, and a picker that loses the focus puts the old one
      // back: the theme is the chosen one once the settings hold it.
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
      // A retry interval, not a verdict: the loop's own deadline is HANG_MS.
      let settled = false;
      for (const stop = Date.now() + 5000; !settled && Date.now() < stop;) {
        settled = chosenTheme() === theme.setting;
        if (!settled) await page.waitForTimeout(100);
      }
      if (settled) break;
      if (Date.now() > until) throw new Error(`the theme ${theme.name} was never chosen`);
    }
    await page.locator(`.monaco-workbench.${theme.bodyClass}`).waitFor();
    if (frame) await frame.locator(`body.${theme.webviewClass}`).waitFor();
  }

  /**
   * Asserts text contrast ≥ 4.5:1 for each selector in the frame, against the background it is drawn
   * on: the body's, with every background between it and the text (a button's, a badge's, a
   * translucent tint) laid over it in turn.
   */
  async function assertReadable(frame, selectors) {
    for (const selector of selectors) {
      const colours = await frame
        .locator(selector)
        .first()
        .evaluate((node) => {
          const rgba = (colour) => {
            const [r, g, b, a = 1] = (colour.match(/[\d.]+/g) ?? []).map(Number);
            return colour === 'transparent' ? [0, 0, 0, 0] : [r, g, b, a];
          };
          const layers = [];
          for (let at = node; at && at !== document.body; at = at.parentElement)
            layers.unshift(rgba(getComputedStyle(at).backgroundColor));
          let [r, g, b] = rgba(getComputedStyle(document.body).backgroundColor);
          for (const [lr, lg, lb, la] of layers) {
            r = la * lr + (1 - la) * r;
            g = la * lg + (1 - la) * g;
            b = la * lb + (1 - la) * b;
          }
          const round = (value) => Math.round(value);
          return {
            text: getComputedStyle(node).color,
            background: `rgb(${round(r)}, ${round(g)}, ${round(b)})`,
          };
        });
      const ratio = contrastRatio(colours.text, colours.background);
      if (ratio < 4.5)
        throw new Error(
          `${selector}: contrast ${ratio.toFixed(2)} (${colours.text} on ${colours.background})`,
        );
    }
  }

  return {
    page,
    server,
    workspace,
    dirs,
    results,
    shot,
    step,
    runFromPalette,
    webviewFrame,
    setTheme,
    assertReadable,
    THEMES,
  };
}
