// "Run Tool", one panel for every tool: a tool opened from the Servers view shows its effective
// security and a form generated from its input schema; a wrong value is named next to its field and
// nothing is sent; fixed, Ctrl+Enter runs and the result (text, structured content) is scrolled into
// view, with its raw tools/call JSON, Copy and Re-run; each run is kept in the tool's history, which
// outlives the panel; the picker swaps the tool and keeps what was typed; an image renders; a config
// override shows "from config" with the server's differing claim; a call the kernel refuses is a
// block (which check, why), a server's own error is not; the trace opens the Audit Trail on it.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expandTools as expandToolsOf, findWebviewFrame, palette, serverRow } from '../uiKit.mjs';
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
    // The click takes the focus out of the webview: the palette opens in the workbench, not in it.
    await page
      .waitForFunction(() => document.activeElement?.tagName !== 'IFRAME', null, { timeout: 5000 })
      .catch(() => undefined);
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
  await expandToolsOf(await serverRow(page, serverId, 'connected'));
}

/** Chooses a tool in the panel's picker; the panel (and its tab) then shows that tool. */
async function pickTool(kit, frame, serverId, toolName) {
  await frame.locator('#tool-picker').selectOption({ value: `${serverId}\u0000${toolName}` });
  await kit.page.locator('.tab', { hasText: `Run ${serverId} · ${toolName}` }).waitFor();
  const swapped = await runToolFrame(kit, serverId, toolName);
  await swapped.locator(`main[data-tool="${serverId}.${toolName}"][data-state="ready"]`).waitFor();
  return swapped;
}

/** The history's heading once it counts `n` runs. */
function historyOf(frame, n) {
  return frame.locator('#history-heading', { hasText: `History (${n})` });
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
      // The server's picture stands for its safe tools only: a moderate tool keeps its warning
      // icon, as a dangerous one its flame.
      const iconOf = (label) =>
        page
          .locator(`.monaco-list-row[aria-label*="${label}"] .custom-view-tree-node-item-icon`)
          .first()
          .evaluate((icon) => ({ className: icon.className, image: icon.style.backgroundImage }));
      // The picture comes once the kernel has checked and re-encoded the server's icon: wait for it.
      await page.waitForFunction(() => {
        const icon = document.querySelector(
          '.monaco-list-row[aria-label*="Tool add,"] .custom-view-tree-node-item-icon',
        );
        return icon instanceof HTMLElement && /url\(/.test(icon.style.backgroundImage);
      });
      const [safe, moderate] = [await iconOf('Tool add,'), await iconOf('risk moderate')];
      assert.match(safe.image, /url\(/, "the server's picture");
      assert.match(moderate.className, /codicon-warning/);
      assert.equal(moderate.image, '');
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

  await step(
    'Ctrl+Enter runs; the result is scrolled into view with its text and structured content',
    async () => {
      const frame = await add();
      await frame.locator('[data-pointer="/b"] input').focus();
      await page.keyboard.press('Control+Enter');
      const result = runResult(frame);
      await result.waitFor();
      assert.equal(await result.getAttribute('data-state'), 'ok');
      assert.equal(await result.locator('.result-text').textContent(), '5');
      assert.deepEqual(JSON.parse(await result.locator('.result-structured').textContent()), {
        sum: 5,
      });
      const inView = await result.evaluate((node) => {
        const box = node.getBoundingClientRect();
        return box.top >= 0 && box.top < window.innerHeight;
      });
      assert.ok(inView, 'the result is in view');
      await historyOf(frame, 1).waitFor();
      await shot('run-tool-structured-result');
    },
  );

  await step(
    'the raw JSON shows the tools/call params as sent (with the trace id) and the result; Copy copies',
    async () => {
      const frame = await add();
      const raw = frame.locator('.outcome .raw-exchange');
      await raw.locator('summary').click();
      const request = JSON.parse(await raw.locator('.raw-request').textContent());
      assert.equal(request.name, 'add');
      assert.deepEqual(request.arguments, { a: 2, b: 3 });
      const trace = await frame.locator('.outcome .trace-link').textContent();
      assert.equal(request._mgp?.trace_id, trace, 'the trace id went out with the call');
      const response = JSON.parse(await raw.locator('.raw-response').textContent());
      assert.deepEqual(response.structuredContent, { sum: 5 });
      await frame.locator('.outcome button.copy-result').click();
      await frame.locator('.run-status', { hasText: 'Copied to the clipboard.' }).waitFor();
      await shot('run-tool-raw-json');
      await raw.locator('summary').click();
    },
  );

  await step(
    'Re-run runs again; a past run from the history shows its arguments and result, and runs again',
    async () => {
      const frame = await add();
      await frame.locator('.outcome button.rerun').click();
      await historyOf(frame, 2).waitFor();
      await frame.locator('[data-pointer="/a"] input').fill('10');
      await frame.locator('[data-pointer="/a"] input').press('Control+Enter');
      await runResult(frame).locator('.result-text', { hasText: /^13$/ }).waitFor();
      await historyOf(frame, 3).waitFor();
      const oldest = frame.locator('.history-list li').last().locator('button.history-entry');
      await oldest.click();
      const detail = frame.locator('.history-detail');
      assert.deepEqual(JSON.parse(await detail.locator('.history-args').textContent()), {
        a: 2,
        b: 3,
      });
      assert.equal(await detail.locator('.result-text').textContent(), '5');
      await shot('run-tool-history');
      await detail.locator('button.rerun').click();
      await historyOf(frame, 4).waitFor();
      await runResult(frame).locator('.result-text', { hasText: /^5$/ }).waitFor();
      assert.equal(await frame.locator('[data-pointer="/a"] input').inputValue(), '2');
    },
  );

  await step(
    'the picker swaps the tool in the same panel; an image result renders (everything · get-tiny-image)',
    async () => {
      const frame = await pickTool(kit, await add(), 'everything', 'get-tiny-image');
      assert.equal(await page.locator('.tab', { hasText: /^Run / }).count(), 1, 'one Run Tool tab');
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
      const back = await pickTool(kit, frame, 'example', 'add');
      assert.equal(await back.locator('[data-pointer="/a"] input').inputValue(), '2', 'kept');
      await historyOf(back, 4).waitFor();
    },
  );

  await step(
    "the history is the workspace's, not the panel's: closed and opened again, the panel shows it",
    async () => {
      await page.locator('.tab', { hasText: 'Run example · add' }).click();
      await palette(page, 'View: Close Editor');
      await page.locator('.tab', { hasText: 'Run example · add' }).waitFor({ state: 'detached' });
      await palette(page, 'MGP: Run Tool', 'example.add');
      const frame = await add();
      await historyOf(frame, 4).waitFor();
      assert.equal(await frame.locator('.history-list li').count(), 4);
      assert.equal(await frame.locator('.outcome .result').count(), 0, 'a new panel, no run yet');
    },
  );

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

  let blockTrace;
  await step(
    'a call the validators refuse is a kernel block: which check, why, its code; nobody is asked, nothing is sent',
    async () => {
      // peek_notes declares the readonly validator; config says it writes: refused before any approval.
      const frame = await runToolFrame(kit, 'example', 'peek_notes');
      await frame.locator('button.run').click();
      const block = frame.locator('.outcome .result[data-state="blocked"]');
      await block.waitFor();
      assert.equal(await block.locator('.block-check').textContent(), 'Kernel validators');
      assert.match(await block.locator('.block-why').textContent(), /validators blocked/);
      const code = await block.locator('.error-code').textContent();
      assert.match(code, /^1010 VALIDATION_BLOCKED$/, `an MGP code and name: ${code}`);
      assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no approval was asked');
      await frame.locator('.outcome .raw-exchange summary').click();
      await frame
        .locator('.outcome .raw-request-none', { hasText: 'Nothing was sent to the server.' })
        .waitFor();
      blockTrace = await frame.locator('.outcome .trace-link').textContent();
      await shot('run-tool-kernel-block');
      await frame.locator('.outcome .raw-exchange summary').click();
    },
  );

  await step(
    "a server's own error is shown as the server's, not as a block (example · broken)",
    async () => {
      const frame = await pickTool(
        kit,
        await runToolFrame(kit, 'example', 'peek_notes'),
        'example',
        'broken',
      );
      await frame.locator('button.run').click();
      const failed = frame.locator('.outcome .result[data-state="failed"]');
      await failed.waitFor();
      assert.equal(await failed.locator('.error-code').textContent(), '5000 UPSTREAM_ERROR');
      assert.equal(await frame.locator('.outcome .result-blocked').count(), 0);
      await shot('run-tool-server-error');
    },
  );

  await step('the trace id opens the Audit Trail filtered to that trace', async () => {
    const frame = await pickTool(
      kit,
      await runToolFrame(kit, 'example', 'broken'),
      'example',
      'peek_notes',
    );
    const link = frame.locator('.outcome .trace-link');
    assert.equal(await link.textContent(), blockTrace, 'the pane kept its outcome');
    await link.click();
    await page.locator('.tab', { hasText: 'Audit Trail' }).waitFor();
    const trail = await findWebviewFrame(page, 'Audit Trail');
    await trail.waitForFunction(
      (trace) => document.querySelector('input[data-filter="trace"]')?.value === trace,
      blockTrace,
      { timeout: HANG_MS },
    );
    const rows = trail.locator('.window .row[data-seq]');
    await rows.first().waitFor();
    const traces = await rows.evaluateAll((all) => all.map((r) => r.dataset.trace));
    assert.ok(
      traces.length > 0 && traces.every((t) => t === blockTrace),
      `only the trace: ${traces}`,
    );
    await shot('run-tool-trace-in-audit-trail');
    // The shared window goes on with the Audit Trail unfiltered.
    await page.locator('.tab', { hasText: 'Audit Trail' }).click();
    await palette(page, 'View: Close Editor');
    await page.locator('.tab', { hasText: 'Audit Trail' }).waitFor({ state: 'detached' });
  });

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
        '.block-facts dd',
        '.error-code',
        '.trace-link',
        '#history-heading',
        '.history-entry',
        '.run-status',
        '.stream-choice label',
        '#tool-picker',
      ]);
      await shot(`run-tool-${theme.file}`);
    });
  }
}
