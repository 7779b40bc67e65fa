// The language server in the editor: a config error in the Problems panel, and hover documentation.
import { strict as assert } from 'node:assert';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { goToLine, openMgpToml } from '../uiKit.mjs';

export const title = 'config language';

export async function run({ page, workspace, step, shot, runFromPalette }) {
  await step('an error in mgp.toml shows in the Problems panel at its line', async () => {
    appendFileSync(
      join(workspace, 'mgp.toml'),
      '\n[[servers]]\nid = "typo"\ncommand = "node"\ntransport = "stdoi"\nrequest_timeout_secs = 30\n',
    );
    await openMgpToml(page);
    await runFromPalette('View: Focus Problems (Errors, Warnings, Infos)');
    const problem = page.locator('.markers-panel .monaco-list-row', {
      hasText: 'transport must be one of stdio, http, sse; got "stdoi"',
    });
    await problem.waitFor();
    const lines = readFileSync(join(workspace, 'mgp.toml'), 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes('"stdoi"')) + 1;
    assert.match(await problem.innerText(), new RegExp(`\\[Ln ${line}, Col 13\\]`));
    await shot('problems-panel');
  });

  await step('hovering a key shows its documentation from the spec', async () => {
    const key = page.locator('.view-lines .view-line span', { hasText: /^transport$/ }).last();
    await key.scrollIntoViewIfNeeded();
    await key.hover();
    const hover = page.locator('.monaco-hover-content', { hasText: 'transport' }).first();
    await hover.waitFor();
    assert.match(await hover.innerText(), /stdio/);
    await shownInFull(page);
    await shot('hover');
  });

  await step("a timeout's hover says what its count leaves out", async () => {
    const lines = readFileSync(join(workspace, 'mgp.toml'), 'utf8').split('\n');
    await page.locator('.tab', { hasText: 'mgp.toml' }).click();
    await goToLine(page, lines.findIndex((l) => l.startsWith('request_timeout_secs')) + 1);
    // At the cursor, from the keyboard: it does not hang on what lies under the pointer.
    const hover = page.locator('.monaco-hover-content', { hasText: 'request_timeout_secs' });
    await runFromPalette('Show or Focus Hover', hover.first());
    assert.match(await hover.first().innerText(), /stands still while the kernel answers/);
    await shownInFull(page);
    await shot('hover-timeout');
  });
}

/** A hover fades in: the picture is taken once one is fully shown. */
function shownInFull(page) {
  return page.waitForFunction(() =>
    [...document.querySelectorAll('.monaco-hover')].some(
      (node) => getComputedStyle(node).opacity === '1',
    ),
  );
}
