// Issue: a server's request for information (elicitation) opened a modal that listed no fields, then
// asked ~10 quick inputs one at a time with no way back. Now it is one form with every field, in an
// editor tab: server-everything's trigger-elicitation-request, answered, and the answer reaches it.
// Then every enum form (SEP-1330: an untitled enum, titled oneOf, multi-select with min/max items)
// with its defaults filled in (SEP-1034), from an SDK server that asks.
import { strict as assert } from 'node:assert';
import { switchTheme } from '../scenarios/10-run-tool.mjs';
import { findWebviewFrame, openWorkbench, palette, serverRow } from '../uiKit.mjs';
import { everythingAndAsksWindow } from '../workspace.mjs';

export const title = 'an elicitation is one form';
export const window = everythingAndAsksWindow({
  everythingTools: ['trigger-elicitation-request'],
  asksTools: ['choose'],
});

/**
 * The theme picked and kept: the form can take the focus while the picker is open, which closes it
 * and takes back the theme it was previewing. The kit's setTheme picks it again until the user
 * settings hold it, which only an accepted pick writes, and waits for the form to show it.
 */
async function themed(kit, theme, frame) {
  await switchTheme(kit, theme, frame);
  await kit.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

export async function run(kit) {
  const { page, server, workspace, step, shot, THEMES } = kit;
  let form;

  await step('running trigger-elicitation-request opens one form with all its fields', async () => {
    await openWorkbench(page, server, workspace);
    await serverRow(page, 'everything', 'connected');
    await palette(page, 'MGP: Run Tool', 'everything.trigger-elicitation-request');
    const runPanel = await findWebviewFrame(page, 'Run everything · trigger-elicitation-request');
    await runPanel.locator('button.run').click();
    await page.locator('.tab', { hasText: 'everything asks for information' }).waitFor();
    form = await findWebviewFrame(page, 'Elicitation');
    await form.locator('main[data-state="ready"]').waitFor();
    const labels = await form.locator('.schema-form label').allTextContents();
    assert.ok(labels.length >= 8, `every field at once: ${labels.join(' | ')}`);
    assert.match(await form.locator('.untrusted').textContent(), /Please provide inputs/);
    for (const theme of THEMES) {
      await themed(kit, theme, form);
      await page.mouse.move(1300, 140);
      await shot(`elicitation-form-${theme.file}`);
    }
  });

  await step(
    'a required field left empty is named in the form; filled in, Submit sends the answer',
    async () => {
      await form.locator('button[data-answer="accept"]').click();
      await form.locator('main[data-state="refused"]').waitFor();
      const name = form.locator('.schema-form input').first();
      assert.equal(await name.getAttribute('aria-invalid'), 'true', 'the empty field is marked');
      assert.match(await form.locator('.schema-form').textContent(), /required/);
      await shot('elicitation-form-refused');
      await name.fill('Ada Lovelace');
      await form.locator('button[data-answer="accept"]').click();
      const runPanel = await findWebviewFrame(page, 'Run everything · trigger-elicitation-request');
      const result = runPanel.locator('.outcome .result');
      await result.waitFor();
      assert.match(await result.textContent(), /Ada Lovelace/);
      assert.match(await result.textContent(), /provided the requested information/);
      assert.equal(await page.locator('.tab', { hasText: 'asks for information' }).count(), 0);
    },
  );

  await step(
    'every enum form: titled choices, a multi-select with its limits, defaults filled in',
    async () => {
      await serverRow(page, 'asks', 'connected');
      await palette(page, 'MGP: Run Tool', 'asks.choose');
      const runPanel = await findWebviewFrame(page, 'Run asks · choose');
      await runPanel.locator('button.run').click();
      await page.locator('.tab', { hasText: 'asks asks for information' }).waitFor();
      form = await findWebviewFrame(page, 'Elicitation');
      await form.locator('main[data-state="ready"]').waitFor();
      const colour = form.locator('.schema-form select').nth(1);
      assert.deepEqual(
        await colour.locator('option').allTextContents(),
        ['Red', 'Green', 'Blue'],
        'a titled oneOf shows its titles',
      );
      const size = form.locator('.schema-form select').first();
      assert.equal(await size.locator('option:checked').textContent(), 'medium', 'the default');
      const toppings = form.locator('fieldset.field-multi').first();
      assert.equal(await toppings.locator('input[value="cheese"]').isChecked(), true);
      assert.match(await toppings.textContent(), /pick 1 to 2 choices/);
      assert.equal(await form.locator('option', { hasText: 'Option A' }).count(), 1, 'enumNames');
      await colour.selectOption({ label: 'Blue' });
      await toppings.locator('input[value="olives"]').check();
      await toppings.locator('input[value="basil"]').check();
      for (const theme of THEMES) {
        await themed(kit, theme, form);
        await page.mouse.move(1300, 140);
        await shot(`elicitation-enums-${theme.file}`);
      }
      await form.locator('button[data-answer="accept"]').click();
      await form.locator('main[data-state="refused"]').waitFor();
      assert.match(
        await toppings.textContent(),
        /more than 2|at most 2/,
        'three of two is refused',
      );
      await toppings.locator('input[value="cheese"]').uncheck();
      await form.locator('button[data-answer="accept"]').click();
      const result = runPanel.locator('.outcome .result');
      await result.waitFor();
      const text = await result.textContent();
      assert.match(text, /#00f/);
      assert.match(text, /olives/);
      assert.match(text, /"size":\s*"medium"/);
    },
  );
}
