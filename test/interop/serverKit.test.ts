import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { type ValidationReport, validateServer } from '../../client/src/kernel';
import { repoRoot } from '../repoRoot';

// The server kit's Tier 3 helpers (streams with cancel, events, lifecycle), on a server written
// here against the kit's sources, bundled with esbuild and judged by mgp validate server.

const root = repoRoot();

const SOURCE = (kit: string) => `
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { enableMgp } from ${JSON.stringify(kit)};
import { z } from 'zod';

const server = new McpServer({ name: 'kit-tier3', version: '0.1.0' });
const mgp = enableMgp(server, { trustLevel: 'standard', serverId: 'kit-tier3', tier3: true });
server.registerTool(
  'count',
  { description: 'Counts to n, one chunk a number.', inputSchema: { n: z.number().int().min(1).default(5) } },
  async ({ n }, extra) => {
    const stream = mgp.stream(extra);
    for (let i = 1; i <= n && !stream.signal.aborted; i++) {
      await stream.chunk(String(i) + ' ', i === n);
      await stream.progress(i / n);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    await mgp.emit('tool.completed', { tool: 'count' });
    return { content: [{ type: 'text', text: stream.text }] };
  },
);
mgp.secure('count', { risk_level: 'safe' });
server.connect(new StdioServerTransport()).then(() => mgp.announce('connected', 'started'));
`;

describe('mgp-server-kit', function () {
  let dir: string;
  let report: ValidationReport;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-kit-'));
    const entry = join(dir, 'server.ts');
    writeFileSync(entry, SOURCE(join(root, 'packages/mgp-server-kit/src/index.ts')));
    await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: join(dir, 'server.js'),
      nodePaths: [join(root, 'node_modules')],
      logLevel: 'error',
    });
    report = await validateServer({
      target: {
        kind: 'command',
        command: process.execPath,
        args: [join(dir, 'server.js')],
        cwd: dir,
      },
    });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('takes a server to Tier 3: streams, cancel, events and health', () => {
    const failed = report.checks.filter((check) => check.status === 'fail');
    assert.deepEqual(failed, []);
    assert.equal(report.tier, 3);
    const streaming = report.checks.find((check) => check.id === 'mgp.streaming')!;
    assert.match(streaming.detail, /count streamed 5 chunks; a cancel mid-stream ended the call/);
    const events = report.checks.find((check) => check.id === 'mgp.bidirectional')!;
    assert.match(events.detail, /tool\.completed/);
  });
});
