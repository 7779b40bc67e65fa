// Issue: saving mgp.toml with one TOML syntax error stopped every running server (and the status bar
// item went with them). A file that does not parse keeps its last valid servers running and shows its
// error; a table invalid for one server keeps that server on its last valid settings and touches no
// other. Edited as a person does: in the editor, saved with Ctrl+S; the audit log tells whether any
// server stopped or started again.
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  approvePermissions,
  goToLine,
  openMgpToml,
  openWorkbench,
  serverRow,
  startWorkspaceServers,
} from '../uiKit.mjs';
import { waitFor } from '../patience.mjs';

export const title = 'a typo in mgp.toml never stops a running server';
export const window = {};

/** SERVER_CONNECTED / SERVER_DISCONNECTED records in the kernel's audit log, oldest first. */
function serverEvents(dirs) {
  const state = join(dirs.xdg, 'state/mgp');
  if (!existsSync(state)) return [];
  return readdirSync(state).flatMap((key) => {
    const audit = join(state, key, 'audit');
    if (!existsSync(audit)) return [];
    return readdirSync(audit)
      .filter((name) => name.endsWith('.jsonl'))
      .sort()
      .flatMap((name) => readFileSync(join(audit, name), 'utf8').split('\n'))
      .filter((line) => line.includes('"SERVER_'))
      .map((line) => JSON.parse(line))
      .map((record) => `${record.event_type} ${record.target.server_id}`);
  });
}

async function save(page) {
  await page.keyboard.press('Control+S');
  await page.locator('.tab.dirty', { hasText: 'mgp.toml' }).waitFor({ state: 'detached' });
}

const problemRow = (page, text) =>
  page
    .locator('.monaco-list-row', { hasText: text })
    .filter({ has: page.locator('.codicon-error') });

export async function run(kit) {
  const { page, server, workspace, dirs, step, shot } = kit;
  const settled = [
    'SERVER_CONNECTED everything',
    'SERVER_CONNECTED example',
    'SERVER_CONNECTED live',
  ];
  const unchanged = async () => {
    await serverRow(page, 'example', 'connected');
    await serverRow(page, 'everything', 'connected');
    await page.locator('.statusbar-item', { hasText: 'MGP 3/3' }).waitFor();
    assert.deepEqual(serverEvents(dirs).sort(), settled, 'no server stopped or started again');
  };

  await step('the example workspace runs its three servers', async () => {
    await openWorkbench(page, server, workspace);
    await startWorkspaceServers(page, ['example', 'everything', 'live']);
    await approvePermissions(page, 'example');
    await serverRow(page, 'example', 'connected');
    await serverRow(page, 'everything', 'connected');
    await waitFor(() => serverEvents(dirs).length === 3, 'every connection is in the audit log');
    assert.deepEqual(serverEvents(dirs).sort(), settled);
  });

  await step(
    'saving mgp.toml with a TOML syntax error shows the error and stops nothing',
    async () => {
      await openMgpToml(page);
      await goToLine(page, 7); // args = ["../servers/dist/mgp-example-server.js"]
      await page.keyboard.press('End');
      await page.keyboard.press('Backspace');
      await save(page);
      await problemRow(page, 'TOML syntax error').waitFor();
      await unchanged();
      await shot('config-typo-syntax-error');
    },
  );

  await step('fixing the typo restarts nothing', async () => {
    await page.locator('.tab', { hasText: 'mgp.toml' }).click();
    await page.keyboard.type(']');
    await save(page);
    await problemRow(page, 'TOML syntax error').waitFor({ state: 'detached' });
    await unchanged();
  });

  await step(
    'a key misspelt in one server table keeps that server on its last valid settings, the other untouched',
    async () => {
      await page.locator('.tab', { hasText: 'mgp.toml' }).click();
      await goToLine(page, 8); // transport = "stdio"
      await page.keyboard.press('Home');
      await page.keyboard.press('Shift+End');
      await page.keyboard.type('transprt = "stdio"');
      await save(page);
      await problemRow(page, 'transprt').waitFor();
      await unchanged();
      const example = await serverRow(page, 'example', 'connected');
      assert.match(await example.textContent(), /config has errors/);
      const everything = await serverRow(page, 'everything', 'connected');
      assert.doesNotMatch(await everything.textContent(), /config has errors/);
      await shot('config-typo-server-key');
    },
  );

  await step('correcting the key leaves the servers as they were', async () => {
    await page.locator('.tab', { hasText: 'mgp.toml' }).click();
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    await page.keyboard.type('transport = "stdio"');
    await save(page);
    await problemRow(page, 'transprt').waitFor({ state: 'detached' });
    await unchanged();
    assert.doesNotMatch(
      await (await serverRow(page, 'example', 'connected')).textContent(),
      /config has errors/,
    );
  });
}
