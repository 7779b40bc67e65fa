// MCP tasks in the editor: a tool run as a task shows in the Tasks view with its status and progress,
// opens its result when done, is picked up again after a window reload (its id kept in the workspace
// state, the server asked again), and is cancelled with tasks/cancel from the view. The Run Tool form
// runs a tool as a task when "Run as a task" is checked: the task shows in the Tasks view, its result
// in the form.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HANG_MS } from '../patience.mjs';
import { repo } from '../paths.mjs';
import { runResult, runToolFrame, switchTheme } from '../scenarios/10-run-tool.mjs';
import {
  expand,
  expandTools,
  openWorkbench,
  palette,
  reloadWindow,
  serverRow,
  startWorkspaceServers,
} from '../uiKit.mjs';

export const title = 'Tasks view: run as task, result, reload, cancel';

let taskServer;

/** The task example server over Streamable HTTP: it outlives the window's reload. */
async function startTaskServer() {
  const script = join(repo, 'examples/servers/dist/task-example-server.js');
  taskServer = spawn(process.execPath, [script, '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let err = '';
    taskServer.stderr.on('data', (chunk) => {
      err += chunk;
      const match = /listening on (\S+)/.exec(err);
      if (match) resolve(match[1]);
    });
    taskServer.once('exit', (code) => reject(new Error(`task server exited (${code}): ${err}`)));
  });
}

export const window = {
  async prepare(workspace) {
    const url = await startTaskServer();
    writeFileSync(
      join(workspace, 'mgp.toml'),
      `[[servers]]\nid = "tasks"\ntransport = "http"\nurl = "${url}"\napproved_tools = ["count_slowly", "write_report"]\n`,
    );
  },
};

const tasksPane = (page) =>
  page.locator('.sidebar .pane', { has: page.locator('.pane-header', { hasText: /^Tasks/ }) });

/** The Tasks view's row of a tool's task whose text matches `status`. */
const taskRow = (page, tool, status) =>
  tasksPane(page).locator('.monaco-list-row', { hasText: tool }).filter({ hasText: status });

const openTasksView = (page) => expand(tasksPane(page).locator('.pane-header'));

/**
 * "Run Tool as Task…": the tool, then its arguments. On a loaded machine the arguments box can close
 * as it opens (the focus taken by a view that redraws); nothing has run then, so the command is
 * asked again, until the hang deadline.
 */
async function runAsTask(page, tool, args) {
  const widget = page.locator('.quick-input-widget');
  for (const until = Date.now() + HANG_MS; ;) {
    await palette(page, 'MGP: Run Tool as Task...', tool);
    try {
      await widget.locator('input').fill(JSON.stringify(args), { timeout: 15_000 });
    } catch (error) {
      if (Date.now() > until || (await widget.isVisible())) throw error;
      continue;
    }
    await page.keyboard.press('Enter');
    await widget.waitFor({ state: 'hidden' });
    return;
  }
}

export async function run({ page, server, workspace, step, shot, setTheme, THEMES }) {
  const dark = THEMES.find((t) => t.file === 'dark');
  const light = THEMES.find((t) => t.file === 'light');
  const highContrast = THEMES.find((t) => t.file === 'high-contrast');
  try {
    await step(
      'a tool run as a task shows in the Tasks view, working, with its status',
      async () => {
        await openWorkbench(page, server, workspace);
        await startWorkspaceServers(page, ['tasks']);
        await serverRow(page, 'tasks', 'connected');
        await runAsTask(page, 'count_slowly', { to: 600, step_ms: 500 });
        await openTasksView(page);
        await taskRow(page, 'count_slowly', /working: counted \d+ of 600/).waitFor();
        await shot('tasks-running-dark');
        await setTheme(light);
        await shot('tasks-running-light');
        await setTheme(highContrast);
        await shot('tasks-running-high-contrast');
        await setTheme(dark);
      },
    );

    await step('a task that ends opens its result', async () => {
      await runAsTask(page, 'write_report', { to: 3, step_ms: 100 });
      const done = taskRow(page, 'write_report', 'completed');
      await done.waitFor();
      await done.click();
      await page.locator('.view-lines', { hasText: 'Counted to 3.' }).waitFor();
      // Read-only, named for the tool: nothing to save when it is closed.
      const tab = page.locator('.tab.active', { hasText: /^write_report [0-9a-f]{8}\.md/ });
      await tab.waitFor();
      assert.equal(await page.locator('.tab.active.dirty').count(), 0, 'the result is not unsaved');
      await shot('tasks-result');
    });

    await step(
      'after a window reload, the running task is there again and still moves',
      async () => {
        await reloadWindow(page);
        await page.locator('.monaco-workbench').waitFor();
        await serverRow(page, 'tasks', 'connected');
        await openTasksView(page);
        const row = taskRow(page, 'count_slowly', /working: counted \d+ of 600/);
        await row.waitFor();
        const before = await row.innerText();
        await page.waitForFunction(
          (text) =>
            [...document.querySelectorAll('.monaco-list-row')].some(
              (r) =>
                r.textContent.includes('count_slowly') &&
                r.textContent.includes('counted') &&
                !r.textContent.includes(text),
            ),
          before.match(/counted \d+/)[0],
        );
        await shot('tasks-after-reload');
      },
    );

    await step('Cancel Task cancels it (tasks/cancel)', async () => {
      // The row is drawn again at each status the task reports (twice a second): a click that
      // spans a redraw reaches no button, so it is given again until the task is cancelled.
      const row = taskRow(page, 'count_slowly', 'working');
      const cancelled = taskRow(page, 'count_slowly', 'cancelled');
      const deadline = Date.now() + HANG_MS;
      while (!(await cancelled.isVisible())) {
        if (Date.now() > deadline) throw new Error('the task was not cancelled (a hang)');
        await row.hover({ timeout: 5000 }).catch(() => undefined);
        await row
          .locator('.action-label[aria-label="Cancel Task"]')
          .click({ timeout: 5000 })
          .catch(() => undefined);
        await cancelled.waitFor({ timeout: 5000 }).catch(() => undefined);
      }
      assert.equal(await taskRow(page, 'count_slowly', 'working').count(), 0);
      await shot('tasks-cancelled-dark');
      await setTheme(light);
      await shot('tasks-cancelled-light');
      await setTheme(dark);
    });

    await step(
      'Run Tool with "Run as a task" runs it as a task: in the Tasks view, its result in the form',
      async () => {
        await expandTools(await serverRow(page, 'tasks', 'connected'));
        await page.locator('.monaco-list-row[aria-label^="Tool count_slowly,"]').first().click();
        const frame = await runToolFrame({ page }, 'tasks', 'count_slowly');
        await frame.locator('main[data-state="ready"]').waitFor();
        const box = frame.locator('.task-choice input[type="checkbox"]');
        assert.equal(await box.isChecked(), false, 'optional: the person chooses');
        await box.check();
        assert.equal(
          await frame.locator('.stream-box').isDisabled(),
          true,
          'a task is not streamed',
        );
        await frame.locator('[data-pointer="/to"] input').fill('4');
        await frame.locator('[data-pointer="/step_ms"] input').fill('400');
        await frame.locator('button.run').click();
        await taskRow(page, 'count_slowly', /working/).waitFor();
        await runResult(frame).filter({ hasText: 'Counted to 4.' }).waitFor();
        await taskRow(page, 'count_slowly', 'completed').waitFor();
        await shot('tasks-run-tool-dark');
        await switchTheme({ page, setTheme }, light, frame);
        await shot('tasks-run-tool-light');
        await switchTheme({ page, setTheme }, dark, frame);
      },
    );
  } finally {
    taskServer?.kill();
  }
}
