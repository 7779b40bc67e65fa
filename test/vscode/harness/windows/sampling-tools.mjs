// MCP 2025-11-25 sampling with tools, reviewed in the editor: an SDK server's `weather_agent` offers
// `get_weather` to the model, the model calls it, the server answers with the tool's result and asks
// again (two turns, each request and each answer in its quick pick). `describe_image` sends an image:
// refused, with its reason, for a model not declared to take images; sent to one that is
// (mgp.models.openaiCompatible.inputs). The model is the scripted one behind the OpenAI-compatible
// endpoint, whose recorded requests show what reached it.
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { writeSettings } from '../codeServer.mjs';
import { HANG_MS, shownWithin, waitFor } from '../patience.mjs';
import { switchTheme } from '../scenarios/10-run-tool.mjs';
import { openWorkbench, palette, serverRow } from '../uiKit.mjs';
import { everythingAndAsksWindow } from '../workspace.mjs';
import {
  choose,
  question,
  questionShot,
  questionTitled,
  resultWith,
  rows,
  runTool,
} from './sampling-review.mjs';

const require = createRequire(import.meta.url);
const { startScriptedModel } = require('../../../fixtures/models/scriptedModel.js');

export const title = 'sampling with tools and an image, reviewed in quick picks';
export const window = everythingAndAsksWindow({
  everythingTools: [],
  asksTools: ['weather_agent', 'describe_image'],
});

const FORECAST = 'It is 22 degrees and sunny in Oslo.';
const PICTURE = 'A single red pixel.';
const TOOL_CALL = '[calls tool get_weather with {"city":"Oslo"}]';
const TOOL_RESULT = /\[result of call_\d+_1: Oslo: 22 degrees, sunny\]/;

/**
 * What the scripted model answers, by what it is asked: a tool result gets the forecast, an offered
 * tool gets a call to it, an image gets its description.
 */
function answerFor(request) {
  const last = request.messages.at(-1);
  if (last.role === 'tool') return { content: FORECAST };
  if (request.tools?.length)
    return { tool_calls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] };
  return { content: PICTURE };
}

const asks = (page) => questionTitled(page, '"asks" asks to use a language model');
const answerBack = (page) => questionTitled(page, 'Send the model\'s answer back to "asks"?');

/**
 * Declares in the Settings editor that the endpoint's model takes images, as a person does, and
 * waits until the kernel has taken the change (its log names the models again).
 */
async function declareImageInput({ page, dirs, shot }) {
  const modelLines = () => kernelLog(dirs).match(/\] models: /g)?.length ?? 0;
  const before = modelLines();
  await palette(page, 'Preferences: Open User Settings');
  await page.locator('.settings-editor').waitFor();
  await page.locator('.settings-editor .suggest-input-container').click();
  await page.keyboard.type('mgp.models.openaiCompatible.inputs');
  const setting = page.locator(
    '.settings-editor .setting-item-contents[data-key="mgp.models.openaiCompatible.inputs"]',
  );
  // A click while the editor draws the search's results is lost: click until the edit row opens.
  const choice = setting.locator('.setting-list-edit-row select');
  for (const until = Date.now() + HANG_MS; !(await choice.isVisible());) {
    if (Date.now() > until) throw new Error('Add Item never opened an edit row');
    await setting
      .locator('.setting-list-addButton')
      .click({ timeout: 5000 })
      .catch(() => {});
    await shownWithin(choice, 5000);
  }
  await choice.selectOption('image');
  await setting.locator('.setting-list-ok-button').click();
  await setting.locator('.setting-list-row', { hasText: 'image' }).waitFor();
  await shot('sampling-image-setting-light');
  await waitFor(() => modelLines() > before, 'the kernel has read the changed model settings');
  await palette(page, 'View: Close Editor');
}

function kernelLog(dirs) {
  const under = (dir) =>
    !existsSync(dir)
      ? []
      : readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
          entry.isDirectory() ? under(join(dir, entry.name)) : [join(dir, entry.name)],
        );
  const file = under(join(dirs.userData, 'logs')).find((f) => f.endsWith('MGP Kernel.log'));
  return file ? readFileSync(file, 'utf8') : '';
}

/** The weather agent's two turns, each request and answer sent; a shot of each pick. */
async function weatherTurns(kit, theme, panel) {
  const { page } = kit;
  await asks(page).waitFor();
  const [request] = await rows(page);
  assert.match(request, /up to 200 tokens · Tools offered \(auto\): get_weather/);
  assert.match(request, /user: What is the weather in Oslo\?/);
  await questionShot(kit, `sampling-tools-request-${theme}`);
  await choose(page, 'Send');

  await answerBack(page).waitFor();
  const [call] = await rows(page);
  assert.ok(call.includes(TOOL_CALL), `the tool call, readable: ${call}`);
  assert.match(call, /scripted · calls tools/);
  await questionShot(kit, `sampling-tools-call-${theme}`);
  await choose(page, 'Send');

  await asks(page).waitFor();
  const [again] = await rows(page);
  // The newest message leads: the tool's result the model is asked about now.
  assert.match(again, TOOL_RESULT);
  assert.match(again, /\] · after 2 earlier messages/);
  assert.match(again, /Tools offered \(auto\): get_weather/);
  await questionShot(kit, `sampling-tools-result-${theme}`);
  await choose(page, 'Send');

  await answerBack(page).waitFor();
  const [final] = await rows(page);
  assert.ok(final.includes(FORECAST), `the final answer: ${final}`);
  assert.ok(!final.includes('calls tools'), final);
  await questionShot(kit, `sampling-tools-final-${theme}`);
  await choose(page, 'Send');
  const result = resultWith(panel, FORECAST);
  await result.waitFor();
  assert.match(await result.textContent(), /"stopReason":\s*"toolUse"/);
  await question(page).waitFor({ state: 'hidden' });
  await kit.shot(`sampling-tools-done-${theme}`);
}

export async function run(kit) {
  const { page, server, workspace, dirs, step, THEMES } = kit;
  const dark = THEMES.find((t) => t.file === 'dark');
  const light = THEMES.find((t) => t.file === 'light');
  const model = await startScriptedModel({ turns: Array.from({ length: 20 }, () => answerFor) });
  try {
    writeSettings(dirs, {
      'mgp.models.openaiCompatible.url': model.url,
      'mgp.models.openaiCompatible.model': 'scripted',
    });
    let weather;

    await step('weather_agent: the request says the tools it offers, read in full', async () => {
      await openWorkbench(page, server, workspace);
      await serverRow(page, 'asks', 'connected');
      await switchTheme(kit, dark);
      weather = await runTool(page, 'asks', 'weather_agent', { city: 'Oslo' });
      await asks(page).waitFor();
      await choose(page, 'Read it all…');
      await page.locator('.tab', { hasText: 'What asks asks the model' }).waitFor();
      await page
        .locator('.editor-instance .view-lines', { hasText: /Tools.offered.\(auto\):.get_weather/ })
        .waitFor();
      await asks(page).waitFor();
      assert.equal(model.requests.length, 0, 'reading sends nothing');
      await questionShot(kit, 'sampling-tools-request-whole-dark');
    });

    await step('two turns: the tool call, its result, the final answer, each sent', async () => {
      await weatherTurns(kit, 'dark', weather);
      assert.equal(model.requests.length, 2);
      const [first, second] = model.requests;
      assert.equal(first.tools[0].function.name, 'get_weather');
      assert.equal(first.tool_choice, 'auto');
      assert.deepEqual(
        second.messages.map((m) => m.role),
        ['user', 'assistant', 'tool'],
      );
      assert.equal(second.messages[1].tool_calls[0].function.name, 'get_weather');
      assert.equal(second.messages[2].tool_call_id, second.messages[1].tool_calls[0].id);
      assert.equal(second.messages[2].content, 'Oslo: 22 degrees, sunny');
      assert.equal(second.tools[0].function.name, 'get_weather', 'the tools offered again');
    });

    await step('the same two turns in the light theme', async () => {
      await switchTheme(kit, light, weather);
      await weather.locator('button.run').click();
      await weatherTurns(kit, 'light', weather);
      assert.equal(model.requests.length, 4);
    });

    let image;
    await step(
      'an image, for a model not declared to take images: refused, and why, unasked',
      async () => {
        image = await runTool(page, 'asks', 'describe_image', {});
        // No model here takes it: the person is not asked to review what could not be sent.
        const refusal = resultWith(image, 'does not take images');
        await refusal.waitFor();
        assert.match(
          await refusal.textContent(),
          /the model scripted at http:\/\/127\.0\.0\.1:\d+\/v1 does not take images; the request was not sent/,
        );
        assert.equal(model.requests.length, 4, 'the image never reached the model');
        assert.equal(await asks(page).isVisible(), false, 'no review was asked');
        await kit.shot('sampling-image-refused-light');
      },
    );

    await step('declared to take images (inputs: image): the model gets the image', async () => {
      await declareImageInput(kit);
      await switchTheme(kit, dark);
      image = await runTool(page, 'asks', 'describe_image', {});
      await asks(page).waitFor();
      const [request] = await rows(page);
      assert.match(request, /user: What is in this picture\? · \[image, image\/png\]/);
      await questionShot(kit, 'sampling-image-request-dark');
      await choose(page, 'Send');
      await answerBack(page).waitFor();
      const [answer] = await rows(page);
      assert.ok(answer.includes(PICTURE), answer);
      await questionShot(kit, 'sampling-image-answer-dark');
      await choose(page, 'Send');
      await resultWith(image, PICTURE).waitFor();
      assert.equal(model.requests.length, 5);
      const content = model.requests[4].messages[0].content;
      assert.equal(content[0].text, 'What is in this picture?');
      assert.equal(content[1].type, 'image_url');
      assert.match(content[1].image_url.url, /^data:image\/png;base64,iVBOR/);
    });
  } finally {
    await model.close();
  }
}
