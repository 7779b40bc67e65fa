import { homedir } from 'node:os';
import { join } from 'node:path';
import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import * as vscode from 'vscode';
import {
  type AnchorKeyStore,
  auditDirectory,
  type AuditTrail,
  type ConfiguredServer,
  EDITOR_OPERATOR,
  Kernel,
  type KernelConfig,
  LAUNCH_APPROVALS_FILE,
  LaunchApprovals,
  launchDetails,
  launchFingerprint,
  launchTarget,
  type LifecycleTransition,
  openAuditTrail,
  Redactor,
  stateDirectory,
} from '../../kernel';
import { oneLine } from '@shared/untrustedText';
import { workspaceFolderPaths } from './configService';
import { EditorInteraction } from '../interaction/editorInteraction';
import { editorAnchorKeys, type SecretStore } from './secrets';
import { editorAuthorizations } from './editorAuthorizations';
import { ServerLogs } from './serverLogs';

/** Where the editor kept its approvals before they moved to the workspace's state folder. */
const LEGACY_APPROVALS_KEY = 'mgp.approvedWorkspaceServers';

function isWorkspaceServer(server: ConfiguredServer): boolean {
  return workspaceFolderPaths().some(
    (folder) =>
      server.source.file.startsWith(`${folder}/`) || server.source.file.startsWith(`${folder}\\`),
  );
}

/**
 * The record of allowed workspace servers in the state folder, where `mgp` reads it too; approvals
 * this workspace kept in the editor's own storage before are moved into it, once.
 */
async function openLaunchApprovals(
  extension: vscode.ExtensionContext,
  stateDir: string,
  trail: AuditTrail,
  log: vscode.LogOutputChannel,
): Promise<LaunchApprovals> {
  const launches = new LaunchApprovals({
    stateDir,
    audit: trail,
    operator: EDITOR_OPERATOR.agentId,
    env: process.env,
    onCorrupt: (message) => log.warn(message),
  });
  const legacy = extension.workspaceState.get<Record<string, string>>(LEGACY_APPROVALS_KEY);
  if (legacy) {
    const moved = await launches.adopt(legacy);
    await extension.workspaceState.update(LEGACY_APPROVALS_KEY, undefined);
    if (moved.length)
      log.info(`allowed workspace servers moved to ${launches.path}: ${moved.join(', ')}`);
  }
  await launches.refresh();
  return launches;
}

/**
 * The kernel inside VS Code: one Kernel fed by the config service, gated by Workspace Trust and by the
 * user's approval of each workspace server's command line, asking its questions in the editor.
 */
export class KernelHost implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];

  private constructor(
    readonly kernel: Kernel,
    readonly trail: AuditTrail,
    readonly interaction: EditorInteraction,
    readonly stateDir: string,
    /** The person's yes to workspace servers, shared with `mgp` in the same folder. */
    private readonly launches: LaunchApprovals,
    /** Where the keys that seal the audit logs' chain.json are kept. */
    readonly anchorKeys: AnchorKeyStore,
  ) {}

  static async create(
    extension: vscode.ExtensionContext,
    secrets: SecretStore,
    logs: ServerLogs,
    log: vscode.LogOutputChannel,
    config: KernelConfig | undefined,
  ): Promise<KernelHost> {
    const location = {
      workspaceFolder: workspaceFolderPaths()[0],
      env: process.env,
      home: homedir(),
    };
    const stateDir = stateDirectory(location);
    const redactor = new Redactor();
    const anchorKeys = editorAnchorKeys(secrets);
    const trail = await openAuditTrail({
      directory: auditDirectory(location),
      fallback: `${auditDirectory(location)}-window-${process.pid}`,
      onHeld: (own) =>
        log.warn(
          `the workspace's audit log is held by another window; this window records to ${own}`,
        ),
      anchorKeys,
      rotateBytes: config?.kernel.audit.rotateBytes,
      retention: config?.kernel.audit.retention,
      redactor,
      onProblem: (message: string) => log.error(`audit: ${message}`),
    });
    const interaction = new EditorInteraction(extension.extensionUri, log);
    const launches = await openLaunchApprovals(extension, stateDir, trail, log);
    const kernel: Kernel = new Kernel({
      hostEnv: process.env,
      secrets,
      interaction,
      audit: trail,
      stateDir,
      workingFolder: location.workspaceFolder,
      operator: EDITOR_OPERATOR,
      roots: () =>
        (vscode.workspace.workspaceFolders ?? []).map((f) => ({
          uri: f.uri.toString(),
          name: f.name,
        })),
      mayStart: (server) => host.mayStart(server),
      trace: (serverId) => logs.tracing(serverId),
      logLevel: vscode.workspace
        .getConfiguration('mgp')
        .get<LoggingLevel>('serverLogLevel', 'info'),
      onSecrets: (values) => values.forEach((value) => redactor.addSecret(value)),
      authorization: editorAuthorizations(extension.secrets, log),
    });
    const host: KernelHost = new KernelHost(
      kernel,
      trail,
      interaction,
      stateDir,
      launches,
      anchorKeys,
    );
    host.wireLogs(logs);
    host.followLaunchApprovals();
    log.info(`state and audit log in ${join(stateDir)}`);
    return host;
  }

  get manager() {
    return this.kernel.manager;
  }

  private wireLogs(logs: ServerLogs): void {
    const bus = this.kernel.manager.bus;
    bus.on('log', (line) => logs.append(line.server_id, line.level, line.message));
    bus.on('trace', (line) =>
      logs.trace(
        line.server_id,
        `${line.direction === 'send' ? '→' : '←'} ${JSON.stringify(line.message)}`,
      ),
    );
    bus.on('transition', (t: LifecycleTransition) =>
      logs.append(
        t.server_id,
        t.new_state === 'error' ? 'error' : 'info',
        `${t.previous_state} → ${t.new_state} (${t.reason})${t.error ? `: ${t.error}` : ''}`,
      ),
    );
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.kernel.manager.rootsChanged()),
    );
  }

  /** Allows workspace servers as they are defined now (the "Allow Workspace Servers" command), here and in `mgp`. */
  async approve(servers: ConfiguredServer[]): Promise<void> {
    await this.launches.allow(servers, { via: 'editor', remember: true });
    for (const server of servers) this.declined.delete(server.id);
  }

  /** Workspace servers whose current definition is not allowed. */
  unapproved(servers: readonly ConfiguredServer[]): ConfiguredServer[] {
    return servers.filter((server) => this.waitsFor(server) !== undefined);
  }

  private waitsFor(server: ConfiguredServer): 'new' | 'changed' | undefined {
    if (!isWorkspaceServer(server)) return undefined;
    const standing = this.launches.standing(server);
    return standing === 'new' || standing === 'changed' ? standing : undefined;
  }

  mayStart(server: ConfiguredServer): true | string {
    const held = this.holdOf(server);
    if (held === 'untrusted') return 'the workspace is not trusted (Restricted Mode)';
    if (held === 'unapproved') return 'you have not allowed it to start yet';
    return true;
  }

  /** Why the start gate holds a server back: the workspace untrusted, or its definition not allowed. */
  holdOf(server: ConfiguredServer): 'untrusted' | 'unapproved' | undefined {
    if (!isWorkspaceServer(server)) return undefined;
    if (!vscode.workspace.isTrusted) return 'untrusted';
    return this.waitsFor(server) ? 'unapproved' : undefined;
  }

  /**
   * A yes given in the terminal (`mgp servers allow`, its prompt) holds here at once: the servers it
   * allows start when the record changes.
   */
  private followLaunchApprovals(): void {
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(this.stateDir), LAUNCH_APPROVALS_FILE),
    );
    const reread = async () => {
      await this.launches.refresh();
      if (vscode.workspace.isTrusted) await this.kernel.manager.startHeld();
    };
    this.disposables.push(watcher, watcher.onDidCreate(reread), watcher.onDidChange(reread));
  }

  /** Asks again, at the next apply, for the servers the person declined in this window. */
  forgetDeclined(): void {
    this.declined.clear();
  }

  /** Command lines the person declined in this window: not asked again until they change. */
  private readonly declined = new Map<string, string>();

  /** Asks once for each workspace server that is new or changed (launchFingerprint.ts says what counts). */
  private async askApprovals(config: KernelConfig): Promise<void> {
    if (!vscode.workspace.isTrusted) return;
    await this.launches.refresh();
    for (const server of this.unapproved(config.servers)) {
      const fingerprint = launchFingerprint(server);
      if (this.declined.get(server.id) === fingerprint) continue;
      if (await this.askOne(server)) await this.approve([server]);
      else this.declined.set(server.id, fingerprint);
    }
  }

  /** The person asked to start a server not allowed yet (its ▶): asks now, and records a Start. */
  async askToStart(server: ConfiguredServer): Promise<boolean> {
    if (!vscode.workspace.isTrusted) return false;
    await this.launches.refresh();
    if (this.waitsFor(server) === undefined) return true;
    if (!(await this.askOne(server))) return false;
    await this.approve([server]);
    return true;
  }

  private async askOne(server: ConfiguredServer): Promise<boolean> {
    const changed = this.waitsFor(server) === 'changed';
    const name = oneLine(server.id);
    const lines = [launchTarget(server), ...launchDetails(server)].join('\n');
    const choice = await Promise.resolve(
      vscode.window.showWarningMessage(
        changed
          ? `MCP server "${name}" changed since you allowed it. Start it now?`
          : `Start MCP server "${name}" from this workspace?`,
        {
          modal: true,
          detail: `${lines}\n\nDeclared in ${oneLine(vscode.workspace.asRelativePath(server.source.file))}:${server.source.line}. Only start servers you trust: they run with your permissions.`,
        },
        'Start',
      ),
    ).catch(() => undefined);
    return choice === 'Start';
  }

  /** Applies the config: asks for approvals, then starts, stops and restarts servers with a progress notice. */
  async apply(config: KernelConfig): Promise<void> {
    await this.askApprovals(config);
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'MGP: starting servers' },
      async (progress) => {
        const subscription = (t: LifecycleTransition) =>
          t.new_state === 'connecting' && progress.report({ message: t.server_id });
        this.kernel.manager.bus.on('transition', subscription);
        try {
          await this.kernel.apply(config);
        } finally {
          this.kernel.manager.bus.off('transition', subscription);
        }
      },
    );
  }

  dispose(): void {
    vscode.Disposable.from(...this.disposables).dispose();
    void this.kernel.dispose().then(() => this.trail.close());
  }
}
