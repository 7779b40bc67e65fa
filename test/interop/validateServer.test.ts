import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './support/cliInProcess';
import { ALL_SERVER_CHECKS, type ValidationReport, validateServer } from '../../client/src/kernel';
import { repoRoot } from '../repoRoot';
import { within } from '../support/patience';

// `mgp validate server` (MGP §17.8) against servers whose tier is known: ours, plain MCP servers
// from npm, and servers that break one claim each, which must FAIL exactly that check.

const root = repoRoot();
const node = process.execPath;
const fixture = (name: string) => join(root, 'test/fixtures/servers', name);
const example = join(root, 'examples/servers/dist/mgp-example-server.js');
const npmServer = (name: string) =>
  join(root, 'node_modules/@modelcontextprotocol', name, 'dist/index.js');

function validate(args: string[], checkTimeoutMs?: number): Promise<ValidationReport> {
  const [command, ...rest] = args;
  return validateServer({
    target: { kind: 'command', command, args: rest, cwd: root },
    checkTimeoutMs,
  });
}

const failed = (report: ValidationReport) =>
  report.checks.filter((check) => check.status === 'fail').map((check) => check.id);
const statusOf = (report: ValidationReport, id: string) =>
  report.checks.find((check) => check.id === id)?.status;

describe('mgp validate server', function () {
  it('finds the example MGP server Tier 3 compliant, every check citing its section', async () => {
    const report = await validate([node, example]);
    assert.deepEqual(failed(report), []);
    assert.equal(report.tier, 3);
    assert.equal(report.mcpCompliant, true);
    assert.equal(report.mgpVersion, '0.5.2');
    // §16 is the kernel's; the example server does not list tool_discovery.
    assert.equal(statusOf(report, 'mgp.tool-discovery'), 'missing');
    assert.match(
      report.checks.find((c) => c.id === 'mgp.streaming')!.detail,
      /streamed \d+ chunks; a cancel mid-stream ended the call/,
    );
    assert.equal(statusOf(report, 'mgp.permission-flow'), 'pass');
    for (const check of report.checks) assert.match(check.section, /^(MCP|MGP §\d)/, check.id);
    assert.ok(report.extensions.passed.includes('§3 Permission Approval'));
  });

  it('finds the minimal server (the server kit on the SDK) Tier 2 compliant', async () => {
    const report = await validate([node, join(root, 'examples/minimal-server/dist/server.js')]);
    assert.deepEqual(failed(report), []);
    assert.equal(report.tier, 2);
    assert.match(
      report.checks.find((c) => c.id === 'mgp.permission-flow')!.detail,
      /add_note waited while memory\.write awaited a decision, was refused while denied, and ran once approved/,
    );
    // The kit keeps a tool's MGP error a JSON-RPC error with its _mgp, and refuses unknown tools with 4001.
    assert.match(report.checks.find((c) => c.id === 'mgp.structured-errors')!.detail, /1000, 4001/);
    assert.equal(statusOf(report, 'mgp.no-mgp-unasked'), 'pass');
  });

  it('finds a well-behaved Tier 3 fixture compliant, and the permission flow exercised', async () => {
    const report = await validate([node, fixture('mgp-claims.js')]);
    assert.deepEqual(failed(report), []);
    assert.equal(report.tier, 3);
    const flow = report.checks.find((check) => check.id === 'mgp.permission-flow');
    assert.match(
      flow?.detail ?? '',
      /write_note waited .* refused while denied, and ran once approved/,
    );
  });

  for (const name of ['server-memory', 'server-everything'])
    it(`finds the plain MCP ${name} from npm at no tier: MISSING everywhere in MGP, no FAIL`, async () => {
      const report = await validate([node, npmServer(name)]);
      assert.deepEqual(failed(report), []);
      assert.equal(report.mcpCompliant, true);
      assert.equal(report.tier, 0);
      assert.equal(report.extensions.passed.length, 0);
      for (const check of report.checks.filter((c) => c.tier !== 0))
        assert.equal(check.status, 'missing', `${check.id}: ${check.detail}`);
    });

  const broken: [string, string, string][] = [
    ['--mgp-unasked', 'mgp.no-mgp-unasked', 'capabilities.mgp ='],
    ['--runs-without-grant', 'mgp.permission-flow', 'stored'],
    ['--unstructured-errors', 'mgp.structured-errors', 'has no data._mgp'],
    ['--never-streams', 'mgp.streaming', 'no chunk from'],
    ['--hangs-on-health', 'mgp.lifecycle', 'no answer'],
  ];
  for (const [flag, check, received] of broken)
    it(`FAILs exactly ${check} on a server that breaks it (${flag}), with what came`, async () => {
      const report = await validate([node, fixture('mgp-claims.js'), flag]);
      assert.deepEqual(failed(report), [check]);
      const result = report.checks.find((c) => c.id === check)!;
      assert.ok(result.expected, 'a FAIL says what was expected');
      assert.ok(result.received?.includes(received), result.received);
      assert.ok(result.exchange?.sent, 'a FAIL shows what was sent');
      assert.ok(report.tier < 3);
    });

  it('finds the example MCPL server MCPL compliant with --allow-dangerous, hooks and rollback driven', async () => {
    const mcplServer = join(root, 'examples/servers/dist/mcpl-example-server.js');
    const report = await validateServer({
      target: { kind: 'command', command: node, args: [mcplServer], cwd: root },
      allowDangerous: true,
    });
    assert.deepEqual(failed(report), []);
    assert.deepEqual(report.mcpl, { version: '0.4', compliant: true });
    for (const check of report.checks.filter((c) => c.tier === 'mcpl'))
      assert.equal(check.status, 'pass', `${check.id}: ${check.detail}`);
    assert.match(
      report.checks.find((c) => c.id === 'mcpl.checkpoints')!.detail,
      /rollback to it answered success: true; an unknown one refused with -32005/,
    );
    // Without --allow-dangerous its unmarked tools are not called: what needs them is SKIPPED, not FAILed.
    const careful = await validate([node, mcplServer]);
    assert.deepEqual(failed(careful), []);
    assert.equal(statusOf(careful, 'mcpl.checkpoints'), 'skipped');
    assert.equal(careful.mcpl?.compliant, false);
  });

  it('FAILs the MCPL context hooks of a server whose beforeInference never answers', async () => {
    const report = await validate([node, fixture('mcpl-hostile.js'), '--hook', 'never'], 1500);
    assert.equal(statusOf(report, 'mcpl.context-hooks'), 'fail');
    assert.equal(statusOf(report, 'mcpl.negotiation'), 'pass');
  });

  it('FAILs the check a hanging server does not answer, and goes on with the next', async () => {
    // hang.js answers initialize and tools/list, never tools/call.
    const report = await validate([node, fixture('hang.js')], 1500);
    assert.equal(statusOf(report, 'mcp.errors'), 'fail');
    const errors = report.checks.find((check) => check.id === 'mcp.errors')!;
    assert.match(errors.received ?? '', /no answer|nothing in time/);
    assert.equal(statusOf(report, 'mcp.ping'), 'pass');
    assert.equal(report.checks.length, ALL_SERVER_CHECKS.length);
  });

  it('reports a server that does not start as a FAIL of initialize, the rest SKIPPED', async () => {
    const report = await validate([node, fixture('crash-on-start.js')]);
    assert.deepEqual(failed(report), ['mcp.initialize']);
    assert.ok(
      report.checks.filter((c) => c.id !== 'mcp.initialize').every((c) => c.status === 'skipped'),
    );
    assert.equal(report.mcpCompliant, false);
  });

  describe('on the command line', function () {
    let dir: string;
    before(() => (dir = mkdtempSync(join(tmpdir(), 'mgp-validate-'))));
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('prints a line per check and the result, and writes JUnit and the badge', async () => {
      const junit = join(dir, 'checks.xml');
      const badge = join(dir, 'mgp.svg');
      const { code, out } = await cli([
        'validate',
        'server',
        '--junit',
        junit,
        '--badge',
        badge,
        '--',
        node,
        example,
      ]);
      assert.equal(code, 0);
      assert.match(out, /^✓ Tier 1: Capability negotiation \(MGP §2\) \.\.\. PASS$/m);
      assert.match(out, /^Result: Tier 3 compliant \(10\/11 extensions\)$/m);
      assert.match(out, /Badge: !\[MGP Tier 3\]\(.*mgp\.svg\)/);
      const xml = readFileSync(junit, 'utf8');
      assert.equal((xml.match(/<testcase /g) ?? []).length, ALL_SERVER_CHECKS.length);
      assert.match(xml, /failures="0"/);
      assert.match(readFileSync(badge, 'utf8'), /<svg[^>]*aria-label="MGP: Tier 3"/);
    });

    it('exits 1 below --require-tier and 0 at it; --json is the report', async () => {
      const above = await cli([
        'validate',
        'server',
        '--json',
        '--require-tier',
        '4',
        '--',
        node,
        example,
      ]);
      assert.equal(above.code, 1);
      const report = JSON.parse(above.out) as ValidationReport;
      assert.equal(report.tier, 3);
      assert.equal(report.checks.length, ALL_SERVER_CHECKS.length);
      const at = await cli([
        'validate',
        'server',
        '--json',
        '--require-tier',
        '3',
        '--',
        node,
        example,
      ]);
      assert.equal(at.code, 0);
    });

    it('exits 1 on a FAIL, with the FAIL explained under its line', async () => {
      const { code, out } = await cli([
        'validate',
        'server',
        '--',
        node,
        fixture('mgp-claims.js'),
        '--runs-without-grant',
      ]);
      assert.equal(code, 1);
      assert.match(
        out,
        /✗ Tier 2: Permission flow .* \.\.\. FAIL\n {4}write_note ran while memory\.write awaited/,
      );
      assert.match(out, /\n {4}expected: .*\n {4}received: a result: stored/);
    });

    it('validates a Streamable HTTP server by --url, and one of a config by --config --server', async () => {
      const child = spawn(node, [fixture('spec-features.js'), '--http', '0', '--mgp'], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      try {
        const url = await within(
          new Promise<string>((resolve) => {
            let text = '';
            child.stderr.on('data', (chunk: Buffer) => {
              text += chunk.toString();
              const found = /listening on (\S+)/.exec(text);
              if (found) resolve(found[1]);
            });
          }),
          'spec-features listening',
        );
        const http = await cli(['validate', 'server', '--json', '--url', url]);
        const report = JSON.parse(http.out) as ValidationReport;
        assert.equal(report.target, url);
        assert.equal(statusOf(report, 'mcp.initialize'), 'pass');
        // spec-features --mgp answers mgp whoever asks: a finding, over HTTP as over stdio.
        assert.deepEqual(failed(report), ['mgp.no-mgp-unasked']);
        assert.equal(http.code, 1);
      } finally {
        child.kill();
      }
      const config = join(dir, 'mgp.toml');
      writeFileSync(
        config,
        `[[servers]]\nid = "example"\ncommand = ${JSON.stringify(node)}\nargs = [${JSON.stringify(example)}]\n`,
      );
      const configured = await cli([
        'validate',
        'server',
        '--config',
        config,
        '--server',
        'example',
      ]);
      assert.equal(configured.code, 0);
      assert.match(configured.out, /Result: Tier 3 compliant/);
      const unknown = await cli(['validate', 'server', '--config', config, '--server', 'nope']);
      assert.equal(unknown.code, 2);
      assert.match(unknown.err, /has no server "nope" \(it has example\)/);
    });

    it('refuses bad usage with exit 2', async () => {
      assert.equal((await cli(['validate', 'server'])).code, 2);
      assert.equal((await cli(['validate', 'server', '--url', 'ftp://x'])).code, 2);
      assert.equal(
        (await cli(['validate', 'server', '--require-tier', '5', '--', node, example])).code,
        2,
      );
      assert.equal((await cli(['validate', 'server', '--config', 'x.toml'])).code, 2);
    });
  });
});
