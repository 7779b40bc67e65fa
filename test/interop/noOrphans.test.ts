import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../repoRoot';
import { eventually, HANG_MS } from '../support/patience';
import { cliPath } from './support/gatewayProcess';

const fixture = join(repoRoot(), 'test/fixtures/servers/spawns-child.js');
const orphanHost = join(__dirname, 'support/orphanHost.js');

interface Pids {
  server: number;
  child: number;
}

/** Whether a process still runs (a zombie waiting for its parent's wait() does not). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The pids the server wrote, once it wrote them. */
function pidsWritten(file: string): Promise<Pids> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server never started')), HANG_MS);
    const check = () => {
      if (!existsSync(file)) return false;
      clearTimeout(timer);
      watcher.close();
      resolve(JSON.parse(readFileSync(file, 'utf8')) as Pids);
      return true;
    };
    const watcher = watch(join(file, '..'), check);
    check();
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Resolves once neither process runs; a survivor is killed when the test ends either way. */
async function gone(pids: Pids): Promise<void> {
  await eventually(
    () => !running(pids.server) && !running(pids.child),
    'the server and its child to end',
  );
}

describe('nothing the kernel starts outlives it', function () {
  this.timeout(60000);
  if (process.platform !== 'linux') return;
  let dir: string;
  let config: string;
  let pidsFile: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mgp-orphans-'));
    pidsFile = join(dir, 'pids.json');
    config = join(dir, 'mgp.toml');
  });
  afterEach(() => {
    if (existsSync(pidsFile)) {
      const pids = JSON.parse(readFileSync(pidsFile, 'utf8')) as Pids;
      for (const pid of [pids.server, pids.child]) if (running(pid)) process.kill(pid, 'SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  });

  function writeConfig(hangInitialize: boolean): void {
    const env = [`MGP_FIXTURE_PIDS_FILE = ${JSON.stringify(pidsFile)}`];
    if (hangInitialize) env.push('MGP_FIXTURE_HANG_INITIALIZE = "1"');
    writeFileSync(
      config,
      [
        '[[servers]]',
        'id = "stubborn"',
        `command = ${JSON.stringify(process.execPath)}`,
        `args = [${JSON.stringify(fixture)}]`,
        `env = { ${env.join(', ')} }`,
        '[servers.sandbox]',
        'mode = "off"',
      ].join('\n'),
    );
  }

  function cli(args: string[]): ChildProcess {
    return spawn(process.execPath, [cliPath, ...args, '--config', config], {
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { ...process.env, XDG_STATE_HOME: join(dir, 'state') },
    });
  }

  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`${signal} while a server is still connecting leaves no process`, async () => {
      writeConfig(true);
      const kernel = cli(['tools']);
      const pids = await pidsWritten(pidsFile);
      kernel.kill(signal);
      await exited(kernel);
      await gone(pids);
    });

    it(`${signal} while serving a connected server leaves no process`, async () => {
      writeConfig(false);
      const kernel = cli(['serve', '--expose', 'all']);
      const pids = await pidsWritten(pidsFile);
      kernel.kill(signal);
      await exited(kernel);
      await gone(pids);
    });
  }

  it('a command that ends leaves no process, even of a server that ignores stdin and SIGTERM', async () => {
    writeConfig(false);
    const kernel = cli(['tools']);
    const pids = await pidsWritten(pidsFile);
    await exited(kernel);
    assert.equal(kernel.exitCode, 0);
    await gone(pids);
  });

  it('an uncaught error in the kernel leaves no process', async () => {
    const host = spawn(process.execPath, [orphanHost, pidsFile, process.execPath, fixture], {
      stdio: 'ignore',
    });
    const pids = await pidsWritten(pidsFile);
    await exited(host);
    assert.notEqual(host.exitCode, 0);
    await gone(pids);
  });
});
