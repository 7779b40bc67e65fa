// "Run Tool": a tool opened from the Servers view shows its effective security and a form generated
// from its input schema; a wrong value is named next to its field and nothing is sent; fixed, Run shows
// the result by kind (text and structured content, an image); a config override shows "from config"
// with the server's differing claim; a denied call shows its MGP error code and name.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findWebviewFrame, palette } from '../uiKit.mjs';
import { HANG_MS } from '../patience.mjs';

export const title = 'run tool panel';

/**
 * The kit's setTheme, with focus back in the workbench and the last quick input closed first; once more
 * when the palette's input stays inert (a race in the workbench when F1 follows a closing quick input).
 */
export async function switchTheme({ page, setTheme }, theme, frame) {
  for (let attempt = 1; ; attempt += 1) {
    await page.locator('.part.sidebar .title-label').click();
    await page
      .locator('.quick-input-widget')
      .waitFor({ state: 'hidden' })
      .catch(() => undefined);
    await page.waitForTimeout(300);
    try {
      await setTheme(theme, frame);
      return;
    } catch (error) {
      if (attempt === 2) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

/** The Run Tool panel's content frame for one tool. */
export function runToolFrame({ page }, serverId, toolName) {
  return findWebviewFrame(page, `Run ${serverId} · ${toolName}`);
}

/** The result (or error) section of a Run Tool panel once a run has ended. */
export function runResult(frame) {
  return frame.locator('.outcome .result');
}

/** Expands a connected server and its Tools group in the Servers view. */
async function expandTools(page, serverId) {
  const server = page.locator(`.monaco-list-row[aria-label^="Server ${serverId}, connected"]`);
  await server.waitFor();
  if ((await server.getAttribute('aria-expanded')) !== 'true') await server.click();
  const tools = server
    .locator('xpath=following-sibling::div[contains(@class,"monaco-list-row")]')
    .filter({ hasText: /^Tools/ })
    .first();
  await tools.waitFor();
  if ((await tools.getAttribute('aria-expanded')) !== 'true') await tools.click();
}

async function openFromServersView(page, serverId, toolName) {
  await expandTools(page, serverId);
  await page.locator(`.monaco-list-row[aria-label^="Tool ${toolName},"]`).first().click();
  await page.locator('.tab', { hasText: `Run ${serverId} · ${toolName}` }).waitFor();
}

export async function run(kit) {
  const { page, workspace, step, shot, assertReadable, THEMES } = kit;
  const add = () => runToolFrame(kit, 'example', 'add');

  await step(
    'a tool opens from the Servers view in the Run Tool panel: description marked untrusted, effective security, a form from its schema',
    async () => {
      await openFromServersView(page, 'example', 'add');
      const frame = await add();
      await frame.locator('main[data-state="ready"]').waitFor();
      assert.equal(await frame.locator('h1 .tool-name').textContent(), 'add');
      assert.match(
        await frame.locator('.untrusted').textContent(),
        /From the server — untrusted: Adds two numbers/,
      );
      assert.match(await frame.locator('[data-risk]').first().textContent(), /^● safe · from \w+/);
      await frame.locator('[data-pointer="/a"] input').waitFor();
      await frame.locator('[data-pointer="/b"] input').waitFor();
      assert.equal(await frame.locator('[data-pointer="/a"] label').textContent(), 'a *');
      await shot('run-tool-form');
    },
  );

  await step(
    'a wrong value is named next to its field, and Run sends nothing until it is fixed',
    async () => {
      const frame = await add();
      await frame.locator('[data-pointer="/a"] input').fill('two');
      await frame
        .locator('[data-pointer="/a"] .field-error', { hasText: 'must be a number' })
        .waitFor();
      assert.equal(
        await frame.locator('[data-pointer="/a"] input').getAttribute('aria-invalid'),
        'true',
      );
      assert.equal(
        await frame.locator('[data-pointer="/b"] .field-error').textContent(),
        '',
        'an untouched field is not blamed yet',
      );
      await frame.locator('button.run').click();
      await frame.locator('.run-status', { hasText: 'Not run' }).waitFor();
      await frame.locator('[data-pointer="/b"] .field-error', { hasText: 'required' }).waitFor();
      assert.equal(await frame.locator('.outcome .result').count(), 0, 'nothing was run');
      await shot('run-tool-validation');
      await frame.locator('[data-pointer="/a"] input').fill('2');
      await frame.locator('[data-pointer="/b"] input').fill('3');
      await frame.locator('[data-pointer="/a"] .field-error:empty').waitFor({ state: 'attached' });
      await frame.locator('[data-pointer="/b"] .field-error:empty').waitFor({ state: 'attached' });
    },
  );

  await step('Run shows the result: its text and its structured content', async () => {
    const frame = await add();
    await frame.locator('button.run').click();
    const result = runResult(frame);
    await result.waitFor();
    assert.equal(await result.getAttribute('data-state'), 'ok');
    assert.equal(await result.locator('.result-text').textContent(), '5');
    assert.deepEqual(JSON.parse(await result.locator('.result-structured').textContent()), {
      sum: 5,
    });
    await shot('run-tool-structured-result');
  });

  await step('an image result renders as an image (everything · get-tiny-image)', async () => {
    await palette(page, 'MGP: Run Tool', 'everything.get-tiny-image');
    const frame = await runToolFrame(kit, 'everything', 'get-tiny-image');
    await frame.locator('main[data-state="ready"]').waitFor();
    await frame.locator('button.run').click();
    const image = runResult(frame).locator('.result-image img');
    await image.waitFor();
    const size = await image.evaluate((img) => ({
      w: img.naturalWidth,
      h: img.naturalHeight,
      complete: img.complete,
    }));
    assert.ok(
      size.complete && size.w > 0 && size.h > 0,
      `the image decoded: ${JSON.stringify(size)}`,
    );
    await shot('run-tool-image');
  });

  await step(
    'a risk raised in mgp.toml shows "dangerous · from config" and warns that the server claims otherwise',
    async () => {
      const config = join(workspace, 'mgp.toml');
      const text = readFileSync(config, 'utf8');
      const second = text.indexOf('[[servers]]', text.indexOf('id = "example"'));
      // The kernel takes a server's new policy when the server is replaced, which a change of its settings
      // does (tool_result_max_chars here). Its launch approval covers its settings and policy, so the
      // workspace server is asked about again before it restarts (SECURITY.md, launch approval).
      writeFileSync(
        config,
        `${text.slice(0, second)}tool_result_max_chars = 60000\n\n[servers.tools.peek_notes]\nrisk_level = "dangerous"\nside_effects = ["database"]\n\n${text.slice(second)}`,
      );
      const changed = page.locator('.monaco-dialog-box', {
        hasText: 'MCP server "example" changed since you allowed it',
      });
      await changed.getByRole('button', { name: 'Start', exact: true }).click();
      // The server restarts with its new policy; the tree shows it collapsed again.
      const dangerous = page.locator(
        '.monaco-list-row[aria-label^="Tool peek_notes, risk dangerous"]',
      );
      for (
        const until = Date.now() + HANG_MS;
        !(await dangerous.isVisible()) && Date.now() < until;
      ) {
        await expandTools(page, 'example').catch(() => undefined);
        await page.waitForTimeout(500);
      }
      await dangerous.click();
      const frame = await runToolFrame(kit, 'example', 'peek_notes');
      await frame.locator('main[data-state="ready"]').waitFor();
      assert.equal(
        await frame.locator('[data-risk]').first().textContent(),
        '▲ dangerous · from config',
      );
      await frame.locator('.claim[data-claim="safe"]').waitFor();
      await shot('run-tool-config-override');
    },
  );

  await step(
    'a call the validators refuse ends with its MGP error, code and name, and asks nobody first',
    async () => {
      // peek_notes declares the readonly validator; config says it writes: refused before any approval.
      const frame = await runToolFrame(kit, 'example', 'peek_notes');
      await frame.locator('button.run').click();
      const error = frame.locator('.outcome .result[data-state="failed"]');
      await error.waitFor();
      const code = await error.locator('.error-code').textContent();
      assert.match(code, /^1010 [A-Z_]+$/, `an MGP code and name: ${code}`);
      assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no approval was asked');
      await shot('run-tool-mgp-error');
    },
  );

  for (const theme of THEMES) {
    await step(`the Run Tool panel is readable in ${theme.name}`, async () => {
      await page.locator('.tab', { hasText: 'Run example · peek_notes' }).click();
      const frame = await runToolFrame(kit, 'example', 'peek_notes');
      await switchTheme(kit, theme, frame);
      await assertReadable(frame, [
        'h1',
        '.facts dt',
        '.facts dd',
        '[data-risk]',
        '.claim',
        '.untrusted',
        '.mgp-error span',
        '.run-status',
        '.stream-choice label',
      ]);
      await shot(`run-tool-${theme.file}`);
    });
  }
}
