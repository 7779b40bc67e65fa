// "MGP: Show Tool Discovery": search as you type finds `add` first for "add numbers"; a result opens
// to its schema and a "Try it" form that runs through the kernel; pinning puts it in the session cache
// and the token-budget bar; semantic search without an embedding endpoint says it answered by
// keywords; readable in three themes.
import { strict as assert } from 'node:assert';
import { findWebviewFrame, palette } from '../uiKit.mjs';
import { HANG_MS, waitFor } from '../patience.mjs';
import { switchTheme } from './10-run-tool.mjs';

export const title = 'tool discovery panel';

export async function run(kit) {
  const { page, step, shot, runFromPalette, assertReadable, THEMES } = kit;
  let frame;
  const card = (tool) =>
    frame.locator(`.results .card[data-server="example"][data-tool="${tool}"]`);

  await step(
    '"MGP: Show Tool Discovery" opens the panel with the search box focused and the session cache',
    async () => {
      await runFromPalette(
        'MGP: Show Tool Discovery',
        page.locator('.tab', { hasText: 'Tool Discovery' }).first(),
      );
      frame = await findWebviewFrame(page, 'Tool Discovery');
      await frame.locator('#query').waitFor();
      // The budget is an agent's: folded away, saying so, while the session holds no tool.
      await frame.locator('#app[data-session-used="false"]').waitFor();
      assert.equal(await frame.locator('details.session-box').getAttribute('open'), null);
      assert.equal(await frame.locator('.budget-bar').isVisible(), false);
      assert.equal(await frame.locator('.session-state').textContent(), 'not used yet');
      await shot('discovery-budget-folded');
    },
  );

  await step(
    'typing "add numbers" searches as you type (keyword by default) and puts example · add first, with relevance, risk and categories',
    async () => {
      await frame.locator('#query').click();
      await frame.locator('#query').pressSequentially('add numbers', { delay: 40 });
      const first = frame.locator('.results .card').first();
      // Answers to the first letters come and go; the answer to the whole query settles with add on top.
      await frame.locator('.results .card[data-tool="add"]').first().waitFor();
      const addFirst = async () => (await first.getAttribute('data-tool')) === 'add';
      await waitFor(addFirst, 'example · add is the first result').catch(() => undefined);
      assert.equal(await first.getAttribute('data-tool'), 'add');
      assert.equal(await first.getAttribute('data-server'), 'example');
      assert.match(await first.locator('.relevance').textContent(), /\d+%/);
      assert.equal(await first.locator('[data-risk]').textContent(), '● safe');
      assert.ok((await first.locator('.category').count()) > 0, 'categories are shown');
      assert.match(
        await frame.locator('.search-meta').textContent(),
        /matching tools · keyword · [\d.]+ ms/,
      );
    },
  );

  await step(
    'a result opens to its input schema and a "Try it" form that calls the tool',
    async () => {
      await card('add').locator('.card-toggle').click();
      assert.equal(await card('add').locator('.card-toggle').getAttribute('aria-expanded'), 'true');
      const schema = JSON.parse(await card('add').locator('pre.schema').textContent());
      assert.deepEqual(Object.keys(schema.properties), ['a', 'b']);
      await card('add').locator('[data-pointer="/a"] input').fill('19');
      await card('add').locator('[data-pointer="/b"] input').fill('23');
      // A filled field never shows the "required" it had while empty.
      assert.deepEqual(
        await card('add')
          .locator('.field-error')
          .evaluateAll((nodes) => nodes.map((n) => n.textContent).filter(Boolean)),
        [],
      );
      await card('add').locator('button.run').scrollIntoViewIfNeeded();
      await shot('discovery-schema');
      await card('add').locator('button.run', { hasText: 'Try it' }).click();
      const result = card('add').locator('.outcome .result');
      await result.waitFor();
      assert.equal(await result.getAttribute('data-state'), 'ok');
      assert.equal(await result.locator('.result-text').textContent(), '42');
      // A use puts the tool in the session cache, which unfolds with its budget.
      await frame.locator('#session .session-tools li[data-tool-id="example.add"]').waitFor();
      await frame.locator('details.session-box[open] .budget-bar').waitFor();
      assert.match(
        await frame.locator('.session-state').textContent(),
        /^[\d,]+ of [\d,]+ tokens$/,
      );
    },
  );

  await step(
    '"Keep for agents" puts the tool in the kept part of the session and the token-budget bar',
    async () => {
      await card('add').locator('button.pin').click();
      await frame.locator('#session h3', { hasText: 'Kept for agents (1)' }).waitFor();
      assert.equal(await card('add').getAttribute('data-pinned'), 'true');
      assert.equal(await card('add').locator('button.pin').textContent(), 'Stop keeping');
      const width = await frame
        .locator('.budget-segment[data-segment="pinned"] .budget-fill')
        .evaluate((n) => n.getBoundingClientRect().width);
      assert.ok(width > 0, 'the pinned tokens fill part of the bar');
      assert.ok(Number(await frame.locator('[data-total]').getAttribute('data-total')) > 0);
      assert.equal(
        await card('add').locator('.outcome .result .result-text').textContent(),
        '42',
        'the refreshed results kept the Try it result',
      );
      await frame.locator('.side-column').scrollIntoViewIfNeeded();
      await shot('discovery-pinned-budget');
    },
  );

  await step(
    'a tool has one history: the Try it run is the newest in the Run Tool panel it opens',
    async () => {
      await card('add').locator('button.link', { hasText: 'Open in the Run Tool panel' }).click();
      const tab = page.locator('.tab', { hasText: 'Run example · add' });
      await tab.waitFor();
      const run = await findWebviewFrame(page, 'Run example · add');
      const newest = run.locator('.history-list li').first().locator('button.history-entry');
      await newest.click();
      const detail = run.locator('.history-detail');
      assert.deepEqual(JSON.parse(await detail.locator('.history-args').textContent()), {
        a: 19,
        b: 23,
      });
      assert.equal(await detail.locator('.result-text').textContent(), '42');
      await shot('discovery-try-it-in-history');
      await tab.click();
      await palette(page, 'View: Close Editor');
      await tab.waitFor({ state: 'detached' });
      await page.locator('.tab', { hasText: 'Tool Discovery' }).click();
    },
  );

  await step(
    'semantic search without an embedding endpoint answers by keywords, and says so',
    async () => {
      await frame.locator('#strategy').selectOption('semantic');
      await frame.locator('.search-meta', { hasText: '· semantic ·' }).waitFor();
      await frame.locator('.notice', { hasText: 'answered with keyword search instead' }).waitFor();
      await frame.locator('.results .card[data-tool="add"]').first().waitFor();
      await frame.locator('#strategy').selectOption('keyword');
    },
  );

  for (const theme of THEMES) {
    await step(`the Tool Discovery panel is readable in ${theme.name}`, async () => {
      await page.locator('.tab', { hasText: 'Tool Discovery' }).click();
      await switchTheme(kit, theme, frame);
      await assertReadable(frame, [
        '.card-toggle .name',
        '.search-meta',
        '.card-description',
        '[data-risk]',
        '.category',
        '.budget-legend dt',
        '.budget-legend dd',
        '.facts dt',
        '.help',
        'label',
      ]);
      await shot(`discovery-${theme.file}`);
    });
  }

  await step(
    'a request no connected server serves says "No tool matches", shows the closest apart, and offers Add Server',
    async () => {
      await page.locator('.tab', { hasText: 'Tool Discovery' }).click();
      // The webview can be loaded again as the tab comes forward (it then restores its saved
      // query): the panel is found again and the query typed again until the search is this one.
      for (const until = Date.now() + HANG_MS; ;) {
        frame = await findWebviewFrame(page, 'Tool Discovery');
        await frame.locator('#query').fill('book a flight to Rome');
        const answered = await frame
          .locator('#app[data-no-match="true"]')
          .waitFor({ timeout: 10_000 })
          .then(
            () => true,
            () => false,
          );
        if (answered && (await frame.locator('#query').inputValue()) === 'book a flight to Rome')
          break;
        if (Date.now() > until) throw new Error('the no-match search never answered (a hang)');
      }
      const notice = frame.locator('.no-match');
      assert.match(await notice.textContent(), /^No tool matches\. None of the connected servers/);
      assert.equal(await frame.locator('.results').getAttribute('aria-label'), 'Closest tools');
      for (const text of await frame.locator('.results .relevance').allTextContents())
        assert.ok(Number.parseInt(text, 10) < 15, `a closest tool shows ${text}`);
      // Readable in each theme; the loop ends in dark, where the panel was.
      for (const theme of THEMES) {
        await switchTheme(kit, theme, frame);
        await assertReadable(frame, ['.no-match', '.no-match button', '.results .relevance']);
        await shot(`discovery-no-match-${theme.file}`);
      }
      await notice.locator('button', { hasText: 'Add Server…' }).click();
      await page.locator('.quick-input-widget input').waitFor();
      await page.keyboard.press('Escape');
      // A request a server serves is a match again.
      await page.locator('.tab', { hasText: 'Tool Discovery' }).click();
      await frame.locator('#query').fill('add numbers');
      await frame.locator('#app[data-no-match="false"]').waitFor();
      assert.equal(await frame.locator('.no-match').isVisible(), false);
    },
  );

  await step(
    "a person's search lists no kernel tool (mgp.*), and the kernel category is not offered",
    async () => {
      await frame.locator('#strategy').selectOption('keyword');
      await frame.locator('#status').selectOption('all');
      const before = Number(await frame.locator('#app').getAttribute('data-searching'));
      // Words of mgp.tools.session, which an agent's search finds, and of list_notes.
      await frame.locator('#query').fill('list the tools in the session');
      await frame.waitForFunction((earlier) => {
        const app = document.getElementById('app');
        return (
          Number(app.dataset.searching) > earlier && app.dataset.answered === app.dataset.searching
        );
      }, before);
      assert.ok((await frame.locator('.results .card').count()) > 0, 'the search found tools');
      assert.equal(await frame.locator('.results .card[data-server="mgp"]').count(), 0);
      assert.equal(await frame.locator('#category-kernel').count(), 0);
      await frame.locator('#status').selectOption('connected');
    },
  );
}
