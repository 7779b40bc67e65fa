// Getting servers in, as VS Code's own MCP does it: a workspace with only VS Code's .vscode/mcp.json
// is offered the import in the Servers view's welcome; the import asks for the input the server
// refers to (kept in secret storage, never in the file) and says what it could not translate; then
// "Add Server…" adds an npm package server, which starts at once and lists its tools.
import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  expandTools,
  notification,
  openMgpToml,
  openWorkbench,
  palette,
  serverRow,
} from '../uiKit.mjs';

export const title = 'servers in: import .vscode/mcp.json, then Add Server';

const MCP_JSON = `{
  // VS Code's own MCP configuration.
  "inputs": [
    {
      "type": "promptString",
      "id": "everything-token",
      "description": "Token for the everything server",
      "password": true
    }
  ],
  "servers": {
    "everything": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-everything"],
      "env": { "EVERYTHING_TOKEN": "\${input:everything-token}" },
      "envFile": "\${workspaceFolder}/.env",
    },
  },
}
`;

const SECRET = 'tok-never-in-the-file';

export const window = {
  prepare(workspace) {
    rmSync(join(workspace, 'mgp.toml'));
    mkdirSync(join(workspace, '.vscode'), { recursive: true });
    writeFileSync(join(workspace, '.vscode/mcp.json'), MCP_JSON);
  },
};

/** The quick input's message line (an input box's prompt) once it says `text`. */
const inputMessage = (page, text) =>
  page.locator('.quick-input-widget .quick-input-message', { hasText: text });

export async function run(kit) {
  const { page, server, workspace, step, shot, setTheme, THEMES } = kit;
  const dark = THEMES.find((t) => t.file === 'dark');
  const light = THEMES.find((t) => t.file === 'light');
  const importButton = page.locator('.welcome-view-content .monaco-button', {
    hasText: 'Import Servers from .vscode/mcp.json',
  });

  await step('with only .vscode/mcp.json, the Servers view offers to import it', async () => {
    await openWorkbench(page, server, workspace);
    await page.locator('.activitybar [aria-label^="MGP"]').first().click();
    await importButton.waitFor();
    await page.locator('.welcome-view-content .monaco-button', { hasText: 'Add Server' }).waitFor();
    await shot('servers-in-welcome-dark');
    await setTheme(light);
    await importButton.waitFor();
    await shot('servers-in-welcome-light');
    await setTheme(dark);
  });

  await step('the import asks for the input in a password box and writes mgp.toml', async () => {
    await importButton.click();
    await inputMessage(page, 'Token for the everything server').waitFor();
    const input = page.locator('.quick-input-widget input');
    assert.equal(await input.getAttribute('type'), 'password');
    await shot('servers-in-import-input');
    await input.fill(SECRET);
    await page.keyboard.press('Enter');
    // A server from a workspace file asks before it starts, as every workspace server does.
    const dialog = page.locator('.monaco-dialog-box', {
      hasText: 'Start MCP server "everything" from this workspace?',
    });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Start', exact: true }).click();
    const toml = readFileSync(join(workspace, 'mgp.toml'), 'utf8');
    assert.match(toml, /# Imported from \.vscode\/mcp\.json/);
    assert.match(toml, /EVERYTHING_TOKEN = "\$\{secret:everything-token\}"/);
    assert.doesNotMatch(toml, new RegExp(SECRET));
  });

  await step(
    'the imported server runs, and the import says what it did not translate',
    async () => {
      await serverRow(page, 'everything', 'connected');
      await notification(page, 'Not translated: "everything": "envFile" is not read');
      await shot('servers-in-imported');
    },
  );

  await step('Add Server: an npm package, a name, and it starts without asking', async () => {
    await palette(page, 'Notifications: Clear All Notifications');
    const header = page.locator('.pane-header', { hasText: 'Servers' });
    await header.hover();
    await header.locator('.action-label[aria-label^="Add Server"]').click();
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'npm Package' }).click();
    await inputMessage(page, 'The npm package of the server').waitFor();
    const input = page.locator('.quick-input-widget input');
    await input.fill('@modelcontextprotocol/server-everything');
    await page.keyboard.press('Enter');
    await inputMessage(page, 'A name for the server').waitFor();
    // "everything" is taken: the name offered is the next free one.
    assert.equal(await input.inputValue(), 'everything-2');
    await shot('servers-in-add-name');
    await page.keyboard.press('Enter');
    const row = await serverRow(page, 'everything-2', 'connected');
    const toml = readFileSync(join(workspace, 'mgp.toml'), 'utf8');
    assert.match(
      toml,
      /\[\[servers\]\]\nid = "everything-2"\ncommand = "npx"\nargs = \["-y", "@modelcontextprotocol\/server-everything"\]/,
    );
    assert.match(toml, /^# MGP Kernel server configuration/, 'what was there is kept');
    await expandTools(row);
    await page.locator('.monaco-list-row[aria-label^="Tool echo,"]').first().waitFor();
    await shot('servers-in-added-dark');
    await setTheme(light);
    await shot('servers-in-added-light');
  });

  await step("mgp.toml shows each server's state, tools and actions as code lenses", async () => {
    // npx runs the registry's latest server-everything: its tool count is the Servers view's.
    const listed = await (await serverRow(page, 'everything', 'connected')).innerText();
    const tools = /(\d+) tools/.exec(listed)?.[1];
    assert.ok(tools, `a tool count in the row: ${listed}`);
    await openMgpToml(page);
    const lenses = page.locator('.codelens-decoration');
    await lenses
      .nth(1)
      .filter({ hasText: `connected · ${tools} tools` })
      .waitFor();
    const first = lenses.first();
    assert.match(
      await first.innerText(),
      new RegExp(`connected · ${tools} tools\\s*\\|\\s*Stop\\s*\\|\\s*Restart`),
    );
    await shot('servers-in-codelens-light');
    await first.locator('a', { hasText: 'Stop' }).click();
    await serverRow(page, 'everything', 'disconnected');
    await first.filter({ hasText: /disconnected\s*\|\s*Start/ }).waitFor();
    await serverRow(page, 'everything-2', 'connected');
    await setTheme(dark);
    await shot('servers-in-codelens-dark');
  });
}
