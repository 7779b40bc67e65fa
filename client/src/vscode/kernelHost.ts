import { editorAuthorizations } from './serverSignIn';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import * as vscode from 'vscode';
import { AuditError } from '../kernel/audit/errors';
import { AuditLog } from '../kernel/audit/auditLog';
import { auditDirectory, stateDirectory } from '../kernel/audit/location';
import { Redactor } from '../kernel/audit/redact';
import { AuditTrail, KERNEL_AUDIT_COMMIT_DELAY_MS } from '../kernel/audit/auditTrail';
import { launchFingerprint } from '../kernel/config/launchFingerprint';
import type { ConfiguredServer, KernelConfig } from '../kernel/config/model';
import { Kernel } from '../kernel/kernel';
import type { LifecycleTransition } from '../kernel/model/serverState';
import { EDITOR_OPERATOR } from '../kernel/model/caller';
import { workspaceFolderPaths } from './configService';
import { EditorInteraction } from './interaction/editorInteraction';
import type { SecretStore } from './secrets';
import { ServerLogs } from './serverLogs';

const APPROVALS_KEY = 'mgp.approvedWorkspaceServers';

/** The names of the headers sent to a remote server (their values may be secrets). */
function headerNames(server: ConfiguredServer): string {
  const names = Object.keys(server.settings.headers);
  return names.length ? `\nHeaders: ${names.join(', ')}` : '';
}

function isWorkspaceServer(server: ConfiguredServer): boolean {
  return workspaceFolderPaths().some(
    (folder) =>
      server.source.file.startsWith(`${folder}/`) || server.source.file.startsWith(`${folder}\\`),
  );
}

async function openAuditLog(
  dir: string,
  config: KernelConfig | undefined,
  redactor: Redactor,
  log: vscode.LogOutputChannel,
): Promise<AuditLog> {
  const options = {
    rotateBytes: config?.kernel.audit.rotateBytes,
    retention: config?.kernel.audit.retention,
    redactor,
    commitDelayMs: KERNEL_AUDIT_COMMIT_DELAY_MS,
    onProblem: (message: string) => log.error(`audit: ${message}`),
  };
  try {
    return await AuditLog.open({ directory: dir, ...options });
  } catch (error) {
    if (!(error instanceof AuditError) || error.code !== 'Locked') throw error;
    const own = `${dir}-window-${process.pid}`;
    log.warn(`the workspace's audit log is held by another window; this window records to ${own}`);
    return AuditLog.open({ directory: own, ...options });
  }
}

/**
 * The kernel inside VS Code: one Kernel fed by the config service, gated by Workspace Trust and by the
 * user's approval of each workspace server's command line, asking its questions in the editor.
 */
export class KernelHost implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];

  private constructor(
    private readonly extension: vscode.ExtensionContext,
    readonly kernel: Kernel,
    readonly trail: AuditTrail,
    readonly interaction: EditorInteraction,
    readonly stateDir: string,
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
    const trail = new AuditTrail(
      await openAuditLog(auditDirectory(location), config, redactor, log),
    );
    const interaction = new EditorInteraction(extension.extensionUri, log);
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
    const host: KernelHost = new KernelHost(extension, kernel, trail, interaction, stateDir);
    host.wireLogs(logs);
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

  private approvals(): Record<string, string> {
    return this.extension.workspaceState.get<Record<string, string>>(APPROVALS_KEY, {});
  }

  /**
   * `MGP_PREAPPROVED_SERVERS` (comma-separated ids, or `*`): workspace servers whose command lines the
   * person who started the editor approves up front, for unattended runs where no dialog can be shown.
   */
  private preapproved(server: ConfiguredServer): boolean {
    const ids = (process.env.MGP_PREAPPROVED_SERVERS ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
    return ids.includes('*') || ids.includes(server.id);
  }

  /** Approves workspace servers' command lines (the "Allow Workspace Servers" command), then applies the config. */
  async approve(servers: ConfiguredServer[]): Promise<void> {
    const approvals = { ...this.approvals() };
    for (const server of servers) {
      approvals[server.id] = launchFingerprint(server);
      this.declined.delete(server.id);
    }
    await this.extension.workspaceState.update(APPROVALS_KEY, approvals);
  }

  /** Workspace servers whose current command line is not approved. */
  unapproved(servers: readonly ConfiguredServer[]): ConfiguredServer[] {
    const approvals = this.approvals();
    return servers.filter(
      (server) =>
        isWorkspaceServer(server) &&
        approvals[server.id] !== launchFingerprint(server) &&
        !this.preapproved(server),
    );
  }

  mayStart(server: ConfiguredServer): true | string {
    const held = this.holdOf(server);
    if (held === 'untrusted') return 'the workspace is not trusted (Restricted Mode)';
    if (held === 'unapproved') return 'you have not allowed it to start yet';
    return true;
  }

  /** Why the start gate holds a server back: the workspace untrusted, or its command line not allowed. */
  holdOf(server: ConfiguredServer): 'untrusted' | 'unapproved' | undefined {
    if (!isWorkspaceServer(server)) return undefined;
    if (!vscode.workspace.isTrusted) return 'untrusted';
    return this.approvals()[server.id] === launchFingerprint(server) || this.preapproved(server)
      ? undefined
      : 'unapproved';
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
    const approvals = { ...this.approvals() };
    for (const server of this.unapproved(config.servers)) {
      const fingerprint = launchFingerprint(server);
      if (this.declined.get(server.id) === fingerprint) continue;
      if (await this.askOne(server, approvals[server.id] !== undefined))
        approvals[server.id] = fingerprint;
      else this.declined.set(server.id, fingerprint);
    }
    await this.extension.workspaceState.update(APPROVALS_KEY, approvals);
  }

  /** The person asked to start a server not allowed yet (its ▶): asks now, and records a Start. */
  async askToStart(server: ConfiguredServer): Promise<boolean> {
    if (!vscode.workspace.isTrusted) return false;
    if (!(await this.askOne(server, this.approvals()[server.id] !== undefined))) return false;
    await this.approve([server]);
    return true;
  }

  private async askOne(server: ConfiguredServer, changed: boolean): Promise<boolean> {
    const what =
      server.transport === 'stdio' ? [server.command, ...server.args].join(' ') : server.url;
    const choice = await Promise.resolve(
      vscode.window.showWarningMessage(
        changed
          ? `MCP server "${server.id}" changed since you allowed it. Start it now?`
          : `Start MCP server "${server.id}" from this workspace?`,
        {
          modal: true,
          detail: `${server.transport}: ${what}${headerNames(server)}\n\nDeclared in ${vscode.workspace.asRelativePath(server.source.file)}:${server.source.line}. Only start servers you trust: they run with your permissions.`,
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
