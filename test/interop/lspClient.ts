import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  Diagnostic,
  ProtocolConnection,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import { repoRoot } from '../repoRoot';
import { HANG_MS } from '../support/patience';

/** The real language server process (dist/server.js over stdio) and a protocol client for it. */
export class LanguageServerProcess {
  readonly connection: ProtocolConnection;
  private readonly child: ChildProcess;
  private readonly diagnostics = new Map<string, { version?: number; diagnostics: Diagnostic[] }>();
  private readonly waiters: (() => void)[] = [];
  private versions = new Map<string, number>();
  stderr = '';
  /** How many times the server asked the editor to fetch its code lenses again. */
  codeLensRefreshes = 0;

  constructor() {
    this.child = spawn(process.execPath, [join(repoRoot(), 'dist/server.js'), '--stdio'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stderr?.on('data', (chunk) => (this.stderr += chunk));
    this.connection = createProtocolConnection(
      new StreamMessageReader(this.child.stdout!),
      new StreamMessageWriter(this.child.stdin!),
    );
    this.connection.onNotification(
      PublishDiagnosticsNotification.type,
      ({ uri, version, diagnostics }) => {
        this.diagnostics.set(uri, { version, diagnostics });
        this.waiters.splice(0).forEach((wake) => wake());
      },
    );
    this.connection.onRequest('workspace/codeLens/refresh', () => {
      this.codeLensRefreshes += 1;
      this.waiters.splice(0).forEach((wake) => wake());
      return null;
    });
    this.connection.listen();
  }

  async initialize(): Promise<void> {
    await this.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: null,
      capabilities: { workspace: { codeLens: { refreshSupport: true } } },
    });
    await this.connection.sendNotification('initialized', {});
  }

  uriOf(path: string): string {
    return pathToFileURL(path).toString();
  }

  async open(path: string, text: string): Promise<string> {
    const uri = this.uriOf(path);
    this.versions.set(uri, 1);
    this.diagnostics.delete(uri);
    await this.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'toml', version: 1, text },
    });
    return uri;
  }

  async change(uri: string, text: string): Promise<number> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
    return version;
  }

  /** Waits for diagnostics of `uri` (at least `version` when given) that satisfy `accept`. */
  /** Waits until the server has asked for code lenses again more than `count` times in all. */
  async codeLensRefreshAfter(count: number): Promise<void> {
    const deadline = Date.now() + HANG_MS;
    while (this.codeLensRefreshes <= count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no workspace/codeLens/refresh within ${HANG_MS} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async diagnosticsFor(
    uri: string,
    accept: (d: Diagnostic[]) => boolean = () => true,
    version?: number,
    timeoutMs = HANG_MS,
  ): Promise<Diagnostic[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const entry = this.diagnostics.get(uri);
      if (
        entry &&
        (version === undefined || (entry.version ?? 0) >= version) &&
        accept(entry.diagnostics)
      )
        return entry.diagnostics;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `no matching diagnostics for ${uri} within ${timeoutMs} ms; last: ${JSON.stringify(entry)}`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  get exited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([
        this.connection.sendRequest('shutdown'),
        new Promise((r) => setTimeout(r, 2000)),
      ]);
      await this.connection.sendNotification('exit');
    } catch {
      // already gone
    }
    this.connection.dispose();
    this.child.kill();
  }
}
