// The MCP draft extensions (Nov 2025) in the editor, against the drafts example server over
// Streamable HTTP, which cuts the connection of a streamed call after its fourth event and sends the
// last event again when the client resumes: Run Tool puts a tool's seed under Advanced options, shows
// the seed the server used, and "Run again with the same seed" gives the same result; the Streaming
// panel shows the job's events in a lane per phase, each once; a workspace's settings cannot turn the
// client resource hints on.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repo } from '../paths.mjs';
import {
  findWebviewFrame,
  openWorkbench,
  palette,
  serverRow,
  startWorkspaceServers,
} from '../uiKit.mjs';

export const title = 'MCP draft extensions: seeds, phases, hints';

let draftServer;

function startDraftServer() {
  const script = join(repo, 'examples/servers/dist/drafts-example-server.js');
  draftServer = spawn(
    process.execPath,
    [script, '--port', '0', '--drop-after', '4', '--redeliver'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let err = '';
    draftServer.stderr.on('data', (chunk) => {
      err += chunk;
      const match = /listening on (\S+)/.exec(err);
      if (match) resolve(match[1]);
    });
    draftServer.once('exit', (code) => reject(new Error(`drafts server exited (${code}): ${err}`)));
  });
}

export const window = {
  async prepare(workspace) {
    const url = await startDraftServer();
    writeFileSync(
      join(workspace, 'mgp.toml'),
      `[[servers]]\nid = "drafts"\ntransport = "http"\nurl = "${url}"\n`,
    );
    // A workspace that tries to turn the client resource hints on: a user setting only, ignored here.
    mkdirSync(join(workspace, '.vscode'), { recursive: true });
    writeFileSync(
      join(workspace, '.vscode', 'settings.json'),
      JSON.stringify({ 'mgp.drafts.clientResourceHints': 'onWithGpu' }, null, 2),
    );
  },
};

async function openTool(page, toolName) {
  await palette(page, 'MGP: Run Tool', `drafts.${toolName}`);
  const frame = await findWebviewFrame(page, `Run drafts · ${toolName}`);
  await frame.locator(`main[data-tool="drafts.${toolName}"][data-state="ready"]`).waitFor();
  return frame;
}

/**
 * The result of the run that `act` starts, once it is shown: a result element other than the one
 * shown before (taken before `act`, as a run can end before the next look).
 */
async function resultOf(frame, act) {
  const before = await frame
    .locator('.outcome .result')
    .elementHandle({ timeout: 1000 })
    .catch(() => null);
  await act();
  await frame.waitForFunction((shown) => {
    const node = document.querySelector('.outcome .result');
    return node !== null && node !== shown && node.dataset.state === 'ok';
  }, before);
  return frame.locator('.outcome .result');
}

export async function run({
  page,
  server,
  workspace,
  step,
  shot,
  setTheme,
  assertReadable,
  THEMES,
}) {
  const dark = THEMES.find((t) => t.file === 'dark');
  const light = THEMES.find((t) => t.file === 'light');
  try {
    await step(
      'a tool that declares a seed has it under Advanced options of its form',
      async () => {
        await openWorkbench(page, server, workspace);
        await startWorkspaceServers(page, ['drafts']);
        await serverRow(page, 'drafts', 'connected');
        const frame = await openTool(page, 'roll_dice');
        const advanced = frame.locator('details.advanced-options');
        assert.equal(await advanced.locator('summary').textContent(), 'Advanced options');
        assert.equal(
          await frame.locator('.tool-run > .schema-form [data-pointer="/seed"]').count(),
          0,
          'the seed is not among the main fields',
        );
        await advanced.locator('summary').click();
        await advanced.locator('[data-pointer="/seed"] input').waitFor();
        await advanced.locator('[data-pointer="/prng"] select').waitFor();
        await frame.locator('[data-pointer="/count"] input').fill('6');
        await shot('drafts-seed-field');
      },
    );

    let firstText;
    let seedUsed;
    await step(
      'run without a seed, the result says the one the server used; "Run again with the same seed" gives the same dice',
      async () => {
        const frame = await findWebviewFrame(page, 'Run drafts · roll_dice');
        const first = await resultOf(frame, () => frame.locator('button.run').click());
        const line = first.locator('.determinism');
        seedUsed = await line.getAttribute('data-seed-used');
        assert.match(seedUsed, /^\d+$/);
        assert.match(
          await line.textContent(),
          new RegExp(`Seed used ${seedUsed} · determinism strict`),
        );
        firstText = await first.locator('.result-text').textContent();
        const again = await resultOf(frame, () => frame.locator('button.rerun-seed').click());
        assert.equal(await again.locator('.result-text').textContent(), firstText);
        assert.equal(
          await frame.locator('details.advanced-options [data-pointer="/seed"] input').inputValue(),
          seedUsed,
          'the form now holds the seed it ran with',
        );
        await shot('drafts-same-seed-dark');
        await setTheme(light, frame);
        await assertReadable(frame, [
          '.determinism',
          'button.rerun-seed',
          '.advanced-options summary',
        ]);
        await shot('drafts-same-seed-light');
        await setTheme(dark, frame);
      },
    );

    await step(
      'a streamed job shows its events in a lane per phase, each once after the dropped connection is resumed',
      async () => {
        const frame = await openTool(page, 'research');
        await frame
          .locator('[data-pointer="/query"]')
          .locator('input, textarea')
          .fill('Phase-lock derivation');
        await frame.locator('input.stream-box').check();
        await resultOf(frame, () => frame.locator('button.run').click());
        await palette(page, 'MGP: Show Streaming Output');
        const streams = await findWebviewFrame(page, 'Streaming Output');
        const panel = streams.locator('section.stream:not([hidden])');
        await panel.locator('.phase-lane[data-phase="verify"][data-count="2"]').waitFor();
        assert.deepEqual(await panel.locator('.phase-lane .phase-label').allTextContents(), [
          'observe',
          'abstract',
          'decide',
          'act',
          'verify',
        ]);
        assert.deepEqual(
          await panel
            .locator('.phase-lane')
            .evaluateAll((lanes) => lanes.map((l) => l.dataset.count)),
          ['2', '2', '2', '2', '2'],
        );
        assert.deepEqual(
          await panel
            .locator('.job-event')
            .evaluateAll((nodes) => nodes.map((n) => n.dataset.eventId)),
          ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'],
        );
        await panel
          .locator('.jobs-summary', { hasText: '10 events · 1 replayed after a resume, dropped' })
          .waitFor();
        await panel
          .locator('.stream-determinism .determinism', {
            hasText: /Seed used \d+ · determinism best_effort/,
          })
          .waitFor();
        await shot('drafts-phases-dark');
        await setTheme(light, streams);
        await assertReadable(streams, ['.phase-label', '.job-event', '.jobs-summary']);
        await shot('drafts-phases-light');
        await setTheme(dark, streams);
      },
    );

    await step('a workspace setting does not turn the client resource hints on', async () => {
      const frame = await openTool(page, 'client_hints');
      const result = await resultOf(frame, () => frame.locator('button.run').click());
      assert.equal(await result.locator('.result-text').textContent(), 'null');
    });
  } finally {
    draftServer?.kill();
  }
}
