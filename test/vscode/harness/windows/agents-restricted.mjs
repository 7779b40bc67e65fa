// Restricted Mode contacts no A2A agent: neither one the workspace's mgp.toml declares nor one of the
// user's own config. Both wait in the Agents view, saying why, and neither agent (each a real agent
// on the official SDK, on loopback) receives a single request.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expand, openWorkbench } from '../uiKit.mjs';

export const title = 'Restricted Mode contacts no agent';

const require = createRequire(import.meta.url);
const { startSdkAgent } = require('../../../fixtures/a2a/sdkAgent.js');

const agents = {};
const table = (name, url) => `[[a2a.external_agents]]\nname = "${name}"\nurl = "${url}"\n`;

export const window = {
  trust: false,
  async prepare(workspace) {
    agents.theirs = await startSdkAgent({ protocol: '1.0', behaviour: 'echo' });
    agents.mine = await startSdkAgent({ protocol: '1.0', behaviour: 'echo' });
    writeFileSync(join(workspace, 'mgp.toml'), table('theirs', agents.theirs.url));
    const own = join(workspace, '..', 'user-agents.toml');
    writeFileSync(own, table('mine', agents.mine.url));
    window.env = { MGP_CONFIG_PATH: own };
  },
};

export async function run({ page, server, workspace, step, shot }) {
  try {
    await step(
      'both agents wait in the Agents view, and neither hears from the kernel',
      async () => {
        await openWorkbench(page, server, workspace);
        await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).waitFor();
        const container = page.locator('.activitybar [aria-label^="MGP"]').first();
        const open = page.locator('.sidebar .title-label h2', { hasText: /^MGP$/ });
        if (!(await open.isVisible())) await container.click();
        const pane = page.locator('.sidebar .pane', {
          has: page.locator('.pane-header', { hasText: /^Agents/ }),
        });
        await expand(pane.locator('.pane-header'));
        for (const name of ['theirs', 'mine'])
          await pane
            .locator('.monaco-list-row', { hasText: name })
            .filter({ hasText: 'Restricted Mode: not contacted' })
            .waitFor();
        await shot('agents-restricted-mode');
        assert.deepEqual(agents.theirs.headers, [], 'the workspace agent heard nothing');
        assert.deepEqual(agents.mine.headers, [], "the user's agent heard nothing");
      },
    );
  } finally {
    await Promise.all(Object.values(agents).map((agent) => agent.close()));
  }
}
