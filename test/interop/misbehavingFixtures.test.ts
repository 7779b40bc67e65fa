import { strict as assert } from 'node:assert';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StdioClientTransport,
  type StdioServerParameters,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { repoRoot } from '../repoRoot';
import { eventually, HANG_MS, whileProgressing, within } from '../support/patience';

// Proves that each fixture in test/fixtures/servers misbehaves exactly as its README line says, as
// seen by the official SDK client (Client + StdioClientTransport) the kernel is built on.

const fixtures = join(repoRoot(), 'test/fixtures/servers');
const FLOOD_COUNT = 100_000;

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * The SDK transport keeps its ChildProcess private and forgets it on 'close'; the tests need the
 * exit code, so this subclass picks the child up right after start() and listens for 'close'
 * (which comes after the stdio streams have ended, so stderr is complete by then).
 */
class ObservedTransport extends StdioClientTransport {
  readonly exited: Promise<Exit>;
  childPid: number | undefined;
  private resolveExit!: (exit: Exit) => void;

  constructor(params: StdioServerParameters) {
    super(params);
    this.exited = new Promise((resolve) => (this.resolveExit = resolve));
  }

  override async start(): Promise<void> {
    await super.start();
    const child = (this as unknown as { _process?: ChildProcess })._process;
    assert.ok(child, 'the SDK transport has no child process after start()');
    this.childPid = child.pid;
    child.once('close', (code, signal) => this.resolveExit({ code, signal }));
  }
}

/** One fixture process behind one SDK client, with everything the tests observe. */
interface Fixture {
  client: Client;
  transport: ObservedTransport;
  /** Errors reported through client.onerror (the transport's onerror is chained into it by the SDK). */
  errors: Error[];
  /** Date.now() of the first error, if any. */
  firstErrorAt?: number;
  /** Resolves when the transport's onclose fires. */
  transportClosed: Promise<void>;
  /** Resolves when the client's onclose fires. */
  clientClosed: Promise<void>;
  stderr(): string;
}

const started: Fixture[] = [];

function fixture(
  script: string,
  args: string[] = [],
  extra: Partial<StdioServerParameters> = {},
): Fixture {
  const transport = new ObservedTransport({
    command: process.execPath,
    args: [join(fixtures, script), ...args],
    stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '' },
    ...extra,
  });
  let stderr = '';
  // Always drain stderr: an unread pipe would eventually block the child.
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const transportClosed = new Promise<void>((resolve) => (transport.onclose = resolve));
  const client = new Client({ name: 'mgp-kernel-misbehaving-fixtures', version: '0.0.0' });
  const errors: Error[] = [];
  const clientClosed = new Promise<void>((resolve) => (client.onclose = resolve));
  const f: Fixture = {
    client,
    transport,
    errors,
    transportClosed,
    clientClosed,
    stderr: () => stderr,
  };
  client.onerror = (error) => {
    f.firstErrorAt ??= Date.now();
    errors.push(error);
  };
  started.push(f);
  return f;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Closes every client and transport started by the test; asserts that no process outlives it. */
async function cleanUp(): Promise<void> {
  const all = started.splice(0);
  await Promise.all(
    all.map(async (f) => {
      await f.client.close().catch(() => undefined);
      await f.transport.close().catch(() => undefined); // a no-op unless the client had already let go
      const pid = f.transport.childPid;
      if (pid === undefined) return;
      await within(f.transport.exited, `fixture process ${pid} to exit`).catch(() => {
        if (isAlive(pid)) process.kill(pid, 'SIGKILL');
      });
      assert.equal(isAlive(pid), false, `fixture process ${pid} is still running`);
    }),
  );
}

function text(result: unknown): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('');
}

/** A call whose request timeout is the hang deadline unless the test is about timeouts. */
function echo(client: Client, value: string, timeout = HANG_MS) {
  return client.callTool({ name: 'echo', arguments: { text: value } }, undefined, { timeout });
}

function mcpError(code: ErrorCode, message?: RegExp) {
  return (error: unknown): boolean => {
    assert.ok(error instanceof McpError, `expected an McpError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    if (message) assert.match(error.message, message);
    return true;
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('interop: misbehaving MCP server fixtures under the SDK client', function () {
  afterEach(cleanUp);

  describe('crash-on-start.js', () => {
    it('makes connect reject with "Connection closed"; the process exits with code 3 and says why on stderr', async () => {
      const f = fixture('crash-on-start.js');
      await assert.rejects(
        within(f.client.connect(f.transport), 'connect'),
        mcpError(ErrorCode.ConnectionClosed),
      );
      const exit = await within(f.transport.exited, 'exit');
      assert.deepEqual(exit, { code: 3, signal: null });
      await within(f.transportClosed, 'transport onclose');
      await settle();
      assert.match(f.stderr(), /^\[crash-on-start\] fatal: refusing to start \(exit code 3\)\n$/);
    });
  });

  describe('crash-after-calls.js', () => {
    let dir: string;
    before(() => (dir = mkdtempSync(join(tmpdir(), 'mgp-crash-after-calls-'))));
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('answers 2 calls, then the 3rd rejects, the transport closes and the exit code is 1 (default N = 3)', async () => {
      const f = fixture('crash-after-calls.js');
      await within(f.client.connect(f.transport), 'connect');
      assert.deepEqual(
        (await f.client.listTools()).tools.map((t) => t.name),
        ['echo'],
      );
      assert.equal(text(await echo(f.client, 'one')), 'one');
      assert.equal(text(await echo(f.client, 'two')), 'two');
      await assert.rejects(
        within(echo(f.client, 'three'), 'third call'),
        mcpError(ErrorCode.ConnectionClosed),
      );
      await within(f.transportClosed, 'transport onclose');
      assert.deepEqual(await f.transport.exited, { code: 1, signal: null });
      await settle();
      assert.match(f.stderr(), /crashing on tools\/call #3 \(echo\) without answering/);
      assert.deepEqual(f.errors, []);
    });

    it('takes N from argv and appends one line per start to --state-file (3 restarts, N = 1)', async () => {
      const stateFile = join(dir, 'starts.log');
      for (let start = 1; start <= 3; start++) {
        const f = fixture('crash-after-calls.js', ['1', '--state-file', stateFile]);
        await within(f.client.connect(f.transport), 'connect');
        assert.deepEqual(await f.client.ping(), {});
        await assert.rejects(
          within(echo(f.client, 'first'), 'first call'),
          mcpError(ErrorCode.ConnectionClosed),
        );
        assert.equal((await within(f.transport.exited, 'exit')).code, 1);
        const lines = readFileSync(stateFile, 'utf8').split('\n').filter(Boolean);
        assert.equal(lines.length, start);
        assert.match(lines[start - 1], new RegExp(`^start pid=${f.transport.childPid} at=\\d{4}-`));
      }
    });
  });

  describe('hang.js', () => {
    it('initializes and lists tools, never answers tools/call (timeout 500 ms), stays up, and exits 0 once stdin closes', async () => {
      const f = fixture('hang.js');
      await within(f.client.connect(f.transport), 'connect');
      assert.equal(f.client.getServerVersion()?.name, 'hang');
      assert.deepEqual(
        (await f.client.listTools()).tools.map((t) => t.name),
        ['echo'],
      );
      const t0 = Date.now();
      await assert.rejects(
        within(echo(f.client, 'anyone?', 500), 'the timeout'),
        mcpError(ErrorCode.RequestTimeout, /Request timed out/),
      );
      const waited = Date.now() - t0;
      assert.ok(waited >= 490, `timed out after ${waited} ms, before its 500`);
      await f.client.ping(); // the connection survives a timed-out call
      const pid = f.transport.childPid!;
      assert.equal(isAlive(pid), true);
      await f.client.close();
      const exit = await within(f.transport.exited, 'exit after close');
      // Exit code 0 and no signal: it left on its own when stdin closed, before the SDK's 2 s SIGTERM.
      assert.deepEqual(exit, { code: 0, signal: null });
      assert.match(f.stderr(), /tools\/call echo received; never answering it/);
    });

    it('--hang-initialize: connect with { timeout: 500 } rejects with a timeout, and the process exits 0 on close', async () => {
      const f = fixture('hang.js', ['--hang-initialize']);
      await assert.rejects(
        within(f.client.connect(f.transport, { timeout: 500 }), 'connect'),
        mcpError(ErrorCode.RequestTimeout),
      );
      // The SDK closes the transport itself when initialization fails.
      await within(f.transportClosed, 'transport onclose');
      assert.deepEqual(await within(f.transport.exited, 'exit'), { code: 0, signal: null });
      assert.match(f.stderr(), /initialize received; never answering it/);
    });
  });

  describe('huge-message.js', () => {
    it('with the SDK default maxBufferSize (10 MB) the transport reports "ReadBuffer exceeded" and the call fails with "Connection closed"', async () => {
      const f = fixture('huge-message.js');
      await within(f.client.connect(f.transport), 'connect');
      const t0 = Date.now();
      await assert.rejects(
        within(echo(f.client, 'big'), 'huge call'),
        mcpError(ErrorCode.ConnectionClosed),
      );
      const rejectedAfter = Date.now() - t0;
      await within(f.transportClosed, 'transport onclose');
      // The SDK ends stdin and, if the process is still there 2 s later, sends SIGTERM. The server
      // flushes its 50 MB line before leaving, so which of the two happens depends on how fast the
      // SDK drains the rest of the line (see the console line below).
      const exit = await within(f.transport.exited, 'exit');
      assert.ok(
        (exit.code === 0 && exit.signal === null) ||
          (exit.code === null && exit.signal === 'SIGTERM'),
        JSON.stringify(exit),
      );
      const overflow = f.errors.filter((e) =>
        /ReadBuffer exceeded maximum size of 10485760 bytes/.test(e.message),
      );
      assert.ok(overflow.length >= 1, f.errors.map((e) => e.message).join('\n'));
      console.log(
        `      huge-message, default buffer: first onerror after ${(f.firstErrorAt ?? NaN) - t0} ms, call rejected after ${rejectedAfter} ms, process ended ${JSON.stringify(exit)} after ${Date.now() - t0} ms; ` +
          `client.onerror got ${f.errors.length} error(s): ` +
          `${overflow.length} × "${overflow[0].message}", others: ${JSON.stringify([...new Set(f.errors.filter((e) => !overflow.includes(e)).map((e) => e.message.slice(0, 80)))])}`,
      );
    });

    it('with maxBufferSize raised to 64 MB a 16 MiB text (over the 10 MB default) arrives, and a following ping is answered', async function () {
      // The SDK's ReadBuffer concatenates every ~64 KB pipe chunk onto the whole pending line and
      // rescans it for '\n': quadratic, ~15-25 s of CPU for one 50 MB line on a small machine, many
      // times that on a loaded one. 16 MiB is over the default limit at a tenth of that cost.
      const f = fixture('huge-message.js', ['--mb', '16'], { maxBufferSize: 64 * 1024 * 1024 });
      await within(f.client.connect(f.transport), 'connect');
      const t0 = Date.now();
      const result = await within(echo(f.client, 'big'), 'huge call');
      const elapsed = Date.now() - t0;
      const received = text(result);
      assert.equal(received.length, 16 * 1024 * 1024);
      assert.equal(received, 'x'.repeat(16 * 1024 * 1024));
      assert.deepEqual(await f.client.ping(), {});
      assert.deepEqual(f.errors, []);
      console.log(
        `      huge-message, 64 MB buffer: ${received.length} characters in ${elapsed} ms`,
      );
    });
  });

  describe('invalid-json.js', () => {
    it('reports the garbage line through client.onerror, and the correct response still arrives', async () => {
      const f = fixture('invalid-json.js');
      await within(f.client.connect(f.transport), 'connect');
      assert.equal(f.errors.length, 0);
      assert.equal(text(await within(echo(f.client, 'after garbage'), 'call')), 'after garbage');
      assert.equal(f.errors.length, 1);
      assert.ok(f.errors[0] instanceof SyntaxError, String(f.errors[0]));
      assert.equal(text(await within(echo(f.client, 'again'), 'call')), 'again');
      assert.equal(f.errors.length, 2);
      await f.client.ping();
      console.log(
        `      invalid-json: ${f.errors.length} onerror reports for 2 calls, e.g. ${f.errors[0].name}: ${f.errors[0].message}`,
      );
    });

    it('--only-garbage: three errors are reported, the call times out, and the connection stays usable', async () => {
      const f = fixture('invalid-json.js', ['--only-garbage']);
      await within(f.client.connect(f.transport), 'connect');
      await assert.rejects(echo(f.client, 'never', 1000), mcpError(ErrorCode.RequestTimeout));
      await eventually(() => f.errors.length >= 3, 'three garbage lines reported');
      assert.equal(f.errors.length, 3, f.errors.map((e) => e.message).join('\n'));
      assert.ok(f.errors.every((e) => e instanceof SyntaxError));
      assert.deepEqual(await f.client.ping(), {});
      console.log(
        `      invalid-json --only-garbage: ${f.errors.map((e) => `${e.name}: ${e.message}`).join(' | ')}`,
      );
    });
  });

  describe('notification-flood.js', () => {
    it('delivers all 100,000 logging notifications in order, and tools/call is answered during and after the flood', async () => {
      const f = fixture('notification-flood.js');
      let count = 0;
      let outOfOrder = 0;
      f.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
        if (notification.params.data !== `flood ${count}` || notification.params.level !== 'info')
          outOfOrder++;
        count++;
      });
      const t0 = Date.now();
      await within(f.client.connect(f.transport), 'connect');
      assert.deepEqual(f.client.getServerCapabilities()?.logging, {});
      // Sent right after initialization, i.e. while the flood is under way.
      assert.equal(text(await within(echo(f.client, 'during'), 'call during the flood')), 'during');
      const countAtFirstAnswer = count;
      assert.ok(countAtFirstAnswer < FLOOD_COUNT, 'the call was answered only after the flood');
      await whileProgressing(
        () => count === FLOOD_COUNT,
        () => count,
        'the flood',
      );
      const floodMs = Date.now() - t0;
      assert.equal(text(await within(echo(f.client, 'after'), 'call after the flood')), 'after');
      // Whatever the server sent before answering a ping has arrived once the answer has.
      await within(f.client.ping(), 'ping after the flood');
      assert.equal(count, FLOOD_COUNT);
      assert.equal(outOfOrder, 0);
      assert.deepEqual(f.errors, []);
      console.log(
        `      notification-flood: ${count} notifications in ${floodMs} ms (incl. spawn); ` +
          `the call sent during the flood was answered after ${countAtFirstAnswer} of them`,
      );
    });
  });

  describe('exit-during-call.js', () => {
    it('the call rejects with "Connection closed", onclose fires, exit code 0 and a partial stderr line', async () => {
      const f = fixture('exit-during-call.js');
      await within(f.client.connect(f.transport), 'connect');
      await assert.rejects(
        within(echo(f.client, 'bye?'), 'call'),
        mcpError(ErrorCode.ConnectionClosed),
      );
      await within(f.transportClosed, 'transport onclose');
      await within(f.clientClosed, 'client onclose');
      assert.deepEqual(await f.transport.exited, { code: 0, signal: null });
      await settle();
      assert.equal(f.stderr(), '[exit-during-call] got tools/call echo, leaving without a wor');
    });
  });
});
