import * as vscode from 'vscode';
import type {
  ApprovalsFromWebview,
  ApprovalsToWebview,
  RevokeTarget,
} from '@shared/approvalsMessages';
import { isApprovalsFromWebview } from '@shared/approvalsMessages';
import { EDITOR_OPERATOR } from '../../kernel';
import type { EditorHost } from '../host/editorHost';
import { OpenPanels, WebviewPanel } from '../common/webviewPanel';
import { approvalsState } from './approvalsView';

/** Audit events after which the access grants may have changed (AccessControl has no change event). */
const ACCESS_EVENTS = new Set(['ACCESS_GRANTED', 'ACCESS_REVOKED']);

/**
 * The Approvals panel: tool calls waiting for the operator (answered here or in the prompt, whichever
 * comes first), past decisions, and standing grants with a Revoke button each. Follows the kernel live.
 */
export class ApprovalsPanel extends WebviewPanel<ApprovalsToWebview, ApprovalsFromWebview> {
  static readonly viewType = 'mgp.approvals';
  private static readonly open = new OpenPanels<ApprovalsPanel>();
  private shownRequests = new Set<string>();
  /** Posts the state once for a burst of changes. */
  private readonly schedule = this.coalesce(0, () => this.postState());

  static show(extension: vscode.ExtensionContext, host: EditorHost): ApprovalsPanel {
    return ApprovalsPanel.open.show('', () => new ApprovalsPanel(extension, host));
  }

  static disposeCurrent(): void {
    ApprovalsPanel.open.disposeAll();
  }

  private constructor(
    extension: vscode.ExtensionContext,
    private readonly host: EditorHost,
  ) {
    super(
      extension.extensionUri,
      { viewType: ApprovalsPanel.viewType, title: 'Approvals' },
      { title: 'Approvals', script: 'dist/approvals.js', stylesheet: 'approvals.css' },
      isApprovalsFromWebview,
    );
    const kernel = host.kernel;
    const unsubscribe = [
      kernel.approvals.onDidChange(() => this.schedule()),
      kernel.permissions.onDidChange(() => this.schedule()),
      host.trail.onRecord((record) => ACCESS_EVENTS.has(record.event_type) && this.schedule()),
    ];
    this.disposables.push({ dispose: () => unsubscribe.forEach((off) => off()) });
  }

  private postState(): void {
    const kernel = this.host.kernel;
    const state = approvalsState({
      snapshot: kernel.approvals.snapshot(),
      permissions: kernel.permissions.decisions(),
      access: kernel.access.entries(),
      now: Date.now(),
    });
    const arrived = state.pending.some((request) => !this.shownRequests.has(request.id));
    this.shownRequests = new Set(state.pending.map((request) => request.id));
    // A new request comes to the front at once, without taking the keyboard from where it is.
    if (arrived && !this.panel.visible) this.panel.reveal(undefined, true);
    this.post({ type: 'state', state });
  }

  protected async receive(message: ApprovalsFromWebview): Promise<void> {
    switch (message.type) {
      case 'ready':
        return this.postState();
      case 'answer':
        if (!this.host.interaction.answer(message.requestId, message.answer)) {
          this.post({
            type: 'notice',
            level: 'warning',
            text: 'That request was already answered or withdrawn.',
          });
        }
        return;
      case 'revoke':
        return this.revoke(message.target);
      case 'permission':
        return this.decidePermission(message.serverId, message.permission, message.action);
      case 'showTrace':
        await vscode.commands.executeCommand('mgp.showAuditTrail', { traceId: message.traceId });
        return;
    }
  }

  private async revoke(target: RevokeTarget): Promise<void> {
    const kernel = this.host.kernel;
    let done: boolean;
    try {
      if (target.kind === 'permission')
        done = await kernel.permissions.revoke(target.serverId, target.permission);
      else if (target.kind === 'access')
        done =
          (await kernel.access.revoke(
            {
              agent_id: target.agentId,
              server_id: target.serverId,
              entry_type: target.entryType,
              tool_name: target.toolName,
            },
            EDITOR_OPERATOR.agentId,
          )) > 0;
      else
        done = await kernel.approvals.revoke({
          serverId: target.serverId,
          toolName: target.kind === 'server_session' ? undefined : target.toolName,
          scope: target.kind,
        });
    } catch (error) {
      this.post({
        type: 'notice',
        level: 'warning',
        text: `Revoking failed: ${error instanceof Error ? error.message : String(error)}`,
      });
      return;
    }
    if (!done)
      this.post({ type: 'notice', level: 'warning', text: 'That grant was already gone.' });
    this.schedule();
  }

  /** Approve or Reset a denied server permission; the server hears of it at once (MGP §3.6). */
  private async decidePermission(
    serverId: string,
    permission: string,
    action: 'approve' | 'reset',
  ): Promise<void> {
    const permissions = this.host.kernel.permissions;
    try {
      if (action === 'approve') await permissions.approve(serverId, permission);
      else if (!(await permissions.reset(serverId, permission)))
        this.post({ type: 'notice', level: 'warning', text: 'That decision was already gone.' });
    } catch (error) {
      this.post({
        type: 'notice',
        level: 'warning',
        text: `Changing the permission failed: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
    this.schedule();
  }
}
