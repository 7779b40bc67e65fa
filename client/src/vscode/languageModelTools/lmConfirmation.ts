/**
 * The kernel's own approval, shown in VS Code's tool confirmation. When the approval policy asks
 * (MGP §3.3), `prepareInvocation` returns the question as confirmation messages: server, tool, the
 * agent, risk, side effects, permissions, arguments, and the warning that descriptions come from the
 * server. "Continue" answers it once: the invocation that follows finds its confirmation here and the
 * pipeline records the answer (PERMISSION_GRANTED, once) as it does every answer. Links in the message
 * grant the tool for the session or always (recorded too). An invocation with no confirmation
 * (VS Code skipped it, or the policy changed in between) is asked again by the kernel itself.
 */
import * as vscode from 'vscode';
import { canonicalJson, type Kernel } from '../../kernel';
import { code, fenced } from '../common/untrustedMarkdown';

const CONFIRMATION_LIFETIME_MS = 10 * 60_000;
export const GRANT_COMMAND = 'mgp.agents.grantTool';

const keyOf = (serverId: string, toolName: string, args: unknown) =>
  `${serverId}\u0000${toolName}\u0000${canonicalJson(args ?? {})}`;

/** Confirmations shown and not yet used, each for one call with exactly these arguments. */
export class Confirmations {
  private readonly shown = new Map<string, number>();

  remember(serverId: string, toolName: string, args: unknown): void {
    this.prune();
    this.shown.set(keyOf(serverId, toolName, args), Date.now() + CONFIRMATION_LIFETIME_MS);
  }

  /** Whether a confirmation was shown for this call; it is used up. */
  take(serverId: string, toolName: string, args: unknown): boolean {
    this.prune();
    return this.shown.delete(keyOf(serverId, toolName, args));
  }

  private prune(): void {
    const now = Date.now();
    for (const [key, until] of this.shown) if (until < now) this.shown.delete(key);
  }
}

function grantLink(
  label: string,
  serverId: string,
  toolName: string,
  scope: string,
  agentId: string,
): string {
  const args = encodeURIComponent(JSON.stringify([{ serverId, toolName, scope, agentId }]));
  return `[${label}](command:${GRANT_COMMAND}?${args})`;
}

/** The confirmation messages of a call the policy asks about; undefined when it does not ask. */
export function confirmationFor(
  kernel: Kernel,
  serverId: string,
  toolName: string,
  args: Record<string, unknown>,
  agentId: string,
): vscode.LanguageModelToolConfirmationMessages | undefined {
  if (kernel.approvalVerdict(serverId, toolName)?.kind !== 'ask') return undefined;
  const server = kernel.manager.find(serverId);
  const tool = server?.tools.find((t) => t.name === toolName);
  if (!server || !tool) return undefined;
  const s = kernel.securityOf(server, tool);
  const args_ = JSON.stringify(args, null, 2);
  const lines = [
    `**Server** ${code(serverId)} · **Tool** ${code(toolName)} · requested by ${code(agentId)}`,
    '',
    `**Risk** ${s.risk_level} (from ${s.sources.risk_level ?? 'default'})${s.serverClaim ? ` — the server claims ${code(String(s.serverClaim))}` : ''}`,
    '',
    `**Side effects** ${s.side_effects.length ? s.side_effects.map(code).join(', ') : 'none declared'}${s.reversible === false ? ' · not reversible' : ''}`,
    ...(s.permissions_required.length
      ? ['', `**Permissions** ${s.permissions_required.map(code).join(', ')}`]
      : []),
    '',
    '**Arguments**',
    fenced(args_.length > 4000 ? `${args_.slice(0, 4000)}\n…` : args_, 'json'),
    tool.description
      ? `*Description (from the server — untrusted):* ${code(tool.description.split('\n')[0].slice(0, 300))}`
      : '*The server gave no description.*',
    '',
    'Tool names and descriptions come from the server and may be misleading.',
    '',
    `**Continue** allows this call once. ${grantLink('Allow this tool for the session', serverId, toolName, 'session', agentId)} · ${grantLink('Always allow in this workspace', serverId, toolName, 'always', agentId)}`,
  ];
  const message = new vscode.MarkdownString(lines.join('\n'));
  message.isTrusted = { enabledCommands: [GRANT_COMMAND] };
  return {
    title: `${s.risk_level === 'dangerous' ? '⚠ ' : ''}Allow "${serverId}" to run ${toolName}?`,
    message,
  };
}

/** The command behind the links: a grant for the session or always, recorded by the kernel. */
export function registerGrantCommand(kernel: Kernel): vscode.Disposable {
  return vscode.commands.registerCommand(
    GRANT_COMMAND,
    async (target?: { serverId?: string; toolName?: string; scope?: string; agentId?: string }) => {
      const scope =
        target?.scope === 'always' ? 'always' : target?.scope === 'session' ? 'session' : undefined;
      if (!target?.serverId || !target.toolName || !scope) return;
      const granted = await kernel.grantApproval(
        target.serverId,
        target.toolName,
        scope,
        target.agentId ?? 'agent.copilot',
      );
      if (granted)
        void vscode.window.showInformationMessage(
          `${target.serverId}.${target.toolName} is allowed ${scope === 'always' ? 'in this workspace from now on (revoke it in the Approvals panel)' : 'for this session'}. Press Continue to run it.`,
        );
    },
  );
}
