/**
 * What the Approvals panel shows, from the kernel's own state: pending tool-call requests, past
 * decisions, and every standing grant with what the Revoke button withdraws. Pure, no VS Code.
 */
import type {
  ApprovalsState,
  DecisionView,
  GrantView,
  PendingRequestView,
} from '@shared/approvalsMessages';
import type {
  AccessEntry,
  ApprovalsSnapshot,
  DecisionRecord,
  PermissionDecision,
  ToolApprovalRequest,
} from '../../kernel';

/** Arguments beyond this many lines are cut (the modal prompt cuts at 40; the panel has room for more). */
export const MAX_ARGUMENT_LINES = 200;
const MAX_ARGUMENT_CHARS = 20_000;
/** The panel lists at most this many past decisions, newest first. */
export const HISTORY_SHOWN = 200;

export interface ApprovalsInput {
  snapshot: ApprovalsSnapshot;
  permissions: PermissionDecision[];
  access: AccessEntry[];
  now: number;
}

export function argumentsText(args: Record<string, unknown>): { text: string; truncated: boolean } {
  let text: string;
  try {
    text = JSON.stringify(args ?? {}, null, 2) ?? '{}';
  } catch {
    text = '(arguments that cannot be shown as JSON)';
  }
  const lines = text.split('\n');
  let truncated = false;
  if (lines.length > MAX_ARGUMENT_LINES) {
    text = [
      ...lines.slice(0, MAX_ARGUMENT_LINES),
      `… ${lines.length - MAX_ARGUMENT_LINES} more lines`,
    ].join('\n');
    truncated = true;
  }
  if (text.length > MAX_ARGUMENT_CHARS) {
    text = `${text.slice(0, MAX_ARGUMENT_CHARS)}\n… cut at ${MAX_ARGUMENT_CHARS.toLocaleString('en-US')} characters`;
    truncated = true;
  }
  return { text, truncated };
}

export function pendingView(request: ToolApprovalRequest): PendingRequestView {
  const s = request.security;
  const args = argumentsText(request.args);
  return {
    id: request.id,
    serverId: request.serverId,
    toolName: request.toolName,
    description: request.description,
    argsText: args.text,
    argsTruncated: args.truncated,
    risk: s.risk_level,
    riskSource: s.sources.risk_level ?? 'default',
    serverClaim: s.serverClaim,
    sideEffects: [...s.side_effects],
    reversible: s.reversible,
    permissions: [...s.permissions_required],
    agentId: request.agentId,
    traceId: request.traceId,
    requestedAt: request.requestedAt,
  };
}

export function decisionView(record: DecisionRecord): DecisionView {
  return {
    id: record.id,
    decidedAt: record.decidedAt,
    serverId: record.serverId,
    toolName: record.toolName,
    risk: record.riskLevel,
    answer: record.answer,
    agentId: record.agentId,
    traceId: record.traceId,
  };
}

function toolGrants(snapshot: ApprovalsSnapshot): GrantView[] {
  const byName = (
    a: { serverId: string; subject: string },
    b: { serverId: string; subject: string },
  ) => a.serverId.localeCompare(b.serverId) || a.subject.localeCompare(b.subject);
  const always: GrantView[] = snapshot.standing.map((t) => ({
    key: `always:${t.server_id}:${t.tool_name}`,
    section: 'tools',
    serverId: t.server_id,
    subject: t.tool_name,
    scope: 'Always allowed',
    effect: 'allow',
    grantedBy: t.granted_by,
    grantedAt: t.granted_at,
    revoke: { kind: 'always', serverId: t.server_id, toolName: t.tool_name },
  }));
  const session: GrantView[] = snapshot.session.map((s) =>
    s.toolName
      ? {
          key: `session:${s.serverId}:${s.toolName}`,
          section: 'tools',
          serverId: s.serverId,
          subject: s.toolName,
          scope: 'Allowed for this session',
          effect: 'allow',
          revoke: { kind: 'session', serverId: s.serverId, toolName: s.toolName },
        }
      : {
          key: `server_session:${s.serverId}`,
          section: 'tools',
          serverId: s.serverId,
          subject: '*',
          scope: 'Every tool of the server, this session',
          effect: 'allow',
          revoke: { kind: 'server_session', serverId: s.serverId },
        },
  );
  return [...always.sort(byName), ...session.sort(byName)];
}

function permissionGrants(decisions: PermissionDecision[], now: number): GrantView[] {
  return decisions
    .map((d): GrantView => {
      const expired = d.expires_at !== undefined && Date.parse(d.expires_at) <= now;
      return {
        key: `permission:${d.server_id}:${d.permission}`,
        section: 'permissions',
        serverId: d.server_id,
        subject: d.permission,
        scope: d.decision === 'approved' ? 'Approved' : 'Denied',
        effect: d.decision === 'approved' ? 'allow' : 'deny',
        grantedBy: d.decided_by,
        grantedAt: d.decided_at,
        expiresAt: d.expires_at,
        expired,
        ...(d.decision === 'approved'
          ? { revoke: { kind: 'permission', serverId: d.server_id, permission: d.permission } }
          : { decide: { serverId: d.server_id, permission: d.permission } }),
      };
    })
    .sort((a, b) => a.serverId.localeCompare(b.serverId) || a.subject.localeCompare(b.subject));
}

function accessGrants(entries: AccessEntry[]): GrantView[] {
  return entries.map((e): GrantView => {
    const subject = e.entry_type === 'tool_grant' ? (e.tool_name ?? '') : '*';
    const fromConfig = e.origin === 'config';
    return {
      key: `access:${e.origin}:${e.agent_id}:${e.server_id}:${e.entry_type}:${subject}`,
      section: 'access',
      serverId: e.server_id,
      subject,
      scope: `${e.permission === 'allow' ? 'Allow' : 'Deny'} for ${e.agent_id}`,
      effect: e.permission,
      grantedBy: fromConfig ? undefined : e.granted_by,
      grantedAt: fromConfig ? undefined : e.granted_at,
      expiresAt: e.expires_at ?? undefined,
      note: fromConfig ? 'From the configuration: change it in the config file' : e.justification,
      revoke: fromConfig
        ? undefined
        : {
            kind: 'access',
            agentId: e.agent_id,
            serverId: e.server_id,
            entryType: e.entry_type,
            ...(e.entry_type === 'tool_grant' ? { toolName: e.tool_name } : {}),
          },
    };
  });
}

export function approvalsState(input: ApprovalsInput): ApprovalsState {
  const { snapshot } = input;
  return {
    pending: [...snapshot.pending]
      .sort((a, b) => a.requestedAt.localeCompare(b.requestedAt))
      .map(pendingView),
    history: snapshot.history.slice(0, HISTORY_SHOWN).map(decisionView),
    grants: [
      ...toolGrants(snapshot),
      ...permissionGrants(input.permissions, input.now),
      ...accessGrants(input.access),
    ],
  };
}
