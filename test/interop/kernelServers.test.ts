import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfigText } from '../../client/src/kernel/config/load';
import type { KernelConfig } from '../../client/src/kernel/config/types';
import { mergeConfigFiles } from '../../client/src/kernel/config/load';
import type { KernelEvent } from '../../client/src/kernel/lifecycle/events';
import type { LifecycleTransition } from '../../client/src/kernel/domain/serverState';
import { ServerManager } from '../../client/src/kernel/lifecycle/serverManager';
import { repoRoot } from '../repoRoot';
import { HANG_MS } from '../support/patience';

const root = repoRoot();
const node = JSON.stringify(process.execPath);
const everything = JSON.stringify(
  join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
);
const example = JSON.stringify(join(root, 'examples/servers/dist/mgp-example-server.js'));
const fixture = (name: string) => JSON.stringify(join(root, 'test/fixtures/servers', name));

function configOf(dir: string, toml: string): KernelConfig {
  const path = join(dir, 'mgp.toml');
  writeFileSync(path, toml);
  const file = parseConfigText(toml, { path, format: 'mgp', origin: 'workspace' });
  assert.deepEqual(
    file.problems.filter((p) => p.severity === 'error'),
    [],
  );
  return mergeConfigFiles([file]);
}

function text(result: { content?: { type: string; text?: string }[] }): string {
  return (result.content ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('');
}

function waitFor<T>(
  manager: ServerManager,
  event: 'transition' | 'event',
  accept: (value: T) => boolean,
  timeoutMs = HANG_MS,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ${event} matched within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const listener = (value: T) => {
      if (!accept(value)) return;
      clearTimeout(timer);
      manager.bus.off(event, listener as never);
      resolve(value);
    };
    manager.bus.on(event, listener as never);
  });
}

describe('kernel: real servers under the server manager', function () {
  let dir: string;
  let manager: ServerManager;
  const secrets = {
    get: async (name: string) => (name === 'TOKEN' ? 'from-secret-storage' : undefined),
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-kernel-'));
    manager = new ServerManager({
      hostEnv: { PATH: process.env.PATH, HOST_ONLY: 'must-not-leak', PASSED: 'yes' },
      secrets,
      // The test folder is the workspace: what a sandboxed server may write (its state files).
      workspaceFolders: () => [dir],
    });
  });
  afterEach(async () => {
    await manager.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects our example server and server-everything, lists tools under unique names and calls them', async () => {
    await manager.reconcile(
      configOf(
        dir,
        `[[servers]]\nid = "example"\ncommand = ${node}\nargs = [${example}]\n\n[[servers]]\nid = "everything"\ncommand = ${node}\nargs = [${everything}, "stdio"]\n`,
      ),
    );
    assert.deepEqual(
      manager.list().map((s) => [s.id, s.state]),
      [
        ['example', 'connected'],
        ['everything', 'connected'],
      ],
    );
    const names = manager.tools().map((t) => t.qualifiedName);
    for (const name of ['example.echo', 'example.add', 'everything.echo', 'everything.get-sum'])
      assert.ok(names.includes(name), name);
    assert.ok(manager.get('everything').resources.length > 0);
    assert.ok(manager.get('everything').prompts.length > 0);
    const sum = await manager.callTool('example', 'add', { a: 2, b: 3 });
    assert.deepEqual(sum.structuredContent, { sum: 5 });
    assert.match(text(await manager.callTool('everything', 'echo', { message: 'hi' })), /hi/);
    await assert.rejects(manager.callTool('example', 'nope', {}), /has no tool "nope"/);
  });

  it('gives a stdio server only PATH and the variables its config lists, with ${VAR} and ${secret:…} resolved', async () => {
    await manager.reconcile(
      configOf(
        dir,
        `[[servers]]\nid = "everything"\ncommand = ${node}\nargs = [${everything}, "stdio"]\n[servers.env]\nFROM_HOST = "\${PASSED}"\nAPI_TOKEN = "\${secret:TOKEN}"\n`,
      ),
    );
    const env = JSON.parse(text(await manager.callTool('everything', 'get-env', {})));
    assert.equal(env.FROM_HOST, 'yes');
    assert.equal(env.API_TOKEN, 'from-secret-storage');
    assert.equal(env.HOST_ONLY, undefined);
    assert.ok(env.PATH);
  });

  it('caps a tool result at tool_result_max_chars and marks it truncated', async () => {
    await manager.reconcile(
      configOf(
        dir,
        `[[servers]]\nid = "example"\ncommand = ${node}\nargs = [${example}]\ntool_result_max_chars = 10\n`,
      ),
    );
    const result = await manager.callTool('example', 'echo', { text: 'x'.repeat(100) });
    assert.deepEqual(result.truncated, { originalChars: 100, keptChars: 10 });
    assert.match(text(result), /^x{10}\n\[truncated: 90 of 100 characters omitted\]$/);
  });

  it('drains on stop: the in-flight call finishes, a new one is refused with 2001, then it disconnects', async () => {
    await manager.reconcile(
      configOf(
        dir,
        `[[servers]]\nid = "everything"\ncommand = ${node}\nargs = [${everything}, "stdio"]\n`,
      ),
    );
    const server = manager.get('everything');
    let sent!: () => void;
    const onTheWire = new Promise<void>((resolve) => (sent = resolve));
    const inFlight = manager.callTool(
      'everything',
      'trigger-long-running-operation',
      { duration: 1, steps: 2 },
      { onSent: () => sent() },
    );
    await onTheWire;
    const stopping = manager.stop('everything');
    assert.equal(server.state, 'draining');
    await assert.rejects(
      manager.callTool('everything', 'echo', { message: 'late' }),
      (error: { code?: string; wireCode?: number }) =>
        error.code === 'ServerDraining' && error.wireCode === 2001,
    );
    assert.match(text(await inFlight), /completed/i);
    await stopping;
    assert.equal(server.state, 'disconnected');
  });

  it('times out a hanging call, cancels it, and stays connected', async () => {
    await manager.reconcile(
      configOf(
        dir,
        `[[servers]]\nid = "hang"\ncommand = ${node}\nargs = [${fixture('hang.js')}]\nrequest_timeout_secs = 0.5\n`,
      ),
    );
    await assert.rejects(
      manager.callTool('hang', 'echo', { text: 'x' }),
      (error: { code?: string }) => error.code === 'Timeout',
    );
    assert.equal(manager.get('hang').state, 'connected');
  });

  it('restarts a server that fails on start with backoff, then gives up with restart_limit_exceeded', async () => {
    const transitions: LifecycleTransition[] = [];
    manager.bus.on('transition', (t) => transitions.push(t));
    const gaveUp = waitFor<KernelEvent>(manager, 'event', (e) => e.type === 'SERVER_DISCONNECTED');
    await manager.reconcile(
      configOf(
        dir,
        `[[servers]]\nid = "crashy"\ncommand = ${node}\nargs = [${fixture('crash-on-start.js')}]\n[servers.mgp]\nrestart_policy = "on_failure"\nmax_restarts = 2\nbackoff_base_ms = 50\nbackoff_max_ms = 100\n`,
      ),
    );
    const event = await gaveUp;
    assert.equal(event.detail?.reason, 'restart_limit_exceeded');
    assert.deepEqual(
      transitions.map((t) => t.new_state),
      [
        'connecting',
        'error',
        'restarting',
        'connecting',
        'error',
        'restarting',
        'connecting',
        'error',
      ],
    );
    assert.equal(manager.get('crashy').state, 'error');
  });

  it('restarts a server that crashes while connected, and serves calls again', async () => {
    const stateFile = join(dir, 'starts.txt');
    await manager.reconcile(
      configOf(
        dir,
        `[[servers]]\nid = "flaky"\ncommand = ${node}\nargs = [${fixture('crash-after-calls.js')}, "2", "--state-file", ${JSON.stringify(stateFile)}]\n[servers.mgp]\nbackoff_base_ms = 50\n`,
      ),
    );
    assert.match(text(await manager.callTool('flaky', 'echo', { text: 'one' })), /one/);
    const reconnected = waitFor<LifecycleTransition>(
      manager,
      'transition',
      (t) => t.new_state === 'connected' && t.reason === 'restart_policy',
    );
    await assert.rejects(manager.callTool('flaky', 'echo', { text: 'two' }));
    await reconnected;
    assert.match(text(await manager.callTool('flaky', 'echo', { text: 'three' })), /three/);
  });

  it('reconciles a changed config: new servers start, removed stop, changed restart, unchanged stay', async () => {
    const base = `[[servers]]\nid = "a"\ncommand = ${node}\nargs = [${example}]\n`;
    await manager.reconcile(
      configOf(dir, `${base}\n[[servers]]\nid = "b"\ncommand = ${node}\nargs = [${example}]\n`),
    );
    const a = manager.get('a');
    const b = manager.get('b');
    await manager.reconcile(
      configOf(
        dir,
        `${base}\n[[servers]]\nid = "b"\ncommand = ${node}\nargs = [${example}, "--changed"]\n\n[[servers]]\nid = "c"\ncommand = ${node}\nargs = [${example}]\n`,
      ),
    );
    assert.equal(manager.get('a'), a, 'unchanged server kept');
    assert.notEqual(manager.get('b'), b, 'changed server replaced');
    assert.equal(b.state, 'disconnected');
    assert.deepEqual(
      manager.list().map((s) => [s.id, s.state]),
      [
        ['a', 'connected'],
        ['b', 'connected'],
        ['c', 'connected'],
      ],
    );
    await manager.reconcile(configOf(dir, base));
    assert.deepEqual(
      manager.list().map((s) => s.id),
      ['a'],
    );
  });

  it('starts the servers its start gate held back once the gate opens: on reconcile and on startHeld, not after a stop', async () => {
    let open = false;
    const gated = new ServerManager({
      hostEnv: { PATH: process.env.PATH },
      secrets,
      mayStart: (server) => open || server.id === 'free' || 'the workspace is not trusted',
    });
    try {
      const config = configOf(
        dir,
        ['a', 'b', 'free']
          .map((id) => `[[servers]]\nid = "${id}"\ncommand = ${node}\nargs = [${example}]\n`)
          .join('\n'),
      );
      await gated.reconcile(config);
      assert.deepEqual(
        gated.list().map((s) => [s.id, s.state, s.heldBack]),
        [
          ['a', 'registered', 'the workspace is not trusted'],
          ['b', 'registered', 'the workspace is not trusted'],
          ['free', 'connected', undefined],
        ],
      );
      const free = gated.get('free');
      await gated.stop('b'); // the operator stopped it: not started when the gate opens
      open = true;
      await gated.reconcile(config); // the same config: nothing changed but the gate
      assert.deepEqual(
        gated.list().map((s) => [s.id, s.state, s.heldBack]),
        [
          ['a', 'connected', undefined],
          ['b', 'disconnected', undefined],
          ['free', 'connected', undefined],
        ],
      );
      assert.equal(gated.get('free'), free, 'the running server was left alone');

      open = false;
      await gated.reconcile(
        configOf(dir, `[[servers]]\nid = "c"\ncommand = ${node}\nargs = [${example}]\n`),
      );
      assert.equal(gated.get('c').state, 'registered');
      open = true;
      await gated.startHeld();
      assert.equal(gated.get('c').state, 'connected');
    } finally {
      await gated.dispose();
    }
  });
});
