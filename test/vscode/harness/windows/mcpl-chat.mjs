// MCPL in the editor, on the example MCPL server and a scripted model driving @mgp: the server asks
// for a scope (scope/elevate) and the editor asks the user in a dialog that shows the payload as the
// server's; the server's context hook injects what it remembers and the @mgp conversation says so;
// the Channels view opens the server's chat room, a post goes into it, and what someone says in the
// room appears live, and @mgp attached to the room answers there. Audited decisions are read from the kernel's log. Dark and light themes.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { writeSettings } from '../codeServer.mjs';
import { waitFor } from '../patience.mjs';
import {
  findWebviewFrame,
  openWorkbench,
  pickInQuickInput,
  serverRow,
  startWorkspaceServers,
} from '../uiKit.mjs';
import {
  ask,
  auditRecords,
  chatView,
  lastResponse,
  openCompletedSteps,
  responseDone,
  switchWorkbenchTheme,
} from '../chat.mjs';

import { CHANNEL_REPLY, PLANS, scriptedTurn, SUMMARY } from '../mcplChatModel.mjs';

const require = createRequire(import.meta.url);
const { startScriptedModel } = require('../../../fixtures/models/scriptedModel.js');

export const title = 'MCPL in the editor: elevation, context hooks in @mgp, channels';
export const window = {
  settings: { 'chat.disableAIFeatures': false },
  prepare(workspace) {
    writeFileSync(
      join(workspace, 'mgp.toml'),
      `[[servers]]
id = "mcpl"
command = "node"
args = ["../servers/dist/mcpl-example-server.js"]
transport = "stdio"
approved_tools = ["remember", "request_access", "room_say", "summarize_notebook"]

[servers.mcpl]
enabled_feature_sets = ["memory.*", "files.annotate", "chat.room", "assist.summarize"]
inference = "ask"

# A second copy, for a second inference question: the answer to one holds for the session.
[[servers]]
id = "notes"
command = "node"
args = ["../servers/dist/mcpl-example-server.js"]
transport = "stdio"
approved_tools = ["summarize_notebook"]

[servers.mcpl]
enabled_feature_sets = ["assist.summarize"]
inference = "ask"
`,
    );
  },
};

const dialog = (page, text) => page.locator('.monaco-dialog-box', { hasText: text });

const mcplRecords = (dirs, operation) =>
  auditRecords(dirs).filter((r) => r.event_type === `dev.mgp-kernel.mcpl.${operation}`);

export async function run(kit) {
  const { page, server, workspace, dirs, step, shot, THEMES } = kit;
  const dark = THEMES.find((t) => t.file === 'dark');
  const highContrast = THEMES.find((t) => t.file === 'high-contrast');
  const seen = { systemPrompts: [], results: [], inferences: [], answersInHistory: new Set() };
  const model = await startScriptedModel({
    turns: Array.from({ length: 200 }, () => scriptedTurn(seen)),
  });
  let channel;
  try {
    writeSettings(dirs, {
      ...window.settings,
      'mgp.models.openaiCompatible.url': model.url,
      'mgp.models.openaiCompatible.model': 'scripted',
    });

    await step('the example MCPL server runs and the chat has the endpoint model', async () => {
      await openWorkbench(page, server, workspace);
      await startWorkspaceServers(page, ['mcpl', 'notes']);
      await serverRow(page, 'mcpl', 'connected');
      await serverRow(page, 'notes', 'connected');
      await page.keyboard.press('Control+Alt+I');
      await chatView(page).waitFor();
      await page
        .locator('.interactive-input-part', { hasText: 'scripted (MGP endpoint)' })
        .waitFor();
    });

    await step(
      'scope/elevate asks in a dialog: server, feature set, the payload marked as the server’s; Allow approves and is audited',
      async () => {
        await ask(page, `@mgp ${PLANS[0].task}`);
        const asked = dialog(page, 'Allow "mcpl" access to src/notes.md?');
        await asked.waitFor();
        const text = (await asked.textContent()).replace(/\s+/g, ' ');
        for (const expected of [
          'Server: mcpl',
          'Feature set: files.annotate',
          '── From the server (untrusted) ──',
          'Scope: src/notes.md',
          '"reason": "to annotate\\u202e it"',
          'The answer holds for this session.',
        ])
          assert.ok(text.includes(expected), `the dialog shows ${expected}: ${text}`);
        assert.ok(!text.includes('\u202e'), 'the bidi override is shown escaped');
        await shot('mcpl-elevation-dark');
        await asked.getByRole('button', { name: 'Allow', exact: true }).click();
        await responseDone(page, PLANS[0].answer);
        assert.match(seen.results.at(-1), /"approved":\s*true/);
        await waitFor(
          () => mcplRecords(dirs, 'scope').some((r) => r.result === 'APPROVED'),
          'the approval in the audit log',
        );
        const [approved] = mcplRecords(dirs, 'scope');
        assert.deepEqual(approved.actor, { type: 'operator', id: 'user' });
        assert.equal(approved.details.decided_by, 'user');
        assert.equal(approved.details.label, 'src/notes.md');
      },
    );

    await step(
      "a context hook's injection shows in the @mgp conversation as that server's, and reaches the model",
      async () => {
        await ask(page, `@mgp ${PLANS[1].task}`);
        await responseDone(page, PLANS[1].answer);
        await ask(page, `@mgp ${PLANS[2].task}`);
        await responseDone(page, PLANS[2].answer);
        // The chat folds a finished turn's progress lines into "Completed N steps".
        await openCompletedSteps(
          page,
          lastResponse(page)
            .getByText(
              /context from mcpl \(memory\.context\) into the system prompt: \d+ characters/,
            )
            .first(),
        );
        assert.match(seen.systemPrompts.at(-1), /<memories>\n- the build uses pnpm\n<\/memories>/);
        await shot('mcpl-hook-in-chat-dark');
        await waitFor(
          () => mcplRecords(dirs, 'context_hook').some((r) => r.result === 'SUCCESS'),
          'the hook in the audit log',
        );
      },
    );

    await step(
      "inference/request under ask: the dialog shows the model and what is sent; Allow gives the server the model's answer",
      async () => {
        await ask(page, `@mgp ${PLANS[3].task}`);
        const asked = dialog(page, 'Allow "mcpl" to use your model');
        await asked.waitFor();
        const text = (await asked.textContent()).replace(/\s+/g, ' ');
        for (const expected of [
          'Server: mcpl',
          'Feature set: assist.summarize',
          'Model: scripted',
          'Up to 200 tokens',
          '── Sent to the model, written by the server (untrusted) ──',
          '[user]',
          'Summarize these facts in one sentence:',
          '- the build uses pnpm',
          'The answer holds for this session',
        ])
          assert.ok(text.includes(expected), `the dialog shows ${expected}: ${text}`);
        assert.equal(seen.inferences.length, 0, 'nothing reached the model before the answer');
        await shot('mcpl-inference-dark');
        await asked.getByRole('button', { name: 'Allow', exact: true }).click();
        await responseDone(page, PLANS[3].answer);
        // The hook ran before each of the turn's inferences; its injection is shown once.
        const injected = lastResponse(page).getByText(/context from mcpl \(memory\.context\)/);
        await openCompletedSteps(page, injected.first());
        assert.equal(await injected.count(), 1, 'the same injection is shown once in a turn');
        assert.equal(seen.inferences.length, 1);
        assert.match(seen.inferences[0], /- the build uses pnpm/);
        // The tool's result is what the server made of the answer it got.
        assert.match(seen.results.at(-1), new RegExp(SUMMARY.replace(/\./g, '\\.')));
        await waitFor(
          () => mcplRecords(dirs, 'inference').some((r) => r.result === 'SUCCESS'),
          'the inference in the audit log',
        );
        const [done] = mcplRecords(dirs, 'inference');
        assert.equal(done.target.server_id, 'mcpl');
        assert.equal(done.details.feature_set, 'assist.summarize');
        assert.match(done.details.inference_id, /^inf_/);
        assert.equal(done.details.model, 'scripted');
      },
    );

    await step(
      'Deny (in high contrast): the server gets a refusal, the model gets nothing, the audit says DENIED',
      async () => {
        await switchWorkbenchTheme(kit, highContrast);
        await ask(page, `@mgp ${PLANS[4].task}`);
        const asked = dialog(page, 'Allow "notes" to use your model');
        await asked.waitFor();
        await shot('mcpl-inference-high-contrast');
        assert.match(
          (await asked.textContent()).replace(/\s+/g, ' '),
          /Summarize these facts in one sentence:\s*\(none\)/,
        );
        await asked.getByRole('button', { name: 'Cancel' }).click();
        await responseDone(page, PLANS[4].answer);
        assert.equal(seen.inferences.length, 1, 'the model was not asked');
        // The line about the hook's injection is the kernel's, not the assistant's: not in the history.
        const history = [...seen.answersInHistory].join('\n');
        assert.match(history, /You build with pnpm\./);
        assert.doesNotMatch(history, /context from/);
        assert.match(seen.results.at(-1), /the user denied inference for assist\.summarize/);
        await waitFor(
          () =>
            mcplRecords(dirs, 'inference').some(
              (r) => r.result === 'DENIED' && r.target.server_id === 'notes',
            ),
          'the refusal in the audit log',
        );
        await switchWorkbenchTheme(kit, dark);
      },
    );

    await step(
      'the Channels view lists the room; its panel posts into it and shows what Ada says, live',
      async () => {
        await page.locator('.monaco-list-row[aria-label^="Channel room:general of mcpl"]').click();
        await page.locator('.tab', { hasText: 'room:general · mcpl' }).waitFor();
        channel = await findWebviewFrame(page, 'Channel room:general');
        await channel.locator('main[data-state="ready"]').waitFor();
        assert.match(
          await channel.locator('header').textContent(),
          /#general \(example chat room\)/,
        );
        await channel.locator('textarea.post-text').fill('Hello room, from the editor');
        await channel.getByRole('button', { name: 'Post' }).click();
        await channel
          .locator('.message.outgoing', { hasText: 'Hello room, from the editor' })
          .waitFor();
        assert.equal(await channel.locator('textarea.post-text').inputValue(), '');
        await waitFor(
          () =>
            mcplRecords(dirs, 'channel').some(
              (r) => r.result === 'PUBLISHED' && r.actor.type === 'operator',
            ),
          'the post in the audit log',
        );
        // @mgp answers in the room; a model picker shows only when VS Code has more than one model.
        await page.locator('.part.sidebar .title-label').click(); // the keys to the workbench, not the panel
        await kit.runFromPalette('MGP: Attach @mgp to Channel');
        // Both servers have a room:general: the one of mcpl, by the server beside its name.
        await page.locator('.quick-input-widget input').fill('room:general');
        await page
          .locator('.quick-input-list .monaco-list-row', { hasText: 'room:general' })
          .filter({ has: page.locator('.label-description', { hasText: /^mcpl$/ }) })
          .first()
          .click();
        const attached = page.locator(
          '.monaco-list-row[aria-label^="Channel room:general of mcpl"][aria-label*="@mgp attached"]',
        );
        await Promise.race([
          attached.waitFor(),
          page
            .locator('.quick-input-widget', { hasText: 'The model that answers' })
            .waitFor()
            .then(() => pickInQuickInput(page, 'scripted', 'scripted (MGP endpoint)'))
            // Only one model: no picker; the row says attached and this wait is left behind.
            .catch(() => undefined),
        ]);
        await attached.waitFor();
        // Someone in the room speaks: the server hands it over as channels/incoming.
        await ask(page, `@mgp ${PLANS[5].task}`);
        await responseDone(page, PLANS[5].answer);
        const incoming = channel.locator('.message.incoming', { hasText: 'Hello from Ada' });
        await incoming.waitFor();
        assert.match(await incoming.locator('.author').textContent(), /^Ada$/);
        const reply = channel.locator('.message.outgoing', { hasText: CHANNEL_REPLY });
        await reply.waitFor();
        assert.match(await reply.locator('.author').textContent(), /^@mgp$/);
        await waitFor(
          () =>
            mcplRecords(dirs, 'channel').some(
              (r) => r.result === 'PUBLISHED' && r.actor.id === 'agent.chat',
            ),
          "the agent's post in the audit log",
        );
        await page.locator('.tab', { hasText: 'room:general · mcpl' }).click();
        await shot('mcpl-channel-dark');
      },
    );

    await step(
      'in the light theme: the channel reads, and a second elevation is denied',
      async () => {
        const light = THEMES.find((t) => t.file === 'light');
        await switchWorkbenchTheme(kit, light);
        await channel.locator(`body.${light.webviewClass}`).waitFor();
        await kit.assertReadable(channel, ['.message .text', '.meta', '.author', 'h1']);
        await shot('mcpl-channel-light');
        await ask(page, `@mgp ${PLANS[6].task}`);
        const asked = dialog(page, 'Allow "mcpl" access to .env?');
        await asked.waitFor();
        await shot('mcpl-elevation-light');
        await asked.getByRole('button', { name: 'Cancel' }).click();
        await responseDone(page, PLANS[6].answer);
        assert.match(seen.results.at(-1), /"approved":\s*false/);
        await waitFor(
          () => mcplRecords(dirs, 'scope').some((r) => r.result === 'DENIED'),
          'the denial in the audit log',
        );
        await shot('mcpl-hook-in-chat-light');
      },
    );

    await step('in high contrast: a third elevation is asked; Enter denies it', async () => {
      await switchWorkbenchTheme(kit, highContrast);
      await ask(page, `@mgp ${PLANS[7].task}`);
      const asked = dialog(page, 'Allow "mcpl" access to docs/guide.md?');
      await asked.waitFor();
      await shot('mcpl-elevation-high-contrast');
      // Deny leads, as for a dangerous tool: the focused button, so Enter denies.
      await page.waitForFunction(() => document.activeElement?.textContent === 'Deny');
      await page.keyboard.press('Enter');
      await responseDone(page, PLANS[7].answer);
      assert.match(seen.results.at(-1), /"approved":\s*false/);
    });
  } finally {
    await model.close();
  }
}
