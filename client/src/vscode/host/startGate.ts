import * as vscode from 'vscode';
import {
  type AuditTrail,
  type ConfiguredServer,
  EDITOR_OPERATOR,
  type KernelConfig,
  LAUNCH_APPROVALS_FILE,
  LaunchApprovals,
  launchDetails,
  launchFingerprint,
  launchTarget,
} from '../../kernel';
import { oneLine } from '@shared/untrustedText';
import { workspaceFolderPaths } from './configService';

/** Where the editor kept its approvals before they moved to the workspace's state folder. */
const LEGACY_APPROVALS_KEY = 'mgp.approvedWorkspaceServers';

/** Why the start gate holds a server back: the workspace untrusted, or its definition not allowed. */
export type HoldReason = 'untrusted' | 'unapproved' | undefined;

function isWorkspaceServer(server: ConfiguredServer): boolean {
  return workspaceFolderPaths().some(
    (folder) =>
      server.source.file.startsWith(`${folder}/`) || server.source.file.startsWith(`${folder}\\`),
  );
}

/**
 * The editor's start gate for workspace servers: gated by Workspace Trust and by the person's yes to
 * each workspace server's command line, kept in the state folder where `mgp` reads it too.
 */
export class StartGate implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  /** Command lines the person declined in this window: not asked again until they change. */
  private readonly declined = new Map<string, string>();
  /** While the person answers the start questions, their own yeses start nothing yet (see follow). */
  private asking = 0;

  private constructor(
    private readonly launches: LaunchApprovals,
    private readonly stateDir: string,
  ) {}

  /** The record of allowed workspace servers; approvals kept in the editor's own storage move into it, once. */
  static async open(
    extension: vscode.ExtensionContext,
    stateDir: string,
    trail: AuditTrail,
    log: vscode.LogOutputChannel,
  ): Promise<StartGate> {
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
    return new StartGate(launches, stateDir);
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
    // Nobody is asked about a server the managed policy would not let start anyway.
    if (!isWorkspaceServer(server) || server.blockedByPolicy) return undefined;
    const standing = this.launches.standing(server);
    return standing === 'new' || standing === 'changed' ? standing : undefined;
  }

  mayStart(server: ConfiguredServer): true | string {
    const held = this.holdOf(server);
    if (held === 'untrusted') return 'the workspace is not trusted (Restricted Mode)';
    if (held === 'unapproved') return 'you have not allowed it to start yet';
    return true;
  }

  holdOf(server: ConfiguredServer): HoldReason {
    // Restricted Mode contacts no external agent, whichever config names it.
    if (server.a2a && !vscode.workspace.isTrusted) return 'untrusted';
    if (!isWorkspaceServer(server)) return undefined;
    if (!vscode.workspace.isTrusted) return 'untrusted';
    return this.waitsFor(server) ? 'unapproved' : undefined;
  }

  /**
   * A yes given in the terminal (`mgp servers allow`, its prompt) holds here at once: the servers it
   * allows start (`startHeld`) when the record changes.
   */
  follow(startHeld: () => Promise<void>): void {
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(this.stateDir), LAUNCH_APPROVALS_FILE),
    );
    const reread = async () => {
      await this.launches.refresh();
      // The editor's own yes writes the record too: a server started then would ask for its
      // permissions between the start questions still to come. The apply after the questions starts it.
      if (vscode.workspace.isTrusted && this.asking === 0) await startHeld();
    };
    this.disposables.push(watcher, watcher.onDidCreate(reread), watcher.onDidChange(reread));
  }

  /** Asks again, at the next apply, for the servers the person declined in this window. */
  forgetDeclined(): void {
    this.declined.clear();
  }

  /** Asks once for each workspace server that is new or changed (launchFingerprint.ts says what counts). */
  async askApprovals(config: KernelConfig): Promise<void> {
    if (!vscode.workspace.isTrusted) return;
    this.asking++;
    try {
      await this.launches.refresh();
      for (const server of this.unapproved(config.servers)) {
        const fingerprint = launchFingerprint(server);
        if (this.declined.get(server.id) === fingerprint) continue;
        if (await this.askOne(server)) await this.approve([server]);
        else this.declined.set(server.id, fingerprint);
      }
    } finally {
      this.asking--;
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
        server.a2a
          ? changed
            ? `External agent "${name}" changed since you allowed it. Contact it now?`
            : `Contact external agent "${name}" from this workspace? Your messages to it leave this machine.`
          : changed
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

  dispose(): void {
    vscode.Disposable.from(...this.disposables).dispose();
  }
}
