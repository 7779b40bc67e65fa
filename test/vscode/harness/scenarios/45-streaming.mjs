// "MGP: Show Streaming Output": a long stream_text tried from Tool Discovery shows live in its own tab
// with its chunk rate; a long_task started meanwhile gets a second tab with a progress bar and the
// time left; Cancel stops the first and keeps its partial output; the tabs answer the arrow keys.
import { strict as assert } from 'node:assert';
import { findWebviewFrame } from '../uiKit.mjs';
import { switchTheme } from './10-run-tool.mjs';
import { waitFor } from '../patience.mjs';

export const title = 'streaming output panel';

/** Searches in the Tool Discovery panel, opens the tool's card and fills its "Try it" form. */
async function tryTool(page, discovery, query, tool, fields) {
  await discovery.locator('#query').fill(query);
  const card = discovery.locator(`.results .card[data-server="example"][data-tool="${tool}"]`);
  await card.waitFor();
  if ((await card.locator('.card-toggle').getAttribute('aria-expanded')) !== 'true')
    await card.locator('.card-toggle').click();
  for (const [pointer, value] of Object.entries(fields))
    await card.locator(`[data-pointer="${pointer}"] input`).fill(value);
  await card.locator('button.run', { hasText: 'Try it' }).click();
  return card;
}

export async function run(kit) {
  const { page, step, shot, runFromPalette, assertReadable, THEMES } = kit;
  let streams;
  let discovery;
  const tab = (tool) => streams.locator(`.tab:has-text("example · ${tool}")`).last();
  const panelOf = async (tool) =>
    streams.locator(
      `section.stream[data-stream-id="${await tab(tool).getAttribute('data-stream-id')}"]`,
    );

  await step('"MGP: Show Streaming Output" opens beside Tool Discovery', async () => {
    await runFromPalette(
      'MGP: Show Tool Discovery',
      page.locator('.tab', { hasText: 'Tool Discovery' }).first(),
    );
    discovery = await findWebviewFrame(page, 'Tool Discovery');
    await discovery.locator('#query').waitFor();
    await page.locator('.part.sidebar .title-label').click();
    await runFromPalette(
      'MGP: Show Streaming Output',
      page.locator('.tab', { hasText: 'Streaming Output' }).first(),
    );
    streams = await findWebviewFrame(page, 'Streaming Output');
    await streams.locator('h1', { hasText: 'Streaming Output' }).waitFor();
    assert.equal(
      await page.locator('.editor-group-container').count(),
      2,
      'two editor groups side by side',
    );
  });

  await step(
    'a long stream_text shows live in its own tab: text, chunk count and chunks per second',
    async () => {
      // 10,000 words 20 ms apart take over 200 s, longer than any step may: the steps up to Cancel
      // see it running however slow the machine, and Cancel ends it.
      await tryTool(page, discovery, 'stream text word by word', 'stream_text', {
        '/words': '10000',
        '/delay_ms': '20',
      });
      await tab('stream_text').waitFor();
      // Short reads, retried: the panel may not be drawn yet.
      await waitFor(async () => {
        const id = await tab('stream_text')
          .getAttribute('data-stream-id', { timeout: 1000 })
          .catch(() => null);
        if (!id) return false;
        const [shown] = await streams
          .locator(`section.stream[data-stream-id="${id}"]`)
          .evaluateAll((nodes) =>
            nodes.map((n) => [n.dataset.state, Number(n.dataset.chunks), Number(n.dataset.rate)]),
          );
        return shown?.[0] === 'running' && shown[1] > 300 && shown[2] > 0;
      }, 'a running stream_text with chunks');
      const panel = await panelOf('stream_text');
      assert.match(
        await panel.locator('.output-text').textContent(),
        /^lorem ipsum dolor sit amet/,
      );
      assert.match(
        await panel.locator('.stats').textContent(),
        /[\d,]+ chunks · [\d,.]+ chunks\/s · /,
      );
      await shot('streaming-live');
    },
  );

  await step(
    'a long_task started meanwhile gets a second tab with a progress bar and the time left',
    async () => {
      // 40 steps of a second: still running while this step reads its bar, however slow the
      // machine; the last step waits for it to end.
      await tryTool(page, discovery, 'long task steps progress', 'long_task', {
        '/steps': '40',
        '/delay_ms': '1000',
      });
      await tab('long_task').waitFor();
      assert.equal(
        await tab('stream_text').getAttribute('data-state'),
        'running',
        'both stream at once',
      );
      await tab('long_task').click();
      const panel = await panelOf('long_task');
      await panel.locator('.progress-eta', { hasText: 'left' }).waitFor();
      await waitFor(
        async () =>
          Number(await panel.locator('.progress-track').getAttribute('aria-valuenow')) > 0,
        'the bar moves',
      );
      assert.match(await panel.locator('.progress-text').textContent(), /^\d+% · Step \d+ of 40/);
      assert.equal((await streams.locator('.tab[data-state="running"]').count()) >= 2, true);
      await shot('streaming-two-tabs-progress');
    },
  );

  await step('the tabs follow the arrow keys', async () => {
    await tab('long_task').focus();
    await page.keyboard.press('ArrowLeft');
    assert.equal(await tab('stream_text').getAttribute('aria-selected'), 'true');
    await page.keyboard.press('ArrowRight');
    assert.equal(await tab('long_task').getAttribute('aria-selected'), 'true');
  });

  await step('Cancel stops stream_text and keeps its partial output', async () => {
    await tab('stream_text').click();
    const panel = await panelOf('stream_text');
    await panel.locator('button.cancel').click();
    await waitFor(
      async () => (await panel.getAttribute('data-state')) === 'cancelled',
      'the stream is cancelled',
    );
    await panel.locator('.final', { hasText: 'Cancelled: the partial output' }).waitFor();
    const text = await panel.locator('.output-text').textContent();
    assert.ok(text.length > 100 && text.startsWith('lorem ipsum'), 'the partial text stays');
    assert.ok(Number(await panel.getAttribute('data-chunks')) < 10000, 'it stopped early');
    await shot('streaming-cancelled');
  });

  await step('long_task ends done; its tab says so', async () => {
    await waitFor(
      async () => (await tab('long_task').getAttribute('data-state')) === 'done',
      'long_task has finished',
    );
    await tab('long_task').click();
    await (await panelOf('long_task')).locator('.final', { hasText: 'Done' }).waitFor();
    await shot('streaming-done');
  });

  for (const theme of THEMES) {
    await step(`the Streaming Output panel is readable in ${theme.name}`, async () => {
      await tab('stream_text').click();
      await switchTheme(kit, theme, streams);
      await assertReadable(streams, [
        'h1',
        '.tab[aria-selected="true"]',
        '.tab[aria-selected="false"]',
        '.stream-head h2',
        '.stats',
        '.final',
        '.output-text',
      ]);
      await shot(`streaming-${theme.file}`);
    });
  }
}
