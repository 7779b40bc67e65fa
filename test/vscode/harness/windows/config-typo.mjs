// Issue: saving mgp.toml with one TOML syntax error stopped every running server (and the status bar
// item went with them). A file that does not parse keeps its last valid servers running and shows its
// error; a table invalid for one server keeps that server on its last valid settings and touches no
// other. Edited as a person does: in the editor, saved with Ctrl+S; the audit log tells whether any
// server stopped or started again.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  approvePermissions,
  goToLine,
  openMgpToml,
  openWorkbench,
  serverRow,
  startWorkspaceServers,
} from '../uiKit.mjs';
import { auditRecords } from '../auditLog.mjs';
import { waitFor } from '../patience.mjs';

export const title = 'a typo in mgp.toml never stops a running server';
export const window = {};

/** SERVER_CONNECTED / SERVER_DISCONNECTED records in the kernel's audit log, oldest first. */
function serverEvents(dirs) {
  return auditRecords(dirs)
    .filter((record) => record.event_type?.startsWith('SERVER_'))
    .map((record) => `${record.event_type} ${record.target.server_id}`);
}

/** Puts the cursor at the end of a line of mgp.toml, in the editor, once it has the focus. */
async function toLineEnd(page, line) {
  await page.locator('.tab', { hasText: 'mgp.toml' }).click();
  await goToLine(page, line);
  await page.locator('.editor-instance .monaco-editor.focused').waitFor();
  await page.keyboard.press('End');
}

/**
 * Saves with Ctrl+S and waits for the line on disk. The web workbench saves by itself after a
 * second and shows no unsaved mark for it, so the tab cannot tell whether a key reached the editor.
 */
async function save(page, file, line, text) {
  await page.keyboard.press('Control+S');
  await waitFor(
    () => readFileSync(file, 'utf8').split('\n')[line - 1] === text,
    `line ${line} of mgp.toml reads ${text}`,
  );
}

const problemRow = (page, text) =>
  page
    .locator('.monaco-list-row', { hasText: text })
    .filter({ has: page.locator('.codicon-error') });

export async function run(kit) {
  const { page, server, workspace, dirs, step, shot } = kit;
  const file = join(workspace, 'mgp.toml');
  const [args, transport] = readFileSync(file, 'utf8').split('\n').slice(6, 8);
  assert.match(args, /^args = \[.*\]$/, 'line 7 of the example mgp.toml is the args of example');
  assert.equal(transport, 'transport = "stdio"', 'line 8 is its transport');
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
      await toLineEnd(page, 7);
      await page.keyboard.press('Backspace');
      await save(page, file, 7, args.slice(0, -1));
      await problemRow(page, 'TOML syntax error').waitFor();
      await unchanged();
      await shot('config-typo-syntax-error');
    },
  );

  await step('fixing the typo restarts nothing', async () => {
    await toLineEnd(page, 7);
    await page.keyboard.type(']');
    await save(page, file, 7, args);
    await problemRow(page, 'TOML syntax error').waitFor({ state: 'detached' });
    await unchanged();
  });

  await step(
    'a key misspelt in one server table keeps that server on its last valid settings, the other untouched',
    async () => {
      await toLineEnd(page, 8);
      await page.keyboard.press('Shift+Home');
      await page.keyboard.type('transprt = "stdio"');
      await save(page, file, 8, 'transprt = "stdio"');
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
    await toLineEnd(page, 8);
    await page.keyboard.press('Shift+Home');
    await page.keyboard.type(transport);
    await save(page, file, 8, transport);
    await problemRow(page, 'transprt').waitFor({ state: 'detached' });
    await unchanged();
    assert.doesNotMatch(
      await (await serverRow(page, 'example', 'connected')).textContent(),
      /config has errors/,
    );
  });
}
