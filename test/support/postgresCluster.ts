/**
 * A throwaway PostgreSQL cluster for a test run: Debian's server binaries (`postgresql` in
 * scripts/setup.sh), `initdb` into a temp folder, listening on 127.0.0.1 at a free port, trusted
 * logins for the user `mgp`. As root (CI, this machine) the server runs as the `postgres` user,
 * which initdb insists on. `stop` and `start` keep the data: a restart is the database coming back.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, HANG_MS } from './patience';

function binDirectory(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] && join(root, versions[0], 'bin');
}

export const POSTGRES_BIN = binDirectory();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** As root, run as `postgres` (setpriv execs the program itself: signals reach the server). */
function asServerUser(program: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [program, args];
  return [
    'setpriv',
    ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', program, ...args],
  ];
}

export interface ClusterOptions {
  /** `-c name=value` settings beyond the defaults (ssl, say). */
  settings?: Record<string, string>;
}

export class PostgresCluster {
  readonly dir = mkdtempSync(join(tmpdir(), 'mgp-pg-'));
  readonly data = join(this.dir, 'data');
  port = 0;
  private server: ChildProcess | undefined;

  private constructor(private readonly options: ClusterOptions) {}

  static async create(options: ClusterOptions = {}): Promise<PostgresCluster> {
    if (!POSTGRES_BIN)
      throw new Error('PostgreSQL is not installed (scripts/setup.sh installs it)');
    const cluster = new PostgresCluster(options);
    chmodSync(cluster.dir, 0o755);
    if (process.getuid?.() === 0) chownSync(cluster.dir, uidOf('postgres'), gidOf('postgres'));
    const [program, args] = asServerUser(join(POSTGRES_BIN, 'initdb'), [
      '-D',
      cluster.data,
      '-U',
      'mgp',
      '--auth=trust',
      '--no-sync',
      '-E',
      'UTF8',
    ]);
    execFileSync(program, args, { stdio: 'pipe' });
    cluster.port = await freePort();
    await cluster.start();
    return cluster;
  }

  /** The URL a kernel is given: the `postgres` database as user `mgp`. */
  get url(): string {
    return `postgres://mgp@127.0.0.1:${this.port}/postgres`;
  }

  /** Starts the server and resolves once it says it accepts connections. */
  async start(): Promise<void> {
    const settings = {
      listen_addresses: '127.0.0.1',
      unix_socket_directories: this.dir,
      fsync: 'off',
      ...this.options.settings,
    };
    const [program, args] = asServerUser(join(POSTGRES_BIN as string, 'postgres'), [
      '-D',
      this.data,
      '-p',
      String(this.port),
      ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ]);
    const server = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.server = server;
    let log = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`postgres did not start: ${log}`)), HANG_MS);
      server.stderr?.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('database system is ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      server.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`postgres exited (${code}): ${log}`));
      });
    });
  }

  /** Stops the server: `fast` (SIGINT) as an administrator would, `kill` (SIGKILL) as a crash. */
  async stop(how: 'fast' | 'kill' = 'fast'): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server || server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    // A killed postmaster leaves its children (backends, writers) for a moment; they hold the
    // shared memory the next start needs, so the stop waits for them to go too.
    const children = how === 'kill' ? childrenOf(server.pid) : [];
    server.kill(how === 'kill' ? 'SIGKILL' : 'SIGINT');
    await exited;
    await eventually(
      () => children.every((pid) => !alive(pid)),
      "the killed server's children to exit",
    );
  }

  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function uidOf(user: string): number {
  return Number(execFileSync('id', ['-u', user]).toString().trim());
}

function gidOf(user: string): number {
  return Number(execFileSync('id', ['-g', user]).toString().trim());
}

function childrenOf(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  try {
    return execFileSync('pgrep', ['-P', String(pid)])
      .toString()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
