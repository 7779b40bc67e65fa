import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergeConfigFiles, parseConfigText } from '../../client/src/kernel/config/load';
import { ServerManager } from '../../client/src/kernel/lifecycle/serverManager';
import type { LifecycleTransition } from '../../client/src/kernel/domain/serverState';
import { repoRoot } from '../repoRoot';
import { HANG_MS } from '../support/patience';

const node = JSON.stringify(process.execPath);
const fixture = (name: string) => JSON.stringify(join(repoRoot(), 'test/fixtures/servers', name));

/** A loopback port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('kernel: a server that fails to start says what to do', function () {
  let dir: string;
  let manager: ServerManager;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-start-failures-'));
    manager = new ServerManager({
      hostEnv: { PATH: process.env.PATH },
      secrets: { get: async () => undefined },
      workspaceFolders: () => [dir],
    });
  });
  afterEach(async () => {
    await manager.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts the one server of `toml` (no restarts) and returns the error it ends in. */
  async function startError(toml: string): Promise<string> {
    const path = join(dir, 'mgp.toml');
    const text = `${toml}[servers.mgp]\nrestart_policy = "never"\n`;
    writeFileSync(path, text);
    const file = parseConfigText(text, { path, format: 'mgp', origin: 'workspace' });
    const failed = new Promise<LifecycleTransition>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the server never failed')), HANG_MS);
      manager.bus.on('transition', (t: LifecycleTransition) => {
        if (t.new_state !== 'error') return;
        clearTimeout(timer);
        resolve(t);
      });
    });
    await manager.reconcile(mergeConfigFiles([file]));
    await failed;
    return manager.get('s').lastError ?? '';
  }

  it('shows the last line a stdio server wrote to stderr before it exited', async () => {
    const error = await startError(
      `[[servers]]\nid = "s"\ncommand = ${node}\nargs = [${fixture('crash-on-start.js')}]\n`,
    );
    assert.match(error, /exited during start-up/);
    assert.match(error, /fatal: refusing to start \(exit code 3\)/);
  });

  it('gives up on a server that shows no sign of work within connect_timeout_secs, saying so', async () => {
    const error = await startError(
      `[[servers]]\nid = "s"\ncommand = ${node}\nargs = [${fixture('hang.js')}, "--hang-initialize"]\nconnect_timeout_secs = 1\n`,
    );
    assert.match(
      error,
      /no answer to initialize, and no sign of work .* for 1 s \(connect_timeout_secs\)/,
    );
  });

  it('waits for a server that works silently past connect_timeout_secs (a first download)', async () => {
    const path = join(dir, 'mgp.toml');
    const text = `[[servers]]\nid = "s"\ncommand = ${node}\nargs = [${fixture('slow-start.js')}, "--busy-ms", "3500"]\nconnect_timeout_secs = 1\n[servers.mgp]\nrestart_policy = "never"\n`;
    writeFileSync(path, text);
    const file = parseConfigText(text, { path, format: 'mgp', origin: 'workspace' });
    const settled = new Promise<string>((resolve) =>
      manager.bus.on('transition', (t: LifecycleTransition) => {
        if (t.new_state === 'connected' || t.new_state === 'error') resolve(t.new_state);
      }),
    );
    await manager.reconcile(mergeConfigFiles([file]));
    assert.equal(await settled, 'connected', manager.get('s').lastError);
  });

  it('says a program that answers initialize with "method not found" is not an MCP server', async () => {
    const error = await startError(
      `[[servers]]\nid = "s"\ncommand = ${node}\nargs = [${fixture('not-mcp.js')}]\n`,
    );
    assert.match(error, /not an MCP server/);
  });

  it('says the connection was refused at the URL, without its query', async () => {
    const port = await closedPort();
    const error = await startError(
      `[[servers]]\nid = "s"\nurl = "http://127.0.0.1:${port}/mcp?key=abc"\ntransport = "http"\n`,
    );
    assert.match(error, new RegExp(`connection refused at http://127\\.0\\.0\\.1:${port}/mcp`));
    assert.doesNotMatch(error, /key=abc/);
  });
});
