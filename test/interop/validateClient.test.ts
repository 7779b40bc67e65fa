import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './support/cliInProcess';
import {
  ALL_CLIENT_CHECKS,
  CLIENT_SCENARIOS,
  type ValidationReport,
  validateClient,
} from '../../client/src/kernel';
import { ProbeServer } from '../../client/src/kernel/validate/client/probeServer';
import { repoRoot } from '../repoRoot';
import { eventually } from '../support/patience';

// `mgp validate client` (MGP §17.8, the client half) against clients whose behaviour is known: `mgp`
// itself (through the script a user's commands make, test/conformance/mgp-validate-client.mjs), a
// plain MCP client of the official SDK that calls every tool it sees, and that client made to crash
// or hang in one scenario each.

const root = repoRoot();
const quoted = (path: string) => `"${path}"`;
const mgpClient = `${quoted(process.execPath)} ${quoted(join(root, 'test/conformance/mgp-validate-client.mjs'))}`;
const plainClient = `${quoted(process.execPath)} ${quoted(join(root, 'test/fixtures/clients/plain-mcp-client.mjs'))}`;

const failed = (report: ValidationReport) =>
  report.checks.filter((check) => check.status === 'fail').map((check) => check.id);
const statusOf = (report: ValidationReport, id: string) =>
  report.checks.find((check) => check.id === id)?.status;

/** Whether a process is gone: no such pid, or a zombie waiting to be reaped. */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('mgp validate client', function () {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'mgp-validate-client-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('finds mgp Tier 4 compliant with no FAIL: --json, --junit and --require-tier 4 exit 0', async () => {
    const junit = join(dir, 'mgp.xml');
    const { code, out } = await cli([
      'validate',
      'client',
      '--command',
      mgpClient,
      '--json',
      '--junit',
      junit,
      '--require-tier',
      '4',
    ]);
    const report = JSON.parse(out) as ValidationReport;
    for (const check of report.checks)
      assert.equal(check.status, 'pass', `${check.id}: ${check.detail} ${check.received ?? ''}`);
    assert.equal(code, 0);
    assert.equal(report.kind, 'client');
    assert.equal(report.tier, 4);
    assert.equal(report.client?.name, 'mgp-kernel');
    assert.equal(report.mgpVersion, '0.5.2');
    assert.equal(report.checks.length, ALL_CLIENT_CHECKS.length);
    assert.equal(report.extensions.passed.length, 9);
    for (const check of report.checks) assert.match(check.section, /^(MCP|MGP §\d)/, check.id);
    assert.match(
      report.checks.find((c) => c.id === 'mgp.client.permission-flow')!.detail,
      /^mgp\/permission\/await, then mgp\/permission\/grant memory\.write: approved, then write_note was called$/,
    );
    assert.match(
      report.checks.find((c) => c.id === 'mgp.client.streaming')!.detail,
      /cancelled it with mgp\/stream\/cancel/,
    );
    const xml = readFileSync(junit, 'utf8');
    assert.equal((xml.match(/<testcase /g) ?? []).length, ALL_CLIENT_CHECKS.length);
    assert.match(xml, /<testsuite name="mgp validate client [^"]*" tests="10" failures="0"/);
  });

  it('FAILs a plain MCP client exactly on security metadata, MISSING every other MGP part', async () => {
    const report = await validateClient({ command: plainClient, timeoutMs: 60_000 });
    assert.deepEqual(failed(report), ['mgp.client.security-metadata']);
    const security = report.checks.find((c) => c.id === 'mgp.client.security-metadata')!;
    assert.match(security.detail, /delete_all_files .* reached the server with no approval/);
    assert.ok(security.expected, 'a FAIL says what was expected');
    assert.match(security.exchange?.sent ?? '', /"name":"delete_all_files"/);
    assert.equal(statusOf(report, 'mcp.client.initialize'), 'pass');
    for (const check of report.checks.filter(
      (c) => c.tier !== 0 && c.id !== 'mgp.client.security-metadata',
    ))
      assert.equal(check.status, 'missing', `${check.id}: ${check.detail}`);
    assert.equal(report.tier, 0);
    assert.equal(report.mcpCompliant, true);
    assert.equal(report.client?.name, 'plain-mcp-client');
  });

  it('FAILs the scenario a client hangs in (its process group killed) or crashes in, and goes on', async () => {
    const pidFile = join(dir, 'hanging-child.pid');
    const report = await validateClient({
      command: `${plainClient} --hang-in mgp-health --pid-file ${quoted(pidFile)} --crash-in mgp-streaming-cancel`,
      timeoutMs: 3000,
    });
    assert.equal(report.checks.length, ALL_CLIENT_CHECKS.length);
    const hung = report.checks.find((c) => c.id === 'mgp.client.health')!;
    assert.equal(hung.status, 'fail');
    assert.match(hung.detail, /did not exit within 3 s \(timeout\)/);
    const crashed = report.checks.find((c) => c.id === 'mgp.client.streaming')!;
    assert.equal(crashed.status, 'fail');
    assert.match(crashed.detail, /exited with status 1/);
    assert.match(crashed.received ?? '', /crashing on purpose in mgp-streaming-cancel/);
    // The scenarios after them ran as for any plain client.
    assert.equal(statusOf(report, 'mgp.client.events'), 'missing');
    assert.equal(statusOf(report, 'mgp.client.tool-discovery'), 'missing');
    assert.deepEqual(failed(report), [
      'mgp.client.security-metadata',
      'mgp.client.health',
      'mgp.client.streaming',
    ]);
    // The hanging client's own child went with its process group.
    const child = Number(readFileSync(pidFile, 'utf8'));
    assert.ok(child > 0);
    await eventually(() => gone(child), 'the hanging client’s child killed');
  });

  it('prints a line per check with a FAIL explained, and exits 1 below --require-tier', async () => {
    const { code, out, err } = await cli([
      'validate',
      'client',
      '--command',
      plainClient,
      '--require-tier',
      '1',
    ]);
    assert.equal(code, 1);
    assert.match(
      out,
      /^✓ MCP: Initialize, initialized, then requests \(MCP Lifecycle\) \.\.\. PASS$/m,
    );
    assert.match(
      out,
      /^✗ Tier 1: Security metadata honoured: no dangerous call unapproved \(MGP §4\.3, §4\.4\) \.\.\. FAIL\n {4}delete_all_files .*\n {4}expected: .*\n {4}received: tools\/call delete_all_files\n {4}sent: .*\n {4}answer: /m,
    );
    assert.match(out, /^✗ Tier 1: Capability negotiation \(MGP §2\.2, §2\.4\) \.\.\. MISSING$/m);
    assert.match(out, /^Result: MCP compliant, no MGP tier \(0\/11 extensions\)$/m);
    assert.match(err, /Tier 1 required, the client reaches none/);
  });

  it('serves its probe only at the secret path the client is told', async () => {
    const probe = await ProbeServer.start(CLIENT_SCENARIOS[0], {});
    try {
      const url = new URL(probe.url);
      assert.match(url.pathname, /^\/[0-9a-f]{32}\/mcp$/);
      const initialize = (target: string) =>
        fetch(target, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: '2025-11-25',
              capabilities: {},
              clientInfo: { name: 'x', version: '1' },
            },
          }),
        });
      assert.equal((await initialize(`${url.origin}/mcp`)).status, 404);
      assert.equal(probe.sessions.length, 0, 'a guess opens no session');
      assert.equal((await initialize(probe.url)).status, 200);
    } finally {
      await probe.close();
    }
  });

  it('exits 2 on bad usage, with a message that says why', async () => {
    const cases: [string[], RegExp][] = [
      [[], /--command/],
      [['--command', '"node client.js'], /a quote is not closed/],
      [['--command', '   '], /--command is empty/],
      [['--command', 'node c.js', '--timeout', '0'], /--timeout must be a number above 0/],
      [['--command', 'node c.js', '--require-tier', '5'], /--require-tier must be 1, 2, 3 or 4/],
      [['node', 'c.js'], /unexpected argument "node"/],
    ];
    for (const [args, message] of cases) {
      const { code, err } = await cli(['validate', 'client', ...args]);
      assert.equal(code, 2, args.join(' '));
      assert.match(err, message);
    }
  });
});
