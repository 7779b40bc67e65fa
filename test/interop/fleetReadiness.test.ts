import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { repoRoot } from '../repoRoot';
import { eventually, within } from '../support/patience';
import { cliPath, GatewayWorkspace, stdioGateway } from './support/gatewayProcess';

const node = JSON.stringify(process.execPath);
const fixture = (name: string) => JSON.stringify(join(repoRoot(), 'test/fixtures/servers', name));

/**
 * A server of the fleet, outside the sandbox: what is judged here is the connect deadline, and a
 * sandbox's own start-up would count as the server's work.
 */
const server = (id: string, command: string, args: string[], extra = '') =>
  `[[servers]]\nid = "${id}"\ncommand = ${command}\nargs = [${args.join(', ')}]\n${extra}[servers.sandbox]\nmode = "off"\n[servers.mgp]\nrestart_policy = "never"\n`;

/** One that answers at once. */
const ready = server('ready', node, [fixture('params-echo.js')]);
/** One that downloads (writes progress to stderr) for `ms` before it serves; connect timeout 1 s. */
const downloading = (ms: number, marker: string) =>
  server(
    'downloading',
    node,
    [fixture('downloading.js'), '"--busy-ms"', `"${ms}"`, '"--pid-file"', JSON.stringify(marker)],
    'connect_timeout_secs = 1\n',
  );
/** One that hangs: a process that never answers and shows no sign of work; connect timeout 1 s. */
const hanging = server('hanging', '"sleep"', ['"600"'], 'connect_timeout_secs = 1\n');

interface Listing {
  tools: { name: string; server: string }[];
  not_ready: { server: string; state: string; starting: boolean; reason: string }[];
}

/** `mgp <args>` in its own process, as a person runs it. */
function mgp(workspace: GatewayWorkspace, args: string[]) {
  const child = spawn(process.execPath, [cliPath, ...args, '--config', workspace.config], {
    cwd: workspace.dir,
    env: { ...workspace.env, MGP_PREAPPROVED_SERVERS: '*' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return within(
    new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
      child.on('close', (code) => resolve({ code, out, err })),
    ),
    `mgp ${args.join(' ')}`,
  );
}

/** The processes whose command line names `marker` (a path only this test's servers are given). */
function processesNaming(marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** A workspace whose config `toml` writes, given the marker path its downloading server is given. */
function fleet(toml: (marker: string) => string[]): {
  workspace: GatewayWorkspace;
  marker: string;
} {
  const workspace = new GatewayWorkspace('');
  const marker = join(workspace.dir, 'downloading.pid');
  writeFileSync(workspace.config, toml(marker).join('\n'));
  return { workspace, marker };
}

describe('a fleet of servers: a listing is complete or names who is not ready', function () {
  if (process.platform !== 'linux') return;
  let workspace: GatewayWorkspace;
  afterEach(() => workspace?.remove());

  it('mgp tools names a straggler still downloading apart from a server that hangs, and leaves neither running', async () => {
    // Downloading for ten minutes: the command ends long before, after one connect timeout.
    const made = fleet((marker) => [ready, downloading(600_000, marker), hanging]);
    workspace = made.workspace;
    const marker = made.marker;

    const { code, out, err } = await mgp(workspace, ['tools', '--json']);

    assert.equal(code, 1, 'an incomplete listing fails');
    const listing = JSON.parse(out) as Listing;
    assert.deepEqual(
      [...new Set(listing.tools.map((tool) => tool.server))],
      ['ready'],
      'the ready server is listed',
    );
    const byServer = Object.fromEntries(listing.not_ready.map((entry) => [entry.server, entry]));
    assert.deepEqual(Object.keys(byServer).sort(), ['downloading', 'hanging']);
    assert.equal(byServer.downloading.state, 'connecting');
    assert.equal(byServer.downloading.starting, true);
    assert.match(
      byServer.downloading.reason,
      /^still starting after 1 s, writing to stderr \(a first download\?\); it may take up to 10 s$/,
    );
    assert.equal(byServer.hanging.state, 'error');
    assert.equal(byServer.hanging.starting, false);
    assert.match(byServer.hanging.reason, /no sign of work .* for 1 s/);
    // The same on stderr, in words.
    assert.match(err, /^downloading: connecting: still starting after 1 s, writing to stderr/m);
    assert.match(err, /^hanging: error: .*no sign of work/m);
    // The straggler was stopped with the command: nothing it started is left.
    await eventually(
      () => processesNaming(marker).length === 0,
      'the straggler to end with the command',
    );
  });

  it('mgp call waits for its server while it downloads, and calls it', async () => {
    workspace = fleet((marker) => [downloading(2500, marker)]).workspace;
    const { code, out, err } = await mgp(workspace, [
      'call',
      'downloading',
      'echo',
      '--args',
      '{"text":"arrived"}',
    ]);
    assert.equal(code, 0, err);
    assert.match(out, /arrived/);
  });

  it('the gateway lists what is ready, names the straggler in _meta, and tells the client when it connects', async () => {
    workspace = fleet((marker) => [ready, downloading(2500, marker)]).workspace;
    const changed: unknown[] = [];
    const gateway = await stdioGateway(workspace, ['--expose', 'all', '--names', 'spec'], {
      setUp: (client) =>
        client.setNotificationHandler(ToolListChangedNotificationSchema, (n) => {
          changed.push(n);
        }),
    });
    try {
      const first = await gateway.client.listTools();
      const names = first.tools.map((tool) => tool.name);
      assert.ok(names.includes('ready.echo'), names.join(', '));
      assert.ok(!names.includes('downloading.echo'));
      const notReady = first._meta?.['dev.mgp-kernel/not_ready'] as Listing['not_ready'];
      assert.deepEqual(
        notReady.map(({ server, state, starting }) => ({ server, state, starting })),
        [{ server: 'downloading', state: 'connecting', starting: true }],
      );
      assert.match(notReady[0].reason, /still starting after 1 s, writing to stderr/);

      await eventually(() => changed.length > 0, 'tools/list_changed once the straggler connects');
      const again = await gateway.client.listTools();
      assert.ok(again.tools.some((tool) => tool.name === 'downloading.echo'));
      assert.equal(again._meta?.['dev.mgp-kernel/not_ready'], undefined);
    } finally {
      await gateway.close();
    }
  });
});
