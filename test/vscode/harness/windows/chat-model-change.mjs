// @mgp follows the model settings without a window reload: the person points the endpoint at
// another model while the window runs (MGP: Configure Model Endpoint), the chat view's model picker
// shows the new one, and @mgp's next answer comes from it; the old endpoint hears nothing more. An
// endpoint that does not answer gets the reason and a way to fix it. Two scripted models on loopback.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ask, chatView, lastResponse, responseDone } from '../chat.mjs';
import { writeSettings } from '../codeServer.mjs';
import { openWorkbench, palette } from '../uiKit.mjs';

const require = createRequire(import.meta.url);
const { startScriptedModel } = require('../../../fixtures/models/scriptedModel.js');

export const title = '@mgp picks up a model setting change without a reload';
export const window = {
  settings: { 'chat.disableAIFeatures': false },
  // No servers: nothing to ask about before the chat.
  prepare: (workspace) => writeFileSync(join(workspace, 'mgp.toml'), '# no servers here\n'),
};

/** A model that answers every question with its own name (VS Code may ask it for a title too). */
const namedModel = (name) =>
  startScriptedModel({
    turns: [{ content: `Answered by ${name}.`, repeat: true }],
  });

/** MGP: Configure Model Endpoint, as a person answers it: URL, model, no key. */
async function configure(page, url, model) {
  await palette(page, 'MGP: Configure Model Endpoint');
  for (const [title, value] of [
    ['(1/3)', url],
    ['(2/3)', model],
    ['(3/3)', ''],
  ]) {
    await page.locator('.quick-input-widget', { hasText: title }).waitFor();
    await page.locator('.quick-input-widget input').fill(value);
    await page.keyboard.press('Enter');
  }
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

export async function run({ page, server, workspace, dirs, step, shot }) {
  const alpha = await namedModel('alpha');
  const beta = await namedModel('beta');
  const modelShown = (name) =>
    page.locator('.interactive-input-part', { hasText: `${name} (MGP endpoint)` });
  try {
    writeSettings(dirs, {
      ...window.settings,
      'mgp.models.openaiCompatible.url': alpha.url,
      'mgp.models.openaiCompatible.model': 'alpha',
    });

    await step('@mgp answers on the endpoint the settings name', async () => {
      await openWorkbench(page, server, workspace);
      await page.keyboard.press('Control+Alt+I');
      await chatView(page).waitFor();
      await modelShown('alpha').waitFor();
      await ask(page, '@mgp Who are you?');
      await responseDone(page, 'Answered by alpha.');
    });

    await step(
      'MGP: Configure Model Endpoint names another: @mgp answers on it, no reload',
      async () => {
        const alphaAsked = alpha.requests.length;
        await palette(page, 'MGP: Configure Model Endpoint');
        for (const [title, value] of [
          ['(1/3)', beta.url],
          ['(2/3)', 'beta'],
          ['(3/3)', ''],
        ]) {
          await page.locator('.quick-input-widget', { hasText: title }).waitFor();
          await page.locator('.quick-input-widget input').fill(value);
          await page.keyboard.press('Enter');
        }
        await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
        await modelShown('beta').waitFor();
        await ask(page, '@mgp And now?');
        await responseDone(page, 'Answered by beta.');
        assert.ok(beta.requests.length > 0, 'the new endpoint was asked');
        assert.equal(alpha.requests.length, alphaAsked, 'the old endpoint heard nothing more');
        await shot('chat-model-change');
      },
    );

    await step('an endpoint that does not answer: @mgp says so, and what to do', async () => {
      // An endpoint that was there and is gone: its port refuses connections.
      const gone = await namedModel('gone');
      await gone.close();
      await configure(page, gone.url, 'gone');
      await modelShown('gone').waitFor();
      await ask(page, '@mgp Still there?');
      await responseDone(
        page,
        /The model failed: the model endpoint http:\/\/127\.0\.0\.1:\d+\/v1 cannot be reached \(ECONNREFUSED\)/,
      );
      await lastResponse(page).getByRole('button', { name: 'Configure Model Endpoint' }).waitFor();
      await shot('chat-model-failed');
    });
  } finally {
    await Promise.all([alpha.close(), beta.close()]);
  }
}
