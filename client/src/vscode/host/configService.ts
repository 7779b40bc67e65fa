import { homedir } from 'node:os';
import * as vscode from 'vscode';
import {
  type KernelConfig,
  LastValidConfig,
  loadKernelConfig,
  type PathContext,
} from '../../kernel';

const WATCHED = '{mgp.toml,mcp.toml,config.toml,.openfang/config.toml}';

/** Loads the kernel's config for the open workspace and reloads it when a config file changes. */
export class ConfigService implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<KernelConfig>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private current: Promise<KernelConfig>;
  /** A file saved mid-edit with an error keeps its last valid servers running. */
  private readonly lastValid = new LastValidConfig();

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.current = this.load();
    const watchers = [
      vscode.workspace.createFileSystemWatcher(`**/${WATCHED}`),
      vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(
          vscode.Uri.file(homedir()),
          '{.config/mgp/servers.toml,.openfang/config.toml}',
        ),
      ),
    ];
    for (const watcher of watchers) {
      this.disposables.push(
        watcher,
        watcher.onDidCreate(() => this.reload()),
        watcher.onDidChange(() => this.reload()),
        watcher.onDidDelete(() => this.reload()),
      );
    }
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.lastValid.clear();
        void this.reload();
      }),
    );
  }

  pathContext(): PathContext {
    return { workspaceFolders: workspaceFolderPaths(), home: homedir() };
  }

  get config(): Promise<KernelConfig> {
    return this.current;
  }

  reload(): Promise<KernelConfig> {
    this.current = this.load();
    void this.current.then((config) => this.changed.fire(config));
    return this.current;
  }

  private async load(): Promise<KernelConfig> {
    const config = this.lastValid.apply(
      await loadKernelConfig({ ...this.pathContext(), env: process.env }),
    );
    const used = config.files.filter((file) => !file.ignored);
    this.log.info(
      `config: ${used.length} file(s), ${config.servers.length} server(s)` +
        (used.length ? `: ${used.map((f) => f.location.path).join(', ')}` : ''),
    );
    for (const file of used) {
      if (!file.kept) continue;
      const parts = [...file.kept.servers, ...(file.kept.kernel ? ['[kernel]'] : [])];
      this.log.warn(
        `${file.location.path} has errors; its last valid settings stay in use for: ${parts.join(', ')}`,
      );
    }
    for (const problem of config.problems) {
      const text = `${problem.file}:${problem.line}:${problem.column}${problem.key ? ` (${problem.key})` : ''}: ${problem.message}`;
      if (problem.severity === 'error') this.log.warn(text);
      else this.log.info(text);
    }
    return config;
  }

  dispose(): void {
    vscode.Disposable.from(...this.disposables).dispose();
  }
}

export function workspaceFolderPaths(): string[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => f.uri.fsPath);
}
