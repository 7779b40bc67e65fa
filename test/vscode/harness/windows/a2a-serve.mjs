// The editor's kernel as an A2A agent: the user's own config says `[a2a] enabled = true` with a
// port and a peer; the official SDK's client (`@a2a-js/sdk`), holding that peer's token, reads the
// card and sends a task, which the editor's agent loop answers on the model of the user's settings
// (a scripted model on loopback). MGP: Show A2A Agent says where it serves.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Role, TaskState } from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { waitFor } from '../patience.mjs';
import { notification, openWorkbench, palette } from '../uiKit.mjs';

export const title = 'the editor serves A2A when your own config enables it';

const require = createRequire(import.meta.url);
const { startScriptedModel } = require('../../../fixtures/models/scriptedModel.js');

const TOKEN = 'editor-a2a-peer-token-0123456789';

function freePort() {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const model = await startScriptedModel({
  rules: [{ match: '.', reply: 'Hello from the agent in the editor.' }],
});
const port = await freePort();

export const window = {
  settings: {
    'mgp.models.openaiCompatible.url': model.url,
    'mgp.models.openaiCompatible.model': 'scripted',
  },
  async prepare(workspace) {
    const own = join(workspace, '..', 'user-a2a.toml');
    writeFileSync(
      own,
      `[a2a]\nenabled = true\nlisten_port = ${port}\n\n[[a2a.peers]]\nname = "tester"\ntoken = "\${A2A_TESTER_TOKEN}"\n`,
    );
    window.env = { MGP_CONFIG_PATH: own, A2A_TESTER_TOKEN: TOKEN };
    // No workspace servers: nothing to start, nothing to ask.
    writeFileSync(join(workspace, 'mgp.toml'), '# no servers\n');
  },
};

export async function run({ page, server, workspace, step, shot }) {
  const base = `http://127.0.0.1:${port}`;
  try {
    await step('the card is served on the port of your config', async () => {
      await openWorkbench(page, server, workspace);
      await waitFor(
        async () => (await fetch(`${base}/.well-known/agent-card.json`).catch(() => undefined))?.ok,
        'the agent card is served',
      );
      assert.equal((await fetch(`${base}/a2a`, { method: 'POST', body: '{}' })).status, 401);
    });

    await step(
      "the SDK's client sends a task with the peer's token; the editor's agent answers",
      async () => {
        const authorized = (input, init = {}) => {
          const headers = new Headers(init.headers);
          headers.set('Authorization', `Bearer ${TOKEN}`);
          return fetch(input, { ...init, headers });
        };
        const factory = new ClientFactory({
          transports: [new JsonRpcTransportFactory({ fetchImpl: authorized })],
          cardResolver: new DefaultAgentCardResolver({ fetchImpl: authorized }),
        });
        const client = await factory.createFromUrl(base);
        const sent = await client.sendMessage({
          message: {
            messageId: 'm-1',
            role: Role.ROLE_USER,
            parts: [{ content: { $case: 'text', value: 'Say hello' } }],
          },
          configuration: { blocking: true },
        });
        assert.equal(sent.status?.state, TaskState.TASK_STATE_COMPLETED, JSON.stringify(sent));
        const said = (sent.status?.message?.parts ?? []).map((p) => p.content?.value).join('');
        assert.equal(said, 'Hello from the agent in the editor.');
      },
    );

    await step('MGP: Show A2A Agent says where it serves', async () => {
      await palette(page, 'MGP: Show A2A Agent');
      const row = await notification(page, `MGP Kernel serves A2A at ${base}/a2a`);
      assert.match(await row.textContent(), /scripted/);
      await shot('a2a-serve-notification');
    });
  } finally {
    await model.close();
  }
}
