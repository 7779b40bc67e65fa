// MCP sampling with the person in the loop, in the editor: server-everything's
// trigger-sampling-request, run from the Run Tool panel, asks in a quick pick (the server's request,
// then the model's answer) with Send / Edit… / Decline. An edited answer is what the server gets; a
// declined request never reaches the model (a scripted one behind the OpenAI-compatible endpoint);
// a request the server withdraws (MCP notifications/cancelled) closes its question by itself.
import { strict as assert } from 'node:assert';
import { createRequire } from 'node:module';
import { writeSettings } from '../codeServer.mjs';
import { HANG_MS } from '../patience.mjs';
import { switchTheme } from '../scenarios/10-run-tool.mjs';
import { findWebviewFrame, openWorkbench, palette, serverRow } from '../uiKit.mjs';
import { everythingAndAsksWindow } from '../workspace.mjs';

const require = createRequire(import.meta.url);
const { startScriptedModel } = require('../../../fixtures/models/scriptedModel.js');

export const title = 'sampling is reviewed in quick picks: send, edit, decline, withdrawn';
export const window = everythingAndAsksWindow({
  everythingTools: ['trigger-sampling-request'],
  asksTools: ['withdrawn_sampling'],
});

const MODEL_ANSWER = 'Lighthouses warn ships of rocks.';
const EDITED_ANSWER = 'Lighthouses guide ships home, edited before sending.';

export const question = (page) => page.locator('.quick-input-widget');
export const questionTitled = (page, text) =>
  page.locator('.quick-input-widget', {
    has: page.locator('.quick-input-title', { hasText: text }),
  });

/** The tool's panel, its prompt filled in, run; the panel's frame. */
export async function runTool(page, serverId, tool, fields) {
  await palette(page, 'MGP: Run Tool', `${serverId}.${tool}`);
  const panel = await findWebviewFrame(page, `Run ${serverId} · ${tool}`);
  for (const [pointer, value] of Object.entries(fields))
    await panel.locator(`[data-pointer="/${pointer}"] :is(input, textarea)`).fill(value);
  await panel.locator('button.run').click();
  return panel;
}

/** Clicks the pick's row with this label (its codicon aside). */
export async function choose(page, label) {
  await page
    .locator('.quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: label }) })
    .first()
    .click();
}

export const resultWith = (panel, text) => panel.locator('.outcome .result', { hasText: text });

/** The rows of the open pick, one line each: label, description and detail. */
export async function rows(page) {
  const texts = await page.locator('.quick-input-list .monaco-list-row').allTextContents();
  return texts.map((t) => t.replace(/\s+/g, ' ').trim());
}

/** A shot of the open question once it has faded in, the pointer out of its way. */
export async function questionShot({ page, shot }, name) {
  await page.mouse.move(1300, 700);
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (a) => a.playState !== 'running' || !a.effect?.target?.closest?.('.quick-input-widget'),
      ),
  );
  await shot(name);
}

export async function run(kit) {
  const { page, server, workspace, dirs, step, THEMES } = kit;
  const dark = THEMES.find((t) => t.file === 'dark');
  const light = THEMES.find((t) => t.file === 'light');
  const highContrast = THEMES.find((t) => t.file === 'high-contrast');
  const model = await startScriptedModel({ rules: [{ match: 'context:', reply: MODEL_ANSWER }] });
  try {
    writeSettings(dirs, {
      'mgp.models.openaiCompatible.url': model.url,
      'mgp.models.openaiCompatible.model': 'scripted',
    });
    let panel;

    await step("the server's sampling request shows in a quick pick with its text", async () => {
      await openWorkbench(page, server, workspace);
      await serverRow(page, 'everything', 'connected');
      await switchTheme(kit, dark);
      panel = await runTool(page, 'everything', 'trigger-sampling-request', {
        prompt: 'Why do lighthouses matter?',
      });
      await questionTitled(page, '"everything" asks to use a language model').waitFor();
      const shown = await rows(page);
      assert.match(shown[0], /Send/);
      assert.match(shown[0], /up to 100 tokens/);
      assert.match(
        shown[0],
        /System prompt: You are a helpful test server\. · user: Resource trigger-sampling-request context: Why do lighthouses/,
        'the request on one line, no escaped line feeds',
      );
      assert.match(shown[1], /Edit…/);
      assert.match(shown[2], /Decline/);
      assert.equal(model.requests.length, 0, 'nothing reaches the model before Send');
      await questionShot(kit, 'sampling-request-dark');
    });

    await step(
      '"Read it all…" opens the whole request beside, and the question stays',
      async () => {
        await choose(page, 'Read it all…');
        const tab = page.locator('.tab', { hasText: 'What everything asks the model' });
        await tab.waitFor();
        await page
          .locator('.editor-instance .view-lines', { hasText: /Why.do.lighthouses.matter\?/ })
          .waitFor();
        await questionTitled(page, '"everything" asks to use a language model').waitFor();
        assert.equal(model.requests.length, 0, 'reading sends nothing');
        await questionShot(kit, 'sampling-request-whole-dark');
      },
    );

    await step(
      "Send; the model's answer shows; Edit… changes it; the server gets the edit",
      async () => {
        await choose(page, 'Send');
        await questionTitled(page, 'Send the model\'s answer back to "everything"?').waitFor();
        assert.equal(model.requests.length, 1, 'the model was asked once');
        const shown = await rows(page);
        assert.match(shown[0], new RegExp(MODEL_ANSWER.replace(/\./g, '\\.')));
        assert.match(shown[0], /scripted/);
        await questionShot(kit, 'sampling-answer-dark');
        await choose(page, 'Edit…');
        await questionTitled(page, 'Edit the answer "everything" gets').waitFor();
        const box = question(page).locator('input');
        assert.equal(await box.inputValue(), MODEL_ANSWER, 'the edit starts from the answer');
        await box.fill(EDITED_ANSWER);
        await questionShot(kit, 'sampling-edit-dark');
        await page.keyboard.press('Enter');
        const result = resultWith(panel, 'LLM sampling result');
        await result.waitFor();
        const text = await result.textContent();
        assert.ok(text.includes(EDITED_ANSWER), `the edited answer reached the server: ${text}`);
        assert.ok(!text.includes(MODEL_ANSWER), "the model's own answer did not");
        await question(page).waitFor({ state: 'hidden' });
      },
    );

    await step('in the light theme: Send, then the answer declined', async () => {
      await switchTheme(kit, light, panel);
      await panel.locator('button.run').click();
      await questionTitled(page, '"everything" asks to use a language model').waitFor();
      await questionShot(kit, 'sampling-request-light');
      await choose(page, 'Send');
      await questionTitled(page, 'Send the model\'s answer back to "everything"?').waitFor();
      assert.equal(model.requests.length, 2);
      await questionShot(kit, 'sampling-answer-light');
      await choose(page, 'Decline');
      const result = resultWith(panel, "declined the model's answer");
      await result.waitFor();
      assert.ok(!(await result.textContent()).includes(MODEL_ANSWER));
    });

    await step(
      'Decline at the first question (in high contrast): the server is told; the model gets nothing',
      async () => {
        await switchTheme(kit, highContrast, panel);
        await panel.locator('button.run').click();
        await questionTitled(page, '"everything" asks to use a language model').waitFor();
        await questionShot(kit, 'sampling-request-high-contrast');
        await choose(page, 'Decline');
        const result = resultWith(panel, 'rejected the sampling request');
        await result.waitFor();
        assert.match(await result.textContent(), /rejected by the user/);
        assert.equal(model.requests.length, 2, 'the declined request never reached the model');
        await question(page).waitFor({ state: 'hidden' });
        await switchTheme(kit, light, panel);
      },
    );

    await step('a request the server withdraws closes its quick pick by itself', async () => {
      await serverRow(page, 'asks', 'connected');
      // Long enough to see the question open; then the server sends notifications/cancelled.
      const withdrawn = await runTool(page, 'asks', 'withdrawn_sampling', { ms: '6000' });
      await questionTitled(page, '"asks" asks to use a language model').waitFor();
      const [send] = await rows(page);
      assert.match(send, /user: never mind/);
      assert.ok(!send.includes('\\n'), `no escaped line feeds: ${send}`);
      await questionShot(kit, 'sampling-withdrawn-light');
      await question(page).waitFor({ state: 'hidden', timeout: HANG_MS });
      await resultWith(withdrawn, 'withdrawn').waitFor();
      assert.equal(model.requests.length, 2, 'the withdrawn request never reached the model');
    });
  } finally {
    await model.close();
  }
}
