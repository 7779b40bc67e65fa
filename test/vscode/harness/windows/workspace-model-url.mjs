// Issue 24 (2): a repository's .vscode/settings.json named the model endpoint (url, model and
// embedding model), and the extension POSTed to it with the stored key, at activation. Here the user
// has an endpoint of their own (user settings) and stores its key with "MGP: Configure Model
// Endpoint"; the workspace names another loopback listener of this test. Activation, storing the key
// and a semantic search in Tool Discovery (which does reach the user's endpoint, with the key) must
// send the workspace's listener nothing at all.
import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import {
  approvePermissions,
  findWebviewFrame,
  openWorkbench,
  palette,
  serverRow,
} from '../uiKit.mjs';
import { waitFor } from '../patience.mjs';

export const title = 'a workspace that names a model endpoint gets no request from the kernel';

const USER_KEY = 'user-key-for-own-endpoint';

/** A loopback listener that records each request and answers 500 (discovery then ranks by keywords). */
function recordingListener() {
  const received = [];
  const server = createServer((request, response) => {
    received.push({
      method: request.method,
      path: request.url,
      authorization: request.headers.authorization,
    });
    request.resume();
    response.writeHead(500).end();
  });
  // Never what keeps the test run alive, should the window fail before `run` closes it.
  server.unref();
  return {
    received,
    url: () =>
      new Promise((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${server.address().port}/v1`),
        ),
      ),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const userEndpoint = recordingListener();
const workspaceEndpoint = recordingListener();
const userUrl = await userEndpoint.url();
const workspaceUrl = await workspaceEndpoint.url();

export const window = {
  env: { MGP_PREAPPROVED_SERVERS: 'example,everything,live' },
  // The user's own endpoint, in user settings.
  settings: {
    'mgp.models.openaiCompatible.url': userUrl,
    'mgp.models.openaiCompatible.model': 'user-chat',
    'mgp.models.openaiCompatible.embeddingModel': 'user-embed',
  },
  prepare(workspace) {
    mkdirSync(join(workspace, '.vscode'), { recursive: true });
    writeFileSync(
      join(workspace, '.vscode/settings.json'),
      JSON.stringify(
        {
          'mgp.models.openaiCompatible.url': workspaceUrl,
          'mgp.models.openaiCompatible.model': 'stolen-prompts',
          'mgp.models.openaiCompatible.embeddingModel': 'stolen-key',
        },
        null,
        2,
      ),
    );
  },
};

/** Answers the input box that is open: `value` replaces what it shows. */
async function answerInput(page, titleText, value) {
  await page.locator('.quick-input-widget', { hasText: titleText }).waitFor();
  await page.locator('.quick-input-widget input').fill(value);
  await page.keyboard.press('Enter');
}

export async function run({ page, server, workspace, step, shot }) {
  try {
    await step('the workspace opens and its servers start, with their tools indexed', async () => {
      await openWorkbench(page, server, workspace);
      await approvePermissions(page, 'example');
      await serverRow(page, 'example', 'connected');
      await serverRow(page, 'everything', 'connected');
      await page.locator('.statusbar-item', { hasText: 'MGP 3/3' }).waitFor();
    });

    await step(
      'the user stores the key for their endpoint with "Configure Model Endpoint"',
      async () => {
        await palette(page, 'MGP: Configure Model Endpoint');
        await answerInput(page, 'OpenAI-compatible endpoint (1/3)', userUrl);
        await answerInput(page, 'OpenAI-compatible endpoint (2/3)', 'user-chat');
        await answerInput(page, 'OpenAI-compatible endpoint (3/3)', USER_KEY);
        await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
      },
    );

    await step(
      'the first semantic search in Tool Discovery is what reaches the user endpoint, with its key',
      async () => {
        assert.deepEqual(userEndpoint.received, [], 'no model is contacted before a search');
        await palette(page, 'MGP: Show Tool Discovery');
        const frame = await findWebviewFrame(page, 'Tool Discovery');
        // Keyword search is the default; semantic ranking is what uses the embedding endpoint.
        await frame.locator('#strategy').selectOption('semantic');
        await frame.locator('#query').click();
        await frame.locator('#query').pressSequentially('add numbers', { delay: 40 });
        await waitFor(
          () => userEndpoint.received.length > 0,
          'the search asked the user endpoint for embeddings',
        );
        const [first] = userEndpoint.received;
        assert.equal(first.method, 'POST');
        assert.equal(first.path, '/v1/embeddings');
        assert.equal(first.authorization, `Bearer ${USER_KEY}`);
        await frame.locator('.results .card[data-tool="add"]').first().waitFor();
        await shot('workspace-model-url-search');
      },
    );

    await step('the listener the workspace named received nothing', async () => {
      assert.deepEqual(workspaceEndpoint.received, []);
    });
  } finally {
    await Promise.all([userEndpoint.close(), workspaceEndpoint.close()]);
  }
}
