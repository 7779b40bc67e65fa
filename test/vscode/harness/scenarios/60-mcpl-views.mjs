// MCPL in the editor, on the example workspace's `live` server (examples/servers/mcpl-example-server):
// its feature sets in the Servers view, switched off and on with their boxes, which the server hears
// (its own log says which sets the host enabled); a push event in the Events view with its feature
// set and whether it was accepted, opened with a click; checkpoints of its notebook in the
// Checkpoints view, one rolled back after a confirmation, and the server answering from it.
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { switchTheme } from './10-run-tool.mjs';
import { runResult, runTool } from './20-approvals.mjs';
import { waitFor } from '../patience.mjs';
import { expand, serverRow } from '../uiKit.mjs';

export const title = 'MCPL: feature sets, push events, checkpoints';

function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** The lines of the `live` server's log (its stderr among them), as VS Code writes it to disk. */
function serverLog(dirs) {
  return (
    filesUnder(join(dirs.userData, 'logs'))
      // The channel "MGP: live" is written as "MGP live.log" (no colon in file names).
      .filter((file) => /MGP:? live\.log$/.test(file))
      .flatMap((file) => readFileSync(file, 'utf8').split('\n'))
  );
}

/** What the server last said the host enabled (it logs each featureSets/update it gets). */
function enabledByHost(dirs) {
  const said = serverLog(dirs).filter((line) => line.includes('feature sets enabled by the host:'));
  return said.length ? said[said.length - 1].split('enabled by the host:')[1].trim() : undefined;
}

const featureSetRow = (page, name, state) =>
  page.locator(`.monaco-list-row[aria-label^="Feature set ${name}, ${state}"]`);

const paneHeader = (page, name) =>
  page.locator('.pane-header', { hasText: new RegExp(`^${name}`) }).first();

/** Expands a pane of the MGP container; `others` are collapsed to leave it the room. */
async function expandPane(page, name, others = []) {
  for (const other of others) {
    const header = paneHeader(page, other);
    if ((await header.count()) && (await header.getAttribute('aria-expanded')) === 'true')
      await header.click();
  }
  const header = paneHeader(page, name);
  await expand(header);
  return header;
}

async function showFeatureSets(page) {
  const header = await expandPane(page, 'Servers', ['Events', 'Channels', 'Checkpoints']);
  await header.hover();
  await header.locator('.action-label[aria-label^="Collapse All"]').click();
  await expand(await serverRow(page, 'live', 'connected'));
  await expand(page.locator('.monaco-list-row', { hasText: /^Feature Sets/ }).first());
}

async function toggle(page, name, from, to) {
  const row = featureSetRow(page, name, from);
  await row.locator('.custom-view-tree-node-item-checkbox').click();
  await featureSetRow(page, name, to).waitFor();
}

export async function run(kit) {
  const { page, dirs, step, shot, THEMES } = kit;
  const themes = THEMES;

  await step(
    "the Servers view lists live's feature sets with their uses, each on from the config",
    async () => {
      await showFeatureSets(page);
      for (const name of ['memory.facts', 'memory.context', 'alerts.push', 'chat.room'])
        await featureSetRow(page, name, 'on, from config').waitFor();
      const row = featureSetRow(page, 'alerts.push', 'on');
      assert.match(await row.textContent(), /on · from config · pushEvents, tools/);
      assert.equal(
        await row.locator('.custom-view-tree-node-item-checkbox').getAttribute('aria-checked'),
        'true',
      );
      await waitFor(
        () => enabledByHost(dirs)?.includes('alerts.push'),
        'the server says the host enabled alerts.push',
      );
    },
  );

  await step(
    'unticking alerts.push switches it off: the server hears featureSets/update without it',
    async () => {
      await toggle(page, 'alerts.push', 'on, from config', 'off, your switch');
      await waitFor(
        () => enabledByHost(dirs) !== undefined && !enabledByHost(dirs).includes('alerts.push'),
        'the server says alerts.push is no longer enabled',
      );
      assert.match(enabledByHost(dirs), /memory\.facts/);
      await page.locator('.monaco-list-row', { hasText: /^Feature Sets5 of 6 on/ }).waitFor();
      for (const theme of themes) {
        await switchTheme(kit, theme);
        await featureSetRow(page, 'alerts.push', 'off').hover();
        await shot(`mcpl-feature-sets-${theme.file}`);
      }
    },
  );

  await step(
    'ticking it again switches it back on, and "Use Config Setting" hands it back to mgp.toml',
    async () => {
      await toggle(page, 'alerts.push', 'off, your switch', 'on, your switch');
      await waitFor(
        () => enabledByHost(dirs)?.includes('alerts.push'),
        'the server says alerts.push is enabled again',
      );
      const row = featureSetRow(page, 'alerts.push', 'on, your switch');
      await row.hover();
      await row.locator('.action-label[aria-label="Use Config Setting"]').click();
      await featureSetRow(page, 'alerts.push', 'on, from config').waitFor();
    },
  );

  await step(
    'a push event shows in the Events view with its server, feature set and "accepted"; a click opens it',
    async () => {
      const run = await runTool(kit, 'live.raise_alert', { text: 'disk almost full' });
      await runResult(kit, run, '"accepted":true');
      // The Events view is collapsed: the MGP icon counts what it has not shown yet.
      const badge = page.locator('.activitybar [aria-label^="MGP"] .badge-content').first();
      await badge.filter({ hasText: /^[1-9]\d*$/ }).waitFor();
      await shot('events-badge');
      await expandPane(page, 'Events', ['Channels', 'Checkpoints']);
      await badge.waitFor({ state: 'hidden' });
      const row = page.locator(
        '.monaco-list-row[aria-label="Push event alerts.push from live, accepted, queued"]',
      );
      await row.waitFor();
      assert.match(await row.textContent(), /alerts\.pushlive · accepted, queued · /);
      await row.click();
      const tab = page.locator('.tab', { hasText: /live alerts\.push evt_/ });
      await tab.waitFor();
      const editor = page.locator('.editor-instance .view-lines').first();
      await editor.filter({ hasText: 'disk almost full' }).waitFor();
      assert.match(await editor.innerText(), /"accepted":\s+true/); // monaco draws spaces as U+00A0
      for (const theme of themes) {
        await switchTheme(kit, theme);
        await row.hover();
        await shot(`mcpl-push-event-${theme.file}`);
      }
    },
  );

  await step(
    'each remembered fact is a checkpoint; rolling back asks first, and the server answers from there',
    async () => {
      // The server numbers its checkpoints; earlier steps may have made some: read the ids it gives.
      const ids = [];
      for (const fact of ['a', 'b']) {
        const run = await runTool(kit, 'live.remember', { fact });
        await runResult(kit, run, `Remembered "${fact}"`);
        const said = await (
          await kit.webviewFrame(run)
        )
          .locator('.outcome .result[data-state="ok"]', { hasText: `Remembered "${fact}"` })
          .innerText();
        ids.push(/\((chk_\d+)\)/.exec(said)?.[1]);
      }
      const [before, latest] = ids;
      assert.ok(before && latest, `checkpoint ids in the results: ${ids}`);
      await expandPane(page, 'Checkpoints', ['Events', 'Channels']);
      const checkpoint = (id, current = '') =>
        page.locator(
          `.monaco-list-row[aria-label="Checkpoint ${id} of live memory.facts${current}"]`,
        );
      await checkpoint(latest, ', current').waitFor();
      const first = checkpoint(before);
      await first.waitFor();
      assert.match(await first.textContent(), new RegExp(`^${before}remember · `));
      await first.hover();
      await first.locator('.action-label[aria-label="Roll Back to This Checkpoint"]').click();
      const dialog = page.locator('.monaco-dialog-box', {
        hasText: `Roll live · memory.facts back to checkpoint ${before}?`,
      });
      await dialog.waitFor();
      await shot('mcpl-rollback-confirm');
      await dialog.getByRole('button', { name: 'Roll Back', exact: true }).click();
      await checkpoint(before, ', current').waitFor();
      await checkpoint(latest).waitFor();
      await waitFor(
        () => serverLog(dirs).some((line) => line.includes(`rolled back to ${before}`)),
        'the server logs its rollback',
      );
      const recall = await runTool(kit, 'live.recall', {});
      await runResult(kit, recall, '- a');
      const frame = await kit.webviewFrame(recall);
      assert.doesNotMatch(await frame.locator('.outcome .result').innerText(), /- b/);
      await expandPane(page, 'Checkpoints', ['Events', 'Channels']);
      for (const theme of themes) {
        await switchTheme(kit, theme);
        await checkpoint(before, ', current').hover();
        await shot(`mcpl-checkpoints-${theme.file}`);
      }
    },
  );
}
