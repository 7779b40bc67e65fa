/**
 * The smaller questions: server permissions (MGP §3), elicitation forms and URLs
 * (MCP), callbacks (MGP §13.4) and runtime registrations (MGP §15.4), each with VS Code's own widgets.
 */
import * as vscode from 'vscode';
import { oneLine, visibleText } from '@shared/untrustedText';
import { elicitInForm } from './elicitationPanel';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type {
  CallbackQuestion,
  PermissionAnswer,
  PermissionRequest,
  RegistrationRequest,
} from '../../kernel';

const EXPIRY: { label: string; hours?: number }[] = [
  { label: 'Until revoked' },
  { label: 'For 1 hour', hours: 1 },
  { label: 'For 1 day', hours: 24 },
  { label: 'For 30 days', hours: 24 * 30 },
];

export async function askPermissions(request: PermissionRequest): Promise<PermissionAnswer> {
  const list = request.permissions
    .map(
      (p) =>
        `• ${oneLine(p.name)} (risk ${oneLine(p.risk ?? 'unknown')})${p.description ? ` — ${oneLine(p.description)}` : ''}`,
    )
    .join('\n');
  // The first button is the one Enter takes: with a dangerous permission asked, it is the choice
  // that approves only the others (each can still be checked), never Approve All.
  const dangerous = request.permissions.some((p) => p.risk === 'dangerous');
  const buttons = dangerous
    ? ['Choose…', 'Deny All', 'Approve All']
    : ['Approve All', 'Choose…', 'Deny All'];
  const choice = await vscode.window.showWarningMessage(
    `MCP server "${request.serverId}" asks for ${request.permissions.length} permission${request.permissions.length === 1 ? '' : 's'}`,
    {
      modal: true,
      detail: `${list}\n\nThe server waits until you decide. If you deny some, it keeps working without them.${dangerous ? '\n\nChoose… leaves the dangerous ones unchecked.' : ''}`,
    },
    ...buttons,
  );
  const deny = (names: string[]) => Object.fromEntries(names.map((n) => [n, 'denied' as const]));
  if (!choice || choice === 'Deny All')
    return { decisions: deny(request.permissions.map((p) => p.name)) };
  let approved = request.permissions.map((p) => p.name);
  if (choice === 'Choose…') {
    const picked = await vscode.window.showQuickPick(
      request.permissions.map((p) => ({
        label: oneLine(p.name),
        description: `risk ${oneLine(p.risk ?? 'unknown')}`,
        detail: p.description && oneLine(p.description),
        picked: p.risk !== 'dangerous',
      })),
      {
        canPickMany: true,
        title: `Permissions for "${request.serverId}"`,
        placeHolder: 'Checked permissions are approved; the others are denied',
        ignoreFocusOut: true,
      },
    );
    approved = picked?.map((p) => p.label) ?? [];
  }
  const expiry = await vscode.window.showQuickPick(EXPIRY, {
    title: 'How long do the approvals last?',
    placeHolder: 'Until revoked',
    ignoreFocusOut: true,
  });
  // A question closed unanswered approves nothing, as the dialog closed does: never "until revoked".
  if (!expiry) return { decisions: deny(request.permissions.map((p) => p.name)) };
  const expiresAt = expiry.hours
    ? new Date(Date.now() + expiry.hours * 3_600_000).toISOString()
    : undefined;
  return {
    decisions: {
      ...deny(request.permissions.map((p) => p.name)),
      ...Object.fromEntries(approved.map((n) => [n, 'approved' as const])),
    },
    expiresAt,
  };
}

/** MCP elicitation: a URL to open (asked in a dialog), or a form (one form in an editor tab). */
export async function elicit(
  serverId: string,
  params: ElicitRequest['params'],
  signal: AbortSignal | undefined,
  extensionUri: vscode.Uri,
): Promise<ElicitResult> {
  if (params.mode === 'url') {
    // The kernel offers only http(s) addresses (elicitationUrl.ts); the full address is the title.
    const url = vscode.Uri.parse(params.url, true);
    if (url.scheme !== 'https' && url.scheme !== 'http') return { action: 'decline' };
    const choice = await vscode.window.showWarningMessage(
      `"${serverId}" asks you to open ${url.toString()}`,
      {
        modal: true,
        detail: `${visibleText(params.message)}\n\n${oneLine(params.url)}\n\nOpen this address in your browser only if you trust it.`,
      },
      'Open in Browser',
    );
    if (!choice) return { action: 'decline' };
    await vscode.env.openExternal(url);
    return { action: 'accept' };
  }
  return elicitInForm(extensionUri, serverId, params, signal);
}

export async function answerCallback(question: CallbackQuestion): Promise<string | undefined> {
  const from = `"${question.serverId}"`;
  if (question.type === 'notification') {
    void vscode.window.showInformationMessage(`${from}: ${oneLine(question.message)}`);
    return undefined;
  }
  if (question.type === 'confirmation') {
    const options = question.options?.length ? question.options : ['confirm', 'cancel'];
    const picked = await vscode.window.showWarningMessage(
      `${from} asks for confirmation`,
      { modal: true, detail: visibleText(question.message) },
      ...options.filter((o) => o !== 'cancel'),
    );
    return question.expired.aborted
      ? undefined
      : (picked ?? (options.includes('cancel') ? 'cancel' : undefined));
  }
  if (question.type === 'selection') {
    const picker = vscode.window.createQuickPick();
    picker.title = `${from} asks`;
    picker.placeholder = oneLine(question.message);
    picker.items = (question.options ?? []).map((label) => ({ label }));
    return closeable(picker, question.expired, () => picker.selectedItems[0]?.label);
  }
  const box = vscode.window.createInputBox();
  box.title = `${from} asks`;
  box.prompt = oneLine(question.message);
  return closeable(box, question.expired, () => box.value);
}

/** Shows a quick input until it is accepted, hidden, or the callback's timeout passes. */
function closeable(
  input: vscode.QuickPick<vscode.QuickPickItem> | vscode.InputBox,
  expired: AbortSignal,
  value: () => string | undefined,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (answer: string | undefined) => {
      if (done) return;
      done = true;
      resolve(answer);
      input.dispose();
    };
    input.onDidAccept(() => finish(value()));
    input.onDidHide(() => finish(undefined));
    expired.addEventListener('abort', () => finish(undefined), { once: true });
    input.show();
  });
}

export async function approveRegistration(request: RegistrationRequest): Promise<boolean> {
  const detail = `${request.transport}: ${request.command} ${request.args.join(' ')}\nTrust level: ${request.trustLevel}${request.createdBy ? `\nRequested by: ${request.createdBy}` : ''}${request.justification ? `\nWhy: ${request.justification}` : ''}\n\nIt will run with your permissions until it is deregistered or the session ends.`;
  const choice = await vscode.window.showWarningMessage(
    `Register and start MCP server "${request.id}"?`,
    { modal: true, detail },
    'Register',
  );
  return choice === 'Register';
}
