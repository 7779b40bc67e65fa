/**
 * `mgp serve` as MCP clients meet it: the bundled CLI in its own process, over stdio (the SDK's
 * StdioClientTransport spawns it) or over HTTP (started here; its printed URL and token read back),
 * in a workspace of its own (a config file, a state folder for the audit log and the stores).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { AuditRecord } from '../../../client/src/kernel/audit/auditEvent';
import { auditDirectory } from '../../../client/src/kernel/audit/location';
import { readRecords } from '../../../client/src/kernel/audit/reader';
import { repoRoot } from '../../repoRoot';

export const cliPath = join(repoRoot(), 'dist/cli.js');

export class GatewayWorkspace {
  readonly dir = mkdtempSync(join(tmpdir(), 'mgp-gateway-'));
  readonly config = join(this.dir, 'mgp.toml');
  readonly stateHome = join(this.dir, 'state');

  constructor(toml: string) {
    writeFileSync(this.config, toml);
  }

  get env(): Record<string, string> {
    return { ...(process.env as Record<string, string>), XDG_STATE_HOME: this.stateHome };
  }

  /** Every audit record of the workspace's log (the process writing it should have closed). */
  async audit(): Promise<AuditRecord[]> {
    const records: AuditRecord[] = [];
    const dir = auditDirectory({ workspaceFolder: this.dir, env: this.env, home: this.dir });
    for await (const record of readRecords(dir)) records.push(record);
    return records;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface StdioGateway {
  client: Client;
  /** What the gateway wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** An SDK client connected to `mgp serve` over stdio, with these capabilities and this name. */
export async function stdioGateway(
  workspace: GatewayWorkspace,
  args: string[],
  client: {
    name?: string;
    capabilities?: ClientCapabilities;
    setUp?: (client: Client) => void;
  } = {},
): Promise<StdioGateway> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'serve', '--config', workspace.config, ...args],
    env: workspace.env,
    cwd: workspace.dir,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const sdk = new Client(
    { name: client.name ?? 'Gateway Test', version: '1.0.0' },
    { capabilities: client.capabilities ?? {} },
  );
  client.setUp?.(sdk);
  await sdk.connect(transport);
  return {
    client: sdk,
    stderr: () => stderr,
    close: async () => {
      await sdk.close();
    },
  };
}

export interface HttpGateway {
  url: string;
  token: string;
  process: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

/** `mgp serve --http 0 …` in its own process, once it printed its endpoint and token. */
export async function httpGateway(
  workspace: GatewayWorkspace,
  args: string[],
): Promise<HttpGateway> {
  const child = spawn(
    process.execPath,
    [cliPath, 'serve', '--http', '0', '--config', workspace.config, ...args],
    { env: workspace.env, cwd: workspace.dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const printed = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /MCP endpoint: (\S+)/.exec(stdout)?.[1];
      const token = /Bearer token: (\S+)/.exec(stdout)?.[1];
      if (url && token) resolve({ url, token });
    });
    child.once('exit', (code) => reject(new Error(`mgp serve exited (${code}): ${stderr}`)));
  });
  return {
    ...printed,
    process: child,
    stderr: () => stderr,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Resolves with the next value `subscribe` hands its callback. */
export function nextEvent<T>(subscribe: (callback: (value: T) => void) => void): Promise<T> {
  return new Promise((resolve) => subscribe(resolve));
}
