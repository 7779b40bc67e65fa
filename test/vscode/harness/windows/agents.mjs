// A2A agents in the editor, against three agents built on the official SDK's server classes
// (test/fixtures/a2a/sdkAgent.js) on loopback: the start gate asks before first contact, naming the
// URL; the Agents view shows each agent reachable with its dialect and skills; a delegation from the
// Agents view goes through Run Tool and its approval and shows as a task with its page (messages,
// artifacts, history); a running task is cancelled from its page (the remote task is cancelled); an
// agent's question is answered from its page.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { HANG_MS } from '../patience.mjs';
import { switchTheme } from '../scenarios/10-run-tool.mjs';
import { expand, hoverUntil, openWorkbench } from '../uiKit.mjs';

export const title = 'Agents view: delegation, approval, task page, cancel, answer';

const require = createRequire(import.meta.url);
const { startSdkAgent } = require('../../../fixtures/a2a/sdkAgent.js');

const agents = {};

export const window = {
  async prepare(workspace) {
    agents.echo = await startSdkAgent({
      protocol: '1.0',
      behaviour: 'echo',
      streaming: true,
      name: 'Echo Agent',
      description: 'Says back what it is told, with its length.',
    });
    agents.slow = await startSdkAgent({
      protocol: '0.3',
      behaviour: 'forever',
      name: 'Slow Agent',
      skills: [
        { id: 'think', name: 'Think', description: 'Works until told to stop', tags: [] },
        { id: 'wait', name: 'Wait', description: 'Waits', tags: [] },
      ],
    });
    agents.weather = await startSdkAgent({
      protocol: '1.0',
      behaviour: 'ask',
      name: 'Weather Agent',
      skills: [{ id: 'forecast', name: 'Forecast', description: 'Tells the weather', tags: [] }],
    });
    // A probe the workspace's config points at: a workspace may not send the kernel to a loopback
    // address, so it must never hear from the kernel.
    agents.probe = await startSdkAgent({ protocol: '1.0', behaviour: 'echo' });
    const table = ([name, url, extra = '']) =>
      `[[a2a.external_agents]]\nname = "${name}"\nurl = "${url}"\n${extra}`;
    writeFileSync(join(workspace, 'mgp.toml'), table(['intranet', agents.probe.url]));
    // The user's own config names the loopback agents: only it may.
    const own = join(workspace, '..', 'user-agents.toml');
    writeFileSync(
      own,
      [
        ['echo', agents.echo.url],
        ['slow', agents.slow.url, 'risk_level = "safe"\n'],
        ['weather', agents.weather.url, 'risk_level = "safe"\n'],
      ]
        .map(table)
        .join('\n'),
    );
    window.env = { MGP_CONFIG_PATH: own };
  },
};

const pane = (page, name) =>
  page.locator('.sidebar .pane', {
    has: page.locator('.pane-header', { hasText: new RegExp(`^${name}`) }),
  });
const agentsPane = (page) => pane(page, 'Agents');
const row = (page, text) => agentsPane(page).locator('.monaco-list-row', { hasText: text });

/** Folds a pane, clicking its header until it says it is folded (a click can be lost in a redraw). */
async function fold(header) {
  await header.waitFor();
  for (
    const until = Date.now() + HANG_MS;
    (await header.getAttribute('aria-expanded')) === 'true';
  ) {
    if (Date.now() > until) throw new Error(`${header} did not fold`);
    // Near its start: the middle of a header can be one of its actions.
    await header.click({ position: { x: 24, y: 10 } });
    await header.page().waitForTimeout(200);
  }
}

/** The MGP container, with the views above the Agents view folded so it has the room. */
async function openAgentsView(page) {
  const container = page.locator('.activitybar [aria-label^="MGP"]').first();
  const open = page.locator('.sidebar .title-label h2', { hasText: /^MGP$/ });
  if (!(await open.isVisible())) await container.click();
  await open.waitFor();
  for (const name of ['Servers', 'Channels']) await fold(pane(page, name).locator('.pane-header'));
  await expand(agentsPane(page).locator('.pane-header'));
}

/** The start gate's question for each agent, answered Start (the first shown is photographed). */
async function allowAgents(page, urls, shot) {
  for (const [name, url] of Object.entries(urls)) {
    const dialog = page.locator('.monaco-dialog-box', {
      hasText: `Contact external agent "a2a.${name}" from this workspace?`,
    });
    await dialog.waitFor();
    const text = (await dialog.textContent()).replace(/\s+/g, ' ');
    assert.ok(text.includes(url), `the question names the URL: ${text}`);
    if (shot) {
      await shot();
      shot = undefined;
    }
    await dialog.getByRole('button', { name: 'Start', exact: true }).click();
  }
}

/** Clicks an action of a row (drawn again as the task moves) until `done` shows. */
async function clickRowAction(page, target, label, done) {
  for (const until = Date.now() + HANG_MS; !(await done.isVisible());) {
    if (Date.now() > until) throw new Error(`"${label}" had no effect (a hang)`);
    await target.hover({ timeout: 5000 }).catch(() => undefined);
    await target
      .locator(`.action-label[aria-label="${label}"]`)
      .click({ timeout: 5000 })
      .catch(() => undefined);
    await done.waitFor({ timeout: 5000 }).catch(() => undefined);
  }
}

/** The Run Tool form of an agent's `delegate`, its message typed, Run pressed. */
async function delegateFromRow(page, webviewFrame, name, message) {
  const title = `Run a2a.${name} · delegate`;
  await clickRowAction(
    page,
    row(page, name).first(),
    'Delegate to Agent...',
    page.locator('.tab', { hasText: title }),
  );
  const frame = await webviewFrame(title);
  await frame.locator('main[data-state="ready"]').waitFor();
  await frame
    .locator('[data-pointer="/message"] textarea, [data-pointer="/message"] input')
    .first()
    .fill(message);
  await frame.locator('button.run').click();
  return { title, frame };
}

async function allowCall(page, serverId, toolName) {
  const dialog = page.locator('.monaco-dialog-box', {
    hasText: `Allow "${serverId}" to run ${toolName}?`,
  });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Allow', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

export async function run({ page, server, workspace, step, shot, setTheme, webviewFrame, THEMES }) {
  const dark = THEMES.find((t) => t.file === 'dark');
  const light = THEMES.find((t) => t.file === 'light');
  try {
    await step(
      "a workspace's agent asks before first contact, naming its URL, and may not reach loopback",
      async () => {
        await openWorkbench(page, server, workspace);
        await allowAgents(page, { intranet: agents.probe.url }, () =>
          shot('agents-start-question'),
        );
        await openAgentsView(page);
        const refused = row(page, /^intranet.*unreachable/);
        await refused.waitFor();
        const reason = page.locator('.monaco-hover', { hasText: 'your own config does not name' });
        await hoverUntil(page, refused, reason);
        await shot('agents-workspace-refused');
        await page.keyboard.press('Escape');
        assert.equal(agents.probe.headers.length, 0, 'the loopback probe heard nothing');
      },
    );

    await step(
      'the Agents view shows each of your agents reachable, its dialect and skills',
      async () => {
        await row(page, /^echo.*reachable · A2A 1\.0 · 1 skill/).waitFor();
        await row(page, /^slow.*reachable · A2A 0\.3 · 2 skills/).waitFor();
        await row(page, /^weather.*reachable · A2A 1\.0 · 1 skill/).waitFor();
        await shot('agents-view-dark');
        await setTheme(light);
        await shot('agents-view-light');
        await setTheme(dark);
      },
    );

    let taskPage;
    await step(
      'a delegation from the Agents view asks first, then shows the answer and a task',
      async () => {
        const { frame } = await delegateFromRow(
          page,
          webviewFrame,
          'echo',
          'hello from the editor',
        );
        await allowCall(page, 'a2a.echo', 'delegate');
        await frame
          .locator('.outcome .result[data-state="ok"]', { hasText: 'echo: hello from the editor' })
          .waitFor();
        assert.deepEqual(
          agents.echo.messages.map((m) => m.text),
          ['hello from the editor'],
        );
        const task = row(page, 'hello from the editor');
        await task.filter({ hasText: 'completed' }).waitFor();
        await task.click();
        taskPage = await webviewFrame(`A2A task ${agents.echo.messages[0].taskId}`);
        await taskPage.locator('main[data-state="completed"]').waitFor();
        const text = (await taskPage.locator('main').textContent()).replace(/\s+/g, ' ');
        for (const expected of [
          '✓ Completed',
          'Echo Agent',
          'A2A 1.0',
          'hello from the editor',
          'echo: hello from the editor',
          'answer',
        ])
          assert.ok(text.includes(expected), `the task page shows ${expected}: ${text}`);
        assert.deepEqual(await taskPage.locator('.states li .state').allTextContents(), [
          'Submitted',
          'Working',
          '✓ Completed',
        ]);
        await shot('agent-task-dark');
        await switchTheme({ page, setTheme }, light, taskPage);
        await shot('agent-task-light');
        await switchTheme({ page, setTheme }, dark, taskPage);
      },
    );

    await step('a running task is cancelled from its page, at the agent too', async () => {
      await delegateFromRow(page, webviewFrame, 'slow', 'think about it');
      const task = row(page, 'think about it');
      await task.filter({ hasText: 'working' }).waitFor();
      await task.click();
      const frame = await webviewFrame(`A2A task ${agents.slow.messages[0].taskId}`);
      await frame.locator('main[data-state="working"]').waitFor();
      await frame.getByRole('button', { name: 'Cancel Task' }).click();
      // Its config calls it safe: its calls are not asked about.
      await frame.locator('main[data-state="canceled"]').waitFor();
      assert.equal(agents.slow.cancelled.length, 1, 'the agent cancelled its task');
      await task.filter({ hasText: 'cancelled' }).waitFor();
      await shot('agent-task-cancelled');
    });

    await step("an agent's question is answered from the task page", async () => {
      await delegateFromRow(page, webviewFrame, 'weather', 'what is the weather?');
      const task = row(page, 'what is the weather?');
      await task.filter({ hasText: 'input required: Which city?' }).waitFor();
      await task.click();
      const frame = await webviewFrame(`A2A task ${agents.weather.messages[0].taskId}`);
      await frame.locator('main[data-state="input-required"]').waitFor();
      await frame.locator('.status-message.waiting', { hasText: 'Which city?' }).waitFor();
      await shot('agent-task-question');
      await frame.locator('textarea.answer-text').fill('Paris');
      await frame.getByRole('button', { name: 'Send Answer' }).click();
      await frame.locator('main[data-state="completed"]').waitFor();
      await frame.locator('.artifact', { hasText: 'weather in Paris: sunny' }).waitFor();
      assert.deepEqual(
        agents.weather.messages.map((m) => [m.text, m.existing]),
        [
          ['what is the weather?', false],
          ['Paris', true],
        ],
      );
      await shot('agent-task-answered');
    });
  } finally {
    await Promise.all(Object.values(agents).map((agent) => agent.close()));
  }
}
