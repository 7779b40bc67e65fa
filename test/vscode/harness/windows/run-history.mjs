// The Run Tool panel's history is the workspace's: a run made before a window reload is listed, with
// its arguments and result, in the panel opened after it.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  approvePermissions,
  findWebviewFrame,
  openWorkbench,
  palette,
  reloadWindow,
  serverRow,
  startWorkspaceServers,
} from '../uiKit.mjs';

export const title = 'Run Tool history across a window reload';

// The example server alone: the other servers of the example workspace play no part here.
export const window = {
  prepare(workspace) {
    const file = join(workspace, 'mgp.toml');
    const text = readFileSync(file, 'utf8');
    const second = text.indexOf('[[servers]]', text.indexOf('[[servers]]') + 1);
    writeFileSync(file, second > 0 ? text.slice(0, second) : text);
  },
};

const historyOf = (frame, n) => frame.locator('#history-heading', { hasText: `History (${n})` });

async function openAdd(page) {
  await palette(page, 'MGP: Run Tool', 'example.add');
  const frame = await findWebviewFrame(page, 'Run example · add');
  await frame.locator('main[data-tool="example.add"][data-state="ready"]').waitFor();
  return frame;
}

export async function run(kit) {
  const { page, server, workspace, step, shot } = kit;

  await step('example.add runs in the Run Tool panel and is kept in its history', async () => {
    await openWorkbench(page, server, workspace);
    await startWorkspaceServers(page, ['example']);
    await approvePermissions(page, 'example');
    await serverRow(page, 'example', 'connected');
    const frame = await openAdd(page);
    await frame.locator('[data-pointer="/a"] input').fill('2');
    await frame.locator('[data-pointer="/b"] input').fill('5');
    await frame.locator('[data-pointer="/b"] input').press('Control+Enter');
    await frame.locator('.outcome .result .result-text', { hasText: /^7$/ }).waitFor();
    await historyOf(frame, 1).waitFor();
  });

  await step('after a window reload, the panel lists that run with its arguments', async () => {
    await reloadWindow(page);
    await page.locator('.monaco-workbench').waitFor();
    await serverRow(page, 'example', 'connected');
    const frame = await openAdd(page);
    await historyOf(frame, 1).waitFor();
    assert.equal(await frame.locator('.outcome .result').count(), 0, 'a new panel, no run yet');
    await frame.locator('.history-list li').first().locator('button.history-entry').click();
    const detail = frame.locator('.history-detail');
    assert.deepEqual(JSON.parse(await detail.locator('.history-args').textContent()), {
      a: 2,
      b: 5,
    });
    assert.equal(await detail.locator('.result-text').textContent(), '7');
    await shot('run-tool-history-after-reload');
  });
}
