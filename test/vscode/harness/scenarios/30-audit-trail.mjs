// The Audit Trail panel: the events of real calls, newest first, each told in a sentence with its
// permission, filters, a record's detail (summary first), trace groups, live tail on top, CSV export
// through the save dialog, chain verification; then a separate log of 100,000 generated events opened
// through the command's `directory` argument (from a keybinding: the palette never passes it),
// scrolled to the middle and the end with the DOM kept small, both orders, in three themes.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { repo } from '../paths.mjs';
import { palette, serverRow } from '../uiKit.mjs';
import { runResult, runTool } from './20-approvals.mjs';
import { HANG_MS } from '../patience.mjs';

export const title = 'audit trail';

const BIG = 100_000;
const KEY = 'ctrl+alt+shift+f9';

/** The kernel's AuditLog, bundled from source for this node (the harness runs outside the extension). */
async function loadAuditLog(scratch) {
  const outfile = join(scratch, 'audit-log.cjs');
  await esbuild.build({
    stdin: {
      contents: "export { AuditLog } from './client/src/kernel/audit/auditLog';\n",
      resolveDir: repo,
      sourcefile: 'audit-entry.ts',
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    logLevel: 'silent',
    define: { __MGP_VERSION__: '"ui-scenario"' },
  });
  return createRequire(import.meta.url)(outfile).AuditLog;
}

const SERVERS = ['example', 'everything', 'files', 'git', 'browser', 'tickets'];
const TOOLS = [
  'delete_notes',
  'write_note',
  'echo',
  'read_file',
  'commit',
  'fetch_page',
  'create_issue',
];

/** Event i of the generated log: traces of three (a permission, a call, a call or a block). */
function generatedEvent(i, start) {
  const trace = Math.floor(i / 3);
  const step = i % 3;
  const blocked = step === 2 && trace % 7 === 3;
  const target = {
    server_id: SERVERS[trace % SERVERS.length],
    tool_name: TOOLS[trace % TOOLS.length],
  };
  return {
    timestamp: new Date(start + i * 800).toISOString(),
    trace_id: `00000000-0000-4000-8000-${trace.toString(16).padStart(12, '0')}`,
    event_type: step === 0 ? 'PERMISSION_GRANTED' : blocked ? 'TOOL_BLOCKED' : 'TOOL_EXECUTED',
    actor:
      step === 0
        ? { type: 'operator', id: 'agent.vscode' }
        : { type: 'agent', id: `agent.worker-${trace % 5}` },
    target,
    result: step === 0 ? 'GRANTED' : blocked ? 'BLOCKED' : i % 29 === 0 ? 'FAILURE' : 'SUCCESS',
    details:
      step === 0
        ? { kind: 'tool_call', scope: 'once', risk_level: 'dangerous' }
        : {
            risk_level: 'moderate',
            duration_ms: (i * 37) % 900,
            arguments: { path: `/srv/project/file-${i}.txt` },
          },
  };
}

/** A log of `count` events in `dir`, written by the kernel's own AuditLog (hash-chained, durable). */
async function writeGeneratedLog(scratch, dir, count) {
  const AuditLog = await loadAuditLog(scratch);
  const log = await AuditLog.open({ directory: dir });
  const start = Date.now() - count * 800;
  for (let from = 0; from < count; from += 5000) {
    await Promise.all(
      Array.from({ length: Math.min(5000, count - from) }, (_, k) =>
        log.append(generatedEvent(from + k, start)),
      ),
    );
  }
  await log.close();
}

/**
 * Answers the next tool-call approval with "Allow once": in the modal dialog (mgp.approvals.prompt =
 * modal, the default), or in the Approvals panel when an earlier scenario set "notification" and left
 * the panel open (it comes to the front with the request).
 */
async function allowOnce({ page, webviewFrame }) {
  const dialog = page.locator('.monaco-dialog-box', { hasText: 'Allow "example" to run' });
  const deadline = Date.now() + HANG_MS;
  while (Date.now() < deadline) {
    if (await dialog.count())
      return dialog.getByRole('button', { name: 'Allow', exact: true }).click();
    if (await page.locator('.tab.active', { hasText: 'Approvals' }).count()) {
      const request = (await webviewFrame('Approvals', 2000).catch(() => undefined))?.locator(
        'article[data-request] button[data-answer="once"]',
      );
      if (request && (await request.count())) return request.first().click();
    }
    await page.waitForTimeout(200);
  }
  throw new Error('no approval prompt for the call');
}

/** Seq, type, server, tool, sentence and permission of the rows the table has drawn, top first. */
function drawnRows(frame) {
  return frame.locator('.window .row[data-seq]').evaluateAll((rows) =>
    rows
      .map((r) => {
        const cell = (col) => r.querySelector(`[data-col="${col}"]`).textContent;
        return {
          index: Number(r.id.slice(4)),
          seq: Number(r.dataset.seq),
          // The type as the log stores it is the cell's hover; the cell shows it in words.
          type: r.querySelector('[data-col="type"]').title,
          typeShown: cell('type'),
          server: cell('server'),
          tool: cell('tool'),
          result: cell('result'),
          sentence: cell('sentence'),
          permission: cell('permission'),
          trace: r.dataset.trace,
        };
      })
      .sort((a, b) => a.index - b.index),
  );
}

/** The drawn rows once `test` holds for them (the table draws a new view a frame after its status shows it). */
async function rowsWhen(frame, test, what, timeoutMs = HANG_MS) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await drawnRows(frame);
    if (rows.length && test(rows)) return rows;
    if (Date.now() > deadline)
      throw new Error(`rows never showed ${what}: ${JSON.stringify(rows.slice(0, 5))}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Scrolls the table so row `index` is at the top and waits until the rows in view are drawn with data. */
function scrollToRow(frame, index) {
  return frame.locator('.viewport').evaluate(
    async (viewport, { target, hang }) => {
      const table = viewport.closest('.table');
      const rowHeight = parseFloat(getComputedStyle(table).getPropertyValue('--row-height'));
      const top = target === 'end' ? viewport.scrollHeight : target * rowHeight;
      const started = performance.now();
      viewport.scrollTop = top;
      for (;;) {
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const first = Number(table.dataset.first);
        const rows = [...table.querySelectorAll('.window .row')];
        const total = Number(viewport.getAttribute('aria-rowcount')) - 1;
        const there =
          target === 'end' ? rows[rows.length - 1]?.id === `row-${total - 1}` : first === target;
        if (table.dataset.complete === 'true' && there) {
          return {
            ms: performance.now() - started,
            renderMs: Number(table.dataset.renderMs),
            first,
            rowElements: rows.length,
            seqs: rows.map((r) => Number(r.dataset.seq)),
            firstSeq: Number(document.getElementById(`row-${first}`)?.dataset.seq),
            visible: Math.ceil((viewport.clientHeight - rowHeight) / rowHeight),
          };
        }
        if (performance.now() - started > hang)
          throw new Error(`rows not drawn ${hang / 1000} s after scrolling to ${target}`);
      }
    },
    { target: index, hang: HANG_MS },
  );
}

async function selectFilter(frame, name, value) {
  await frame.locator(`select[data-filter="${name}"]`).selectOption(value);
}

export async function run(kit) {
  const { page, dirs, workspace, step, shot, webviewFrame, setTheme, assertReadable, THEMES } = kit;
  const trail = () => webviewFrame('Audit Trail');
  let deleteTrace;

  await step(
    'tool calls go through the pipeline: a safe one, and a dangerous one approved once',
    async () => {
      const add = await runTool(kit, 'example.add', { a: 2, b: 3 });
      await runResult(kit, add, '5');
      const remove = await runTool(kit, 'example.delete_notes', { title: 'old' });
      await allowOnce(kit);
      await runResult(kit, remove, 'Deleted 0 notes');
    },
  );

  await step(
    '"MGP: Show Audit Trail" lists the events of those calls, and the chain is verified',
    async () => {
      await palette(page, 'MGP: Show Audit Trail');
      const frame = await trail();
      await frame.locator('main[data-state="ready"]').waitFor();
      await frame
        .locator('.badge.verify[data-state="verified"]', { hasText: 'Chain verified' })
        .waitFor();
      await frame.locator('.window .row[data-seq]', { hasText: 'delete_notes' }).first().waitFor();
      const rows = await drawnRows(frame);
      const types = new Set(rows.map((r) => r.type));
      // In words on the screen: no SCREAMING_CASE in the Event and Result columns.
      for (const r of rows)
        assert.doesNotMatch(`${r.typeShown} ${r.result}`, /[A-Z]{2,}_|^[A-Z]{3,}/);
      assert.ok(rows.some((r) => r.typeShown === 'Tool executed'));
      for (const type of ['PERMISSION_GRANTED', 'SERVER_CONNECTED', 'TOOL_EXECUTED'])
        assert.ok(types.has(type), `a ${type} row among ${[...types]}`);
      const executed = rows.filter((r) => r.type === 'TOOL_EXECUTED').map((r) => r.tool);
      assert.ok(
        executed.includes('add') && executed.includes('delete_notes'),
        `TOOL_EXECUTED for add and delete_notes: ${executed}`,
      );
      const granted = rows.find(
        (r) => r.type === 'PERMISSION_GRANTED' && r.tool === 'delete_notes',
      );
      assert.ok(granted, 'the approval of delete_notes is recorded');
      deleteTrace = granted.trace;
      const call = rows.find((r) => r.type === 'TOOL_EXECUTED' && r.trace === deleteTrace);
      assert.ok(call, 'the call carries the trace id of its approval');
      // Plain words and the approval's scope, from the record's fields.
      assert.equal(call.sentence, 'You called example.delete_notes; approved once by you');
      assert.equal(call.permission, 'Allowed once');
      assert.equal(granted.sentence, 'You approved example.delete_notes once');
      assert.ok(
        rows.indexOf(call) < rows.indexOf(granted),
        'the call, newer, is above its approval',
      );
      const seqs = rows.map((r) => r.seq);
      assert.deepEqual(
        seqs,
        [...seqs].sort((a, b) => b - a),
        'newest first',
      );
      assert.equal(
        await frame.locator('.row.header [data-col="time"]').getAttribute('aria-sort'),
        'descending',
      );
      await shot('audit-trail');
    },
  );

  await step('filters by server and type show only the matching records', async () => {
    const frame = await trail();
    await selectFilter(frame, 'server', 'example');
    // The menu says what happened in words; the stored name is kept for filtering.
    await selectFilter(frame, 'type', { label: 'Tool executed' });
    assert.equal(await frame.locator('select[data-filter="type"]').inputValue(), 'TOOL_EXECUTED');
    await frame.locator('.status', { hasText: /· [1-9]\d* matching/ }).waitFor();
    const rows = await rowsWhen(
      frame,
      (all) => all.every((r) => r.server === 'example' && r.type === 'TOOL_EXECUTED'),
      'only TOOL_EXECUTED of example',
    );
    assert.ok(rows.length >= 2, `${rows.length} rows`);
    await shot('audit-trail-filtered');
  });

  await step(
    'a record opens in the detail pane: what happened first, then the whole record and its hashes',
    async () => {
      const frame = await trail();
      await frame.locator('.window .row[data-seq]', { hasText: 'delete_notes' }).first().click();
      const detail = frame.locator('aside.detail');
      await detail.locator('.record-json').waitFor();
      assert.equal(
        await detail.locator('[data-field="sentence"]').textContent(),
        'You called example.delete_notes; approved once by you',
      );
      assert.match(await detail.locator('[data-summary="who"]').textContent(), /^you/);
      assert.equal(
        await detail.locator('[data-summary="decision"]').textContent(),
        'Success · Allowed once',
      );
      // The summary comes before the hashes and the JSON.
      assert.ok(
        await detail.evaluate((pane) => {
          const order = [...pane.querySelectorAll('.summary, .hashes, .record-json')];
          return order.map((n) => n.className).join(' ') === 'summary hashes record-json';
        }),
        'summary, hashes, record',
      );
      assert.match(await detail.locator('[data-field="hash"]').textContent(), /^[0-9a-f]{64}$/);
      assert.match(
        await detail.locator('[data-field="prev_hash"]').textContent(),
        /^[0-9a-f]{64}$/,
      );
      const record = JSON.parse(await detail.locator('.record-json').textContent());
      assert.equal(record.event_type, 'TOOL_EXECUTED');
      assert.equal(record.target.tool_name, 'delete_notes');
      assert.equal(record.trace_id, deleteTrace);
      await shot('audit-trail-detail');
      // "Only this trace" filters by the record's trace id: its approval and its call.
      await detail.locator('[data-action="filter-trace"]').click();
      // The trace filter first (the status may already read "2 matching" under the previous filters).
      await frame.waitForFunction(
        (trace) => document.querySelector('input[data-filter="trace"]')?.value === trace,
        deleteTrace,
        { timeout: HANG_MS },
      );
      await frame.locator('.status', { hasText: '· 2 matching' }).waitFor();
      const traced = await rowsWhen(
        frame,
        (all) => all.every((r) => r.trace === deleteTrace),
        'only the trace',
      );
      assert.deepEqual(
        traced.map((r) => `${r.type} ${r.tool}`),
        ['TOOL_EXECUTED delete_notes', 'PERMISSION_GRANTED delete_notes'],
      );
    },
  );

  await step(
    'grouped by trace, the approval and the call of delete_notes form one group that opens',
    async () => {
      const frame = await trail();
      await frame.locator('[data-action="clear"]').click();
      await frame.locator('#group-by-trace').check();
      const group = frame.locator(`.window .row.group[data-trace="${deleteTrace}"]`);
      await group.waitFor();
      assert.match(await group.locator('.cell').first().textContent(), /^▸ 2$/);
      const opened = frame.locator(
        `.window .row.group[data-trace="${deleteTrace}"][aria-expanded="true"]`,
      );
      // Rows move while events arrive (Follow is on, and the MCPL server pushes events): a click can
      // land on the row that moved under it, so click again until this group is the open one.
      for (const until = Date.now() + HANG_MS; !(await opened.count());) {
        if (Date.now() > until) throw new Error(`the group of ${deleteTrace} never opened`);
        await group.click();
        // A retry interval, not a verdict: the loop's own deadline is the hang deadline.
        await opened.waitFor({ timeout: 2000 }).catch(() => undefined);
      }
      await frame.locator(`.window .row.member[data-trace="${deleteTrace}"]`).nth(1).waitFor();
      const members = (await drawnRows(frame))
        .filter((r) => r.trace === deleteTrace)
        .map((r) => r.type);
      assert.deepEqual(members, ['PERMISSION_GRANTED', 'TOOL_EXECUTED']);
      await shot('audit-trail-grouped');
      await frame.locator('#group-by-trace').uncheck();
      await frame.locator('[data-action="close-detail"]').click();
    },
  );

  await step(
    'live tail: with Follow on, the events of a server restart appear at the top',
    async () => {
      const frame = await trail();
      await frame.locator('#follow').check();
      assert.equal(await frame.locator('.viewport').evaluate((v) => v.scrollTop), 0, 'at the top');
      const before = Math.max(...(await drawnRows(frame)).map((r) => r.seq));
      const disconnectedRow = (timeout) =>
        frame.waitForFunction(
          (after) => {
            const row = [...document.querySelectorAll('.window .row[data-seq]')].find(
              (r) =>
                Number(r.dataset.seq) > after &&
                r.querySelector('[data-col="type"]').title === 'SERVER_DISCONNECTED',
            );
            return row && Number(row.dataset.seq);
          },
          before,
          { timeout },
        );
      await palette(page, 'MGP: Restart Server', 'example');
      // In a full run the server pick was once lost after the palette had closed: the kernel logged no
      // restart at all (a webview taking the focus back as the pick opens closes it unanswered). Then the
      // command is run again, once; the subject here is the live tail.
      let stopped = await disconnectedRow(8000).catch(() => undefined);
      if (!stopped) {
        console.log('      (no restart within 8 s: running the command again)');
        await palette(page, 'MGP: Restart Server', 'example');
        stopped = await disconnectedRow(HANG_MS);
      }
      const stoppedAt = await stopped.jsonValue();
      await serverRow(page, 'example', 'connected');
      // Connected again: the newest row, drawn at the top with its data and its sentence.
      const back = await frame.waitForFunction(
        (after) => {
          const first = document.getElementById('row-0');
          return (
            first &&
            Number(first.dataset.seq) > after &&
            first.querySelector('[data-col="type"]').title === 'SERVER_CONNECTED' &&
            first.querySelector('[data-col="sentence"]').textContent ===
              'example started and connected' &&
            document.querySelector('.viewport').scrollTop === 0 &&
            document.querySelector('.table').dataset.complete === 'true' &&
            Number(first.dataset.seq)
          );
        },
        stoppedAt,
        { timeout: HANG_MS },
      );
      const last = await back.jsonValue();
      assert.match(await frame.locator('.status').textContent(), new RegExp(`^${last} records`));
      await shot('audit-trail-live');
      await frame.locator('#follow').uncheck();
    },
  );

  await step('export to CSV with the current filter through the save dialog', async () => {
    const frame = await trail();
    await selectFilter(frame, 'server', 'example');
    await frame.locator('.window .row[data-seq]').first().waitFor();
    await frame.locator('[data-action="export-csv"]').click();
    const input = page.locator('.quick-input-widget input').first();
    await input.waitFor();
    // The simple file dialog shows the folder first, then the suggested name.
    await page.waitForFunction(
      () =>
        /audit-trail-\d{4}-\d\d-\d\d\.csv$/.test(
          document.querySelector('.quick-input-widget input')?.value ?? '',
        ),
      undefined,
      { timeout: HANG_MS },
    );
    const file = join(workspace, 'audit-example.csv');
    await input.fill(file);
    await input.press('Enter');
    const notice = frame.locator('.notice', {
      hasText: /Exported \d+ records? to audit-example\.csv/,
    });
    await notice.waitFor();
    const exported = Number((await notice.textContent()).match(/Exported (\d+)/)[1]);
    const matched = Number(
      (await frame.locator('.status').textContent())
        .match(/· ([\d,]+) matching/)[1]
        .replace(/,/g, ''),
    );
    assert.equal(exported, matched, 'the export holds the records the filter shows');
    assert.ok(existsSync(file));
    const lines = readFileSync(file, 'utf8').split('\r\n').filter(Boolean);
    assert.equal(
      lines[0],
      'seq,timestamp,event_type,actor_type,actor_id,server_id,tool_name,result,trace_id,details',
    );
    assert.equal(lines.length - 1, exported);
    assert.ok(
      lines.slice(1).every((line) => line.split(',')[5] === 'example'),
      'every exported record is of server example',
    );
    await frame.locator('[data-action="clear"]').click();
  });

  await step('"Verify chain" checks the log again on demand', async () => {
    const frame = await trail();
    await frame.locator('[data-action="verify"]').click();
    await frame.locator('.badge.verify[data-state="verified"]').waitFor();
  });

  const big = join(dirs.scratch, 'audit-100k');
  await step(
    `a separate log of ${BIG.toLocaleString('en-US')} events is generated by the kernel's AuditLog`,
    async () => {
      const started = Date.now();
      await writeGeneratedLog(dirs.scratch, big, BIG);
      console.log(
        `      generated ${BIG.toLocaleString('en-US')} durable events in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    },
  );

  await step(
    'a keybinding passes the log folder to "mgp.showAuditTrail" (the palette never passes it)',
    async () => {
      await palette(page, 'Preferences: Open Keyboard Shortcuts (JSON)');
      await page.locator('.tab', { hasText: 'keybindings.json' }).waitFor();
      await page.locator('.monaco-editor .view-lines').first().click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText(
        JSON.stringify([{ key: KEY, command: 'mgp.showAuditTrail', args: { directory: big } }]),
      );
      await page.keyboard.press('Control+S');
      await page.waitForFunction(() => !document.querySelector('.tab.dirty'), undefined, {
        timeout: HANG_MS,
      });
    },
  );

  const bigTrail = () => webviewFrame('Audit Trail · audit-100k');
  await step(
    `the ${BIG.toLocaleString('en-US')}-event log opens, indexed and verified`,
    async () => {
      // The keybinding applies once VS Code has read the saved file again: press until the panel opens.
      const tab = page.locator('.tab', { hasText: 'Audit Trail · audit-100k' });
      for (const until = Date.now() + HANG_MS; !(await tab.count()) && Date.now() < until;) {
        await page.keyboard.press('Control+Alt+Shift+F9');
        // A retry interval, not a verdict: the loop's own deadline is the hang deadline.
        await tab.waitFor({ timeout: 1000 }).catch(() => undefined);
      }
      await tab.waitFor();
      const started = Date.now();
      await page.locator('.tab', { hasText: 'keybindings.json' }).click({ button: 'middle' });
      const frame = await bigTrail();
      await frame
        .locator('.status', { hasText: `${BIG.toLocaleString('en-US')} records` })
        .waitFor();
      const indexed = Date.now() - started;
      await frame
        .locator('.badge.verify[data-state="verified"]', {
          hasText: `${BIG.toLocaleString('en-US')} records`,
        })
        .waitFor();
      const status = await frame.locator('.status').textContent();
      console.log(
        `      panel open to table ready: ${indexed} ms; verified after ${Date.now() - started} ms; ${status}`,
      );
      const rows = await rowsWhen(frame, (drawn) => drawn.length >= 3, 'the newest records');
      assert.deepEqual(
        rows.slice(0, 3).map((r) => r.seq),
        [BIG, BIG - 1, BIG - 2],
        'newest first',
      );
    },
  );

  await step(
    'scrolled to the middle and to the end, the right rows show and only a bounded number of row elements exist',
    async () => {
      const frame = await bigTrail();
      const middle = await scrollToRow(frame, BIG / 2);
      assert.equal(middle.first, BIG / 2);
      assert.equal(middle.firstSeq, BIG / 2, 'the first row in view is seq 50,000 (newest first)');
      assert.deepEqual(
        middle.seqs,
        middle.seqs.map((_, k) => middle.seqs[0] - k),
        'consecutive seqs, newest first',
      );
      assert.ok(
        middle.rowElements <= middle.visible + 2 * 10 + 2,
        `${middle.rowElements} row elements for ${middle.visible} visible`,
      );
      const rows = await drawnRows(frame);
      for (const seq of [BIG / 2, BIG / 2 - 1, BIG / 2 - 2]) {
        const shown = rows.find((r) => r.seq === seq);
        const written = generatedEvent(seq - 1, 0);
        assert.deepEqual(
          [shown.type, shown.server, shown.tool, shown.trace],
          [
            written.event_type,
            written.target.server_id,
            written.target.tool_name,
            written.trace_id,
          ],
          `row ${seq}`,
        );
      }
      const end = await scrollToRow(frame, 'end');
      assert.equal(end.seqs[end.seqs.length - 1], 1, 'the last row is seq 1');
      assert.ok(
        end.rowElements <= end.visible + 2 * 10 + 2,
        `${end.rowElements} row elements at the end`,
      );
      const jumps = [];
      for (const index of [12_345, 87_654, 33_333, 99_000, 1_000])
        jumps.push((await scrollToRow(frame, index)).ms);
      console.log(
        `      ${middle.rowElements} row elements for ${middle.visible} rows in view; scrolled window drawn with data in ${middle.ms.toFixed(1)} ms (middle), ${end.ms.toFixed(1)} ms (end), jumps ${jumps.map((ms) => ms.toFixed(1)).join(', ')} ms (table's own measure ${middle.renderMs} ms)`,
      );
    },
  );

  await step(
    'the table works from the keyboard: Home, arrows, Enter opens the record',
    async () => {
      const frame = await bigTrail();
      await frame.locator('.viewport').focus();
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await frame.locator('.viewport[aria-activedescendant="row-2"]').waitFor();
      await frame.locator('#row-2.active').waitFor();
      await page.keyboard.press('Enter');
      await frame.locator('aside.detail h2', { hasText: `Record ${BIG - 2} · ` }).waitFor();
      await frame.locator('aside.detail .record-json').waitFor();
    },
  );

  await step('the Time header switches to oldest first and back', async () => {
    const frame = await bigTrail();
    const order = frame.locator('.row.header [data-action="order"]');
    await order.click();
    await frame.locator('.row.header [data-col="time"][aria-sort="ascending"]').waitFor();
    const oldest = await rowsWhen(frame, (drawn) => drawn[0]?.seq === 1, 'seq 1 on top');
    assert.deepEqual(
      oldest.slice(0, 3).map((r) => r.seq),
      [1, 2, 3],
    );
    await order.click();
    await frame.locator('.row.header [data-col="time"][aria-sort="descending"]').waitFor();
    await rowsWhen(frame, (drawn) => drawn[0]?.seq === BIG, 'the newest on top again');
  });

  await step('filtering 100,000 records answers at once', async () => {
    const frame = await bigTrail();
    // Timed in the page: from the pick to the first frame whose rows in view are all filled with TOOL_BLOCKED.
    const filtered = await frame
      .locator('select[data-filter="type"]')
      .evaluate(async (select, hang) => {
        const started = performance.now();
        select.value = 'TOOL_BLOCKED';
        select.dispatchEvent(new Event('change'));
        for (;;) {
          await new Promise((resolve) => requestAnimationFrame(resolve));
          const rows = [...document.querySelectorAll('.window .row')];
          if (
            rows.length &&
            document.querySelector('.table').dataset.complete === 'true' &&
            rows.every(
              (r) => r.dataset.seq && r.querySelector('[data-col="type"]').title === 'TOOL_BLOCKED',
            )
          )
            return Math.round(performance.now() - started);
          if (performance.now() - started > hang)
            throw new Error(`the filtered rows were not drawn in ${hang / 1000} s`);
        }
      }, HANG_MS);
    await rowsWhen(
      frame,
      (all) => all.every((r) => r.type === 'TOOL_BLOCKED' && r.result === '✗ Blocked'),
      'only TOOL_BLOCKED',
    );
    await frame.locator('#group-by-trace').check();
    const groupStarted = Date.now();
    await frame.locator('.window .row.group').first().waitFor();
    console.log(
      `      filter to TOOL_BLOCKED drawn in ${filtered} ms, grouped by trace in ${Date.now() - groupStarted} ms (${await frame.locator('.status').textContent()})`,
    );
    await frame.locator('#group-by-trace').uncheck();
    await frame.locator('[data-action="clear"]').click();
    await frame
      .locator('.status', { hasText: `${BIG.toLocaleString('en-US')} matching` })
      .waitFor();
  });

  for (const theme of THEMES) {
    await step(`the Audit Trail of 100,000 events is readable in ${theme.name}`, async () => {
      await page.locator('.tab', { hasText: 'Audit Trail · audit-100k' }).click();
      const frame = await bigTrail();
      await setTheme(theme, frame);
      await frame.locator('.window .row[data-seq]').first().waitFor();
      await scrollToRow(frame, BIG / 2);
      await frame.locator(`.window .row[data-seq="${BIG / 2}"]`).click();
      await frame.locator('aside.detail h2', { hasText: `Record ${BIG / 2} · ` }).waitFor();
      await frame.locator('aside.detail .record-json').waitFor();
      await page.mouse.move(1300, 140);
      await assertReadable(frame, [
        'h1',
        '.row.header .cell',
        '.window .row:not(.selected) .cell',
        '.window .row.problem .cell[data-col="result"]',
        '.window .row .cell[data-col="sentence"]',
        '.summary .sentence',
        '.summary dt',
        '.status',
        '.badge.verify',
        '.field > span',
        'aside.detail h2',
        '.hashes dt',
        '.record-json',
      ]);
      await shot(`audit-trail-100k-${theme.file}`);
    });
  }
}
