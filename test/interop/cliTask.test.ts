import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { repoRoot } from '../repoRoot';
import { eventually, everythingServer, node } from './support/kernelHarness';
import { startHttpTaskServer } from './support/taskServer';

// `mgp call --task` as a person runs it: the built CLI as a child process, the task example server
// over Streamable HTTP (its tasks outlive the CLI's session, so the test can ask about them after).

const cli = join(repoRoot(), 'dist/cli.js');

interface Running {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  ended: Promise<number | null>;
}

function startCli(args: string[], env: NodeJS.ProcessEnv): Running {
  const child = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (err += chunk));
  const ended = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  return { child, out: () => out, err: () => err, ended };
}

/** tasks/get on the server from a client of its own, as any other session would ask. */
async function taskOnServer(url: string, taskId: string) {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    return await client.experimental.tasks.getTask(taskId);
  } finally {
    await client.close();
  }
}

describe('mgp call --task (the built CLI, the task example server)', function () {
  let dir: string;
  let config: string;
  let env: NodeJS.ProcessEnv;
  let server: { url: string; child: ChildProcess };
  let running: Running | undefined;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-cli-task-'));
    server = await startHttpTaskServer();
    config = join(dir, 'mgp.toml');
    writeFileSync(
      config,
      `[[servers]]\nid = "tasks"\ntransport = "http"\nurl = "${server.url}"\napproved_tools = ["count_slowly"]\n\n` +
        `[[servers]]\nid = "everything"\ncommand = ${node}\nargs = [${everythingServer}, "stdio"]\n`,
    );
    env = { ...process.env, XDG_STATE_HOME: join(dir, 'state') };
  });
  afterEach(() => {
    if (running?.child.exitCode === null) running.child.kill('SIGKILL');
    running = undefined;
  });
  after(() => {
    server.child.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  /** `mgp call tasks count_slowly --task` with these arguments, as the person types it. */
  const countSlowlyAsTask = (args: string) =>
    startCli(['call', 'tasks', 'count_slowly', '--task', '--args', args, '--config', config], env);

  it('prints each status on stderr, the result on stdout, and exits 0', async () => {
    running = countSlowlyAsTask('{"to":2,"step_ms":1000}');
    const code = await running.ended;
    assert.equal(code, 0, running.err());
    assert.equal(running.out().trim(), 'Counted to 2.');
    const err = running.err();
    const taskId = /task (\S+): working/.exec(err)?.[1];
    assert.ok(taskId, err);
    // The example server's pollInterval (200 ms) is well under a step: the client sees each one.
    assert.match(err, new RegExp(`task ${taskId}: working - counted 1 of 2`));
    assert.match(err, new RegExp(`task ${taskId}: completed`));
    assert.equal((await taskOnServer(server.url, taskId)).status, 'completed');
  });

  it('Ctrl+C sends tasks/cancel: the task is cancelled on the server, the CLI exits 130', async () => {
    running = countSlowlyAsTask('{"to":1000,"step_ms":50}');
    const cli = running;
    // Long enough for many polls: none of them leaves a listener behind (no MaxListeners warning).
    await eventually(() => /counted ([6-9]\d|\d{3}) of 1000/.test(cli.err()), 'the task to run');
    const taskId = /task (\S+): working/.exec(cli.err())![1];
    cli.child.kill('SIGINT');
    const code = await cli.ended;
    assert.equal(code, 130, cli.err());
    assert.match(cli.err(), /cancelling the task/);
    assert.match(cli.err(), /mgp call: .*was cancelled/);
    assert.equal(cli.out(), '');
    assert.doesNotMatch(cli.err(), /MaxListenersExceededWarning/);
    assert.equal((await taskOnServer(server.url, taskId)).status, 'cancelled');
  });

  it('exits 1 and says why for a tool that cannot run as a task', async () => {
    running = startCli(
      ['call', 'everything', 'echo', '--task', '--args', '{"message":"hi"}', '--config', config],
      env,
    );
    assert.equal(await running.ended, 1, running.err());
    assert.match(running.err(), /everything\/echo cannot run as a task/);
  });
});
