import * as vscode from 'vscode';
import type { ToolApprovalAnswer, ToolApprovalRequest } from '../../kernel';
import { ALLOW_SCOPES, requesterName } from '@shared/approvalScopes';
import { oneLine, visibleText } from '@shared/untrustedText';

const MAX_ARGUMENT_LINES = 40;

/** What the person must see to decide: server, tool, arguments, risk, side effects, and the untrusted warning. */
export function approvalDetail(request: ToolApprovalRequest): string {
  const s = request.security;
  // JSON escapes C0 controls but not bidi overrides or line separators: visibleText does.
  const args = visibleText(JSON.stringify(request.args, null, 2)).split('\n');
  const shown =
    args.length > MAX_ARGUMENT_LINES
      ? [...args.slice(0, MAX_ARGUMENT_LINES), `… ${args.length - MAX_ARGUMENT_LINES} more lines`]
      : args;
  const list = (items: readonly string[]) => items.map(oneLine).join(', ');
  return [
    `Server: ${oneLine(request.serverId)}`,
    `Tool: ${oneLine(request.toolName)}`,
    `Requested by: ${oneLine(requesterName(request.agentId))}`,
    `Risk: ${s.risk_level}${s.serverClaim ? ` (the server claims "${oneLine(s.serverClaim)}")` : ''}`,
    `Changes: ${s.side_effects.length ? list(s.side_effects) : 'none declared'}${s.reversible === false ? ' · cannot be undone' : ''}`,
    ...(s.permissions_required.length ? [`Permissions: ${list(s.permissions_required)}`] : []),
    '',
    'Arguments:',
    ...shown,
    '',
    request.description
      ? `Description (from the server — untrusted): ${oneLine(request.description.split('\n')[0].slice(0, 300))}`
      : 'The server gave no description.',
    'Tool names and descriptions come from the server and may be misleading.',
  ].join('\n');
}

interface Button extends vscode.MessageItem {
  answer: ToolApprovalAnswer | 'pick_scope';
}

/**
 * The dialog's buttons: one Allow (this call), "Allow For…" to choose a wider scope, and Deny, which
 * Escape and closing also answer. A dangerous tool's dialog leads with Deny, so the button that has
 * the focus never allows it.
 */
export function approvalButtons(request: ToolApprovalRequest): Button[] {
  const allow: Button[] = [
    { title: 'Allow', answer: 'once' },
    { title: 'Allow For…', answer: 'pick_scope' },
  ];
  if (request.security.risk_level === 'dangerous')
    return [
      { title: 'Deny', answer: 'deny' },
      ...allow,
      { title: 'Cancel', answer: 'deny', isCloseAffordance: true },
    ];
  return [...allow, { title: 'Deny', answer: 'deny', isCloseAffordance: true }];
}

/** The wider scopes of one Allow, each saying what it covers; Escape denies. */
export async function pickScope(request: ToolApprovalRequest): Promise<ToolApprovalAnswer> {
  const picked = await vscode.window.showQuickPick(
    ALLOW_SCOPES.map((choice) => ({
      label: choice.label(oneLine(request.serverId)),
      detail: choice.covers(oneLine(request.serverId), oneLine(request.toolName)),
      scope: choice.scope,
    })),
    {
      title: `Allow "${oneLine(request.serverId)}" to run ${oneLine(request.toolName)} for…`,
      placeHolder: 'Choose how long the approval lasts; Escape denies the call',
      ignoreFocusOut: true,
    },
  );
  return picked?.scope ?? 'deny';
}

/**
 * Asks about one tool call in a modal dialog (setting `mgp.approvals.prompt` = modal), or in a short
 * notification that opens the Approvals panel (= notification). The notification is a progress
 * notification because only those can be closed by the extension: it vanishes from the notification
 * list as soon as the request is answered anywhere (`answered` aborts), or withdrawn (`signal`).
 */
export function promptToolApproval(
  request: ToolApprovalRequest,
  modal: boolean,
  signal: AbortSignal | undefined,
  answered: AbortSignal,
): Promise<ToolApprovalAnswer> {
  return modal ? askInDialog(request, signal) : askInNotification(request, signal, answered);
}

async function askInDialog(
  request: ToolApprovalRequest,
  signal: AbortSignal | undefined,
): Promise<ToolApprovalAnswer> {
  // The dialog's own warning icon marks it: no second ⚠ in the title.
  const title = `Allow "${oneLine(request.serverId)}" to run ${oneLine(request.toolName)}?`;
  const withdrawn = new Promise<undefined>((resolve) =>
    signal?.addEventListener('abort', () => resolve(undefined), { once: true }),
  );
  const picked = await Promise.race([
    vscode.window.showWarningMessage(
      title,
      { modal: true, detail: approvalDetail(request) },
      ...approvalButtons(request),
    ),
    withdrawn,
  ]);
  if (!picked || signal?.aborted) return 'deny';
  return picked.answer === 'pick_scope' ? pickScope(request) : picked.answer;
}

/** A notification turns `[text](target)` into a live link: a name from a server must not make one. */
function noLinks(name: string): string {
  return oneLine(name).replace(/[[\]]/g, (bracket) => (bracket === '[' ? '［' : '］'));
}

function askInNotification(
  request: ToolApprovalRequest,
  signal: AbortSignal | undefined,
  answered: AbortSignal,
): Promise<ToolApprovalAnswer> {
  const danger = request.security.risk_level === 'dangerous';
  return new Promise((resolve) => {
    void vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `${danger ? '⚠ ' : ''}"${noLinks(request.serverId)}" wants to run ${noLinks(request.toolName)}`,
        cancellable: true,
      },
      (progress, cancel) => {
        progress.report({
          message: '[Review in Approvals](command:mgp.showApprovals) · Cancel denies it',
        });
        return new Promise<void>((done) => {
          const finish = (answer: ToolApprovalAnswer | undefined) => {
            if (answer) resolve(answer);
            done();
          };
          cancel.onCancellationRequested(() => finish('deny'));
          signal?.addEventListener('abort', () => finish('deny'), { once: true });
          answered.addEventListener('abort', () => finish(undefined), { once: true });
          if (answered.aborted) finish(undefined);
        });
      },
    );
  });
}
