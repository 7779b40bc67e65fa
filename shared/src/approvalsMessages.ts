/**
 * Messages between the Approvals panel (media/src/approvals) and its host
 * (client/src/vscode/approvals/approvalsPanel.ts): pending tool-call requests, past decisions, and the
 * standing grants the operator can revoke.
 */

/** The five answers to a tool-call approval (MGP §3.3, §4.4). */
export const APPROVAL_ANSWERS = ['once', 'session', 'always', 'server_session', 'deny'] as const;
export type ApprovalAnswer = (typeof APPROVAL_ANSWERS)[number];

/** A tool call waiting for the operator. */
export interface PendingRequestView {
  id: string;
  serverId: string;
  toolName: string;
  /** Written by the server: untrusted, shown as plain text with a warning. */
  description?: string;
  /** The arguments as pretty JSON, cut after a number of lines (`argsTruncated`). */
  argsText: string;
  argsTruncated: boolean;
  risk: string;
  /** Where the effective risk came from: config, heuristic, annotations, server or default. */
  riskSource: string;
  /** What the server itself declared, when it differs from the effective risk. */
  serverClaim?: string;
  sideEffects: string[];
  reversible?: boolean;
  permissions: string[];
  agentId: string;
  traceId: string;
  requestedAt: string;
}

/** An answered (or policy-decided) request. */
export interface DecisionView {
  id: string;
  decidedAt: string;
  serverId: string;
  toolName: string;
  risk: string;
  answer: ApprovalAnswer | 'policy_denied';
  agentId: string;
  traceId: string;
}

/** What a Revoke button withdraws: exactly what the kernel's revoke methods take. */
export type RevokeTarget =
  | { kind: 'always'; serverId: string; toolName: string }
  | { kind: 'session'; serverId: string; toolName: string }
  | { kind: 'server_session'; serverId: string }
  | { kind: 'permission'; serverId: string; permission: string }
  | {
      kind: 'access';
      agentId: string;
      serverId: string;
      entryType: 'server_grant' | 'tool_grant';
      toolName?: string;
    };

export type GrantSection = 'tools' | 'permissions' | 'access';

/** One standing grant, ready to show. */
export interface GrantView {
  /** Unique within the state: for the DOM and for tests. */
  key: string;
  section: GrantSection;
  serverId: string;
  /** The tool, the permission, or `*` for a whole server. */
  subject: string;
  /** What the grant allows, in words ("Always allowed", "approved", "allow for agent.x"). */
  scope: string;
  /** allow / deny: how to mark it. */
  effect: 'allow' | 'deny';
  grantedBy?: string;
  grantedAt?: string;
  expiresAt?: string;
  expired?: boolean;
  /** Present when the panel can revoke it; grants from config are changed in the config file. */
  revoke?: RevokeTarget;
  /** A denied server permission: it can be approved, or reset to be asked again (MGP §3). */
  decide?: { serverId: string; permission: string };
  note?: string;
}

export interface ApprovalsState {
  pending: PendingRequestView[];
  history: DecisionView[];
  grants: GrantView[];
}

/** Host → webview. */
export type ApprovalsToWebview =
  | { type: 'state'; state: ApprovalsState }
  | { type: 'notice'; level: 'info' | 'warning'; text: string };

/** Webview → host. */
export type ApprovalsFromWebview =
  | { type: 'ready' }
  | { type: 'answer'; requestId: string; answer: ApprovalAnswer }
  | { type: 'revoke'; target: RevokeTarget }
  | { type: 'permission'; serverId: string; permission: string; action: 'approve' | 'reset' }
  | { type: 'showTrace'; traceId: string };

const isString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

export function isApprovalAnswer(value: unknown): value is ApprovalAnswer {
  return typeof value === 'string' && (APPROVAL_ANSWERS as readonly string[]).includes(value);
}

export function isRevokeTarget(value: unknown): value is RevokeTarget {
  if (typeof value !== 'object' || value === null) return false;
  const t = value as Record<string, unknown>;
  switch (t.kind) {
    case 'always':
    case 'session':
      return isString(t.serverId) && isString(t.toolName);
    case 'server_session':
      return isString(t.serverId);
    case 'permission':
      return isString(t.serverId) && isString(t.permission);
    case 'access':
      return (
        isString(t.agentId) &&
        isString(t.serverId) &&
        (t.entryType === 'server_grant' ||
          (t.entryType === 'tool_grant' && isString(t.toolName))) &&
        (t.toolName === undefined || isString(t.toolName))
      );
    default:
      return false;
  }
}

export function isApprovalsFromWebview(value: unknown): value is ApprovalsFromWebview {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  switch (message.type) {
    case 'ready':
      return true;
    case 'answer':
      return isString(message.requestId) && isApprovalAnswer(message.answer);
    case 'revoke':
      return isRevokeTarget(message.target);
    case 'showTrace':
      return isString(message.traceId);
    case 'permission':
      return (
        isString(message.serverId) &&
        isString(message.permission) &&
        (message.action === 'approve' || message.action === 'reset')
      );
    default:
      return false;
  }
}
