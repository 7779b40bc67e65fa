/**
 * Debian's Prometheus (`prometheus` in scripts/setup.sh) for a test: one scrape job every second
 * against a target on loopback, with a bearer token, its storage in a temp folder, its web API on a
 * free loopback port. `query` runs PromQL through the HTTP API.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './patience';

export const PROMETHEUS_BIN = ['/usr/bin/prometheus'].find((path) => existsSync(path));

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

export class Prometheus {
  private constructor(
    private readonly dir: string,
    private readonly child: ChildProcess,
    readonly api: string,
  ) {}

  /** Scrapes `target` (host:port) at `path` every second, sending `token` as a bearer token. */
  static async start(target: string, path: string, token: string): Promise<Prometheus> {
    if (!PROMETHEUS_BIN)
      throw new Error('Prometheus is not installed (scripts/setup.sh installs it)');
    const dir = mkdtempSync(join(tmpdir(), 'mgp-prom-'));
    writeFileSync(join(dir, 'token'), token);
    writeFileSync(
      join(dir, 'prometheus.yml'),
      [
        'global:',
        '  scrape_interval: 1s',
        'scrape_configs:',
        '  - job_name: mgp',
        `    metrics_path: ${path}`,
        '    authorization:',
        `      credentials_file: ${join(dir, 'token')}`,
        '    static_configs:',
        `      - targets: ['${target}']`,
        '',
      ].join('\n'),
    );
    const port = await freePort();
    const child = spawn(
      PROMETHEUS_BIN,
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const prometheus = new Prometheus(dir, child, `http://127.0.0.1:${port}`);
    await eventually(async () => {
      if (child.exitCode !== null) throw new Error(`prometheus exited: ${log}`);
      return /Server is ready to receive web requests/.test(log);
    }, 'Prometheus to be ready');
    return prometheus;
  }

  /** The value of an instant PromQL query with one result, or undefined while it has none. */
  async query(promql: string): Promise<number | undefined> {
    const response = await fetch(`${this.api}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await response.json()) as {
      status: string;
      data?: { result: { value: [number, string] }[] };
    };
    const first = body.data?.result[0];
    return first ? Number(first.value[1]) : undefined;
  }

  /** The health of the scrape target as Prometheus saw it last (`up`, `lastError`). */
  async target(): Promise<{ health: string; lastError: string } | undefined> {
    const body = (await (await fetch(`${this.api}/api/v1/targets`)).json()) as {
      data: { activeTargets: { health: string; lastError: string }[] };
    };
    return body.data.activeTargets[0];
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
