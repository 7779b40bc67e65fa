// A server that takes long to start because it is working (a first `npx -y` downloading its
// package, writing progress to stderr) is shown as still starting, with what it shows and how long
// it may take, instead of a bare spinner; it then connects. Screenshots in dark and light.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hoverUntil, openWorkbench, serverRow } from '../uiKit.mjs';
import { repo } from '../paths.mjs';

export const title = 'a server still starting says so in the Servers view';

const server = (id, args, extra = '') =>
  `[[servers]]\nid = "${id}"\ncommand = ${JSON.stringify(process.execPath)}\n` +
  `args = [${args.map((a) => JSON.stringify(a)).join(', ')}]\n${extra}` +
  `[servers.sandbox]\nmode = "off"\n`;

export const window = {
  prepare(workspace) {
    writeFileSync(
      join(workspace, 'mgp.toml'),
      '# The servers of this window are the user’s own.\n',
    );
    const own = join(workspace, '..', 'user-servers.toml');
    const fixture = (name) => join(repo, 'test/fixtures/servers', name);
    writeFileSync(
      own,
      server('quick', [fixture('params-echo.js')]) +
        server(
          'downloading',
          // Long enough for the pictures in three themes before it connects, on a loaded machine.
          [fixture('downloading.js'), '--busy-ms', '45000'],
          'connect_timeout_secs = 5\n',
        ),
    );
    window.env = { MGP_CONFIG_PATH: own };
  },
};

export async function run({ page, server: codeServer, workspace, step, shot, setTheme, THEMES }) {
  await step('the slow server is shown still starting, with what it is doing', async () => {
    await openWorkbench(page, codeServer, workspace);
    await serverRow(page, 'quick', 'connected');
    const row = await serverRow(page, 'downloading', 'still starting');
    assert.match(await row.textContent(), /still starting · \d+ s/);
    const hover = page.locator('.monaco-hover', { hasText: 'Still starting after' });
    await hoverUntil(page, row, hover);
    assert.match(
      await hover.textContent(),
      /Still starting after \d+ s, writing to stderr \(a first download\?\); it may take up to 50 s/,
    );
    for (const theme of THEMES) {
      await setTheme(theme);
      await hoverUntil(page, row, hover);
      await shot(`server-starting-${theme.file}`);
    }
  });

  await step('once it has downloaded, it connects', async () => {
    await page.mouse.move(0, 0);
    await serverRow(page, 'downloading', 'connected');
  });
}
