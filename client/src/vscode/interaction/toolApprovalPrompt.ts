import * as vscode from 'vscode';
import { oneLine, visibleText } from '@shared/untrustedText';
import type { ToolApprovalAnswer, ToolApprovalRequest } from '../../kernel/host/interaction';

const CHOICES: { label: (request: ToolApprovalRequest) => string; answer: ToolApprovalAnswer }[] = [
  { label: () => 'Allow Once', answer: 'once' },
  { label: () => 'Allow for This Session', answer: 'session' },
  { label: () => 'Always Allow This Tool', answer: 'always' },
  {
    label: (r) => `Allow All of "${oneLine(r.serverId)}" for This Session`,
    answer: 'server_session',
  },
  { label: () => 'Deny', answer: 'deny' },
];

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
    `Requested by: ${oneLine(request.agentId)}`,
    `Risk: ${s.risk_level} (from ${s.sources.risk_level ?? 'default'})${s.serverClaim ? ` — the server claims "${oneLine(s.serverClaim)}"` : ''}`,
    `Side effects: ${s.side_effects.length ? list(s.side_effects) : 'none declared'}${s.reversible === false ? ' · not reversible' : ''}`,
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

/**
 * Asks about one tool call, as a modal dialog or as a notification (setting `mgp.approvals.prompt`).
 * The Approvals panel can answer the same request; whichever answers first wins.
 */
export function promptToolApproval(
  request: ToolApprovalRequest,
  modal: boolean,
  signal: AbortSignal | undefined,
): Promise<ToolApprovalAnswer> {
  const title = `${request.security.risk_level === 'dangerous' ? '⚠ ' : ''}Allow "${oneLine(request.serverId)}" to run ${oneLine(request.toolName)}?`;
  const items = CHOICES.map((choice) => ({
    title: choice.label(request),
    answer: choice.answer,
    isCloseAffordance: choice.answer === 'deny',
  }));
  const shown = modal
    ? vscode.window.showWarningMessage(
        title,
        { modal: true, detail: approvalDetail(request) },
        ...items.filter((i) => i.answer !== 'deny'),
      )
    : vscode.window.showWarningMessage(
        `${title} (risk ${request.security.risk_level}; details in the Approvals panel)`,
        ...items,
      );
  return new Promise((resolve) => {
    signal?.addEventListener('abort', () => resolve('deny'), { once: true });
    void Promise.resolve(shown).then((picked) => resolve(picked?.answer ?? 'deny'));
  });
}
