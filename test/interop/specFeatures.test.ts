import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../client/src/cli/main';
import { repoRoot } from '../repoRoot';
import {
  eventually,
  fixtureServer,
  node,
  startKernel,
  TestKernel,
  textOf,
} from './support/kernelHarness';

const script = join(repoRoot(), 'test/fixtures/servers/spec-features.js');

/** spec-features.js over Streamable HTTP; its stderr lines kept (requests seen, sessions closed). */
async function httpSpecFeatures(...flags: string[]): Promise<{
  url: string;
  child: ChildProcess;
  lines: string[];
}> {
  const child = spawn(process.execPath, [script, '--http', '0', ...flags], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const lines: string[] = [];
  let rest = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    const parts = (rest + chunk.toString()).split('\n');
    rest = parts.pop() ?? '';
    lines.push(...parts);
  });
  await eventually(() => lines.some((l) => l.startsWith('listening on ')), 'the server listening');
  const url = lines.find((l) => l.startsWith('listening on '))!.slice('listening on '.length);
  return { url, child, lines };
}

const httpServer = (url: string) =>
  `[[servers]]\nid = "features"\ntransport = "http"\nurl = "${url}"\napproved_tools = ["*"]\n`;
const stdioServer = (...flags: string[]) =>
  `[[servers]]\nid = "features"\ncommand = ${node}\nargs = [${[fixtureServer('spec-features.js'), ...flags.map((f) => JSON.stringify(f))].join(', ')}]\napproved_tools = ["*"]\n`;

describe('MCP 2025-11-25 client features, against an SDK server', function () {
  let t: TestKernel | undefined;
  let http: { url: string; child: ChildProcess; lines: string[] } | undefined;
  afterEach(async () => {
    await t?.dispose();
    t = undefined;
    http?.child.kill();
    http = undefined;
  });

  it('a Streamable HTTP session is closed with DELETE when the kernel disconnects', async () => {
    http = await httpSpecFeatures();
    t = await startKernel(httpServer(http.url));
    assert.equal(t.kernel.manager.get('features').state, 'connected');
    const opened = http.lines.filter((l) => l.startsWith('session opened '));
    assert.equal(opened.length, 1, http.lines.join('\n'));
    const sessionId = opened[0].slice('session opened '.length);
    assert.ok(!http.lines.some((l) => l.startsWith('session closed')));
    await t.kernel.manager.stop('features');
    await eventually(
      () => http!.lines.includes(`session closed ${sessionId}`),
      'the DELETE of the session',
    );
  });

  it('outputSchema: a result that fits passes unmarked; one that does not is marked, never silent', async () => {
    t = await startKernel(stdioServer());
    const good = await t.kernel.call({
      serverId: 'features',
      toolName: 'weather',
      args: { city: 'Oslo' },
    });
    assert.equal(good.result.outputSchemaMismatch, undefined);
    assert.equal(textOf(good.result), 'Oslo: 21 °C');
    const bad = await t.kernel.call({
      serverId: 'features',
      toolName: 'broken_weather',
      args: { city: 'Oslo' },
    });
    assert.match(bad.result.outputSchemaMismatch?.problem ?? '', /celsius.*number/);
    assert.match(textOf(bad.result), /does not match broken_weather's output schema/);
    assert.deepEqual(bad.result.structuredContent, { city: 'Oslo', celsius: 'warm' });
    const executed = await t.ofType('TOOL_EXECUTED');
    const marked = executed.map(
      (r) => (r as unknown as { details?: { output_schema_mismatch?: boolean } }).details,
    );
    assert.deepEqual(
      marked.map((d) => d?.output_schema_mismatch === true),
      [false, true],
      JSON.stringify(executed),
    );
  });

  it('outputSchema: `mgp call` prints the mark, in text and in --json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mgp-spec-features-'));
    const stateHome = process.env.XDG_STATE_HOME;
    process.env.XDG_STATE_HOME = join(dir, 'state');
    try {
      const config = join(dir, 'mgp.toml');
      writeFileSync(config, stdioServer());
      const run = async (...args: string[]) => {
        let out = '';
        const code = await runCli(args, {
          out: (line) => (out += `${line}\n`),
          err: () => undefined,
          write: (text) => (out += text),
        });
        return { code, out };
      };
      const text = await run(
        'call',
        'features',
        'broken_weather',
        '--config',
        config,
        '--args',
        '{"city":"Oslo"}',
      );
      assert.match(text.out, /does not match broken_weather's output schema: .*celsius/);
      const json = await run(
        'call',
        'features',
        'broken_weather',
        '--config',
        config,
        '--args',
        '{"city":"Oslo"}',
        '--json',
      );
      const result = JSON.parse(json.out) as { outputSchemaMismatch?: { problem: string } };
      assert.match(result.outputSchemaMismatch?.problem ?? '', /celsius/);
      const fits = await run(
        'call',
        'features',
        'weather',
        '--config',
        config,
        '--args',
        '{"city":"Oslo"}',
        '--json',
      );
      assert.equal(
        (JSON.parse(fits.out) as { outputSchemaMismatch?: unknown }).outputSchemaMismatch,
        undefined,
      );
    } finally {
      if (stateHome === undefined) delete process.env.XDG_STATE_HOME;
      else process.env.XDG_STATE_HOME = stateHome;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
