/**
 * Whether a tool call needs the operator's approval, and what the approval policy (MGP §3.3) makes of
 * it. Pure decisions: the grants a caller already holds come in, a verdict goes out.
 *
 * A call needs approval when the tool is `dangerous`, declares `confirmation_required`, or is
 * `moderate` while `moderate_tools_require_approval` is on (MGP §4.4). Then, by policy:
 * - `auto_approve`: it runs ("YOLO mode").
 * - `interactive`: it runs when config or an earlier answer already approves it; otherwise ask.
 * - `deny_all`: as interactive, but never asks: what is not already approved is denied.
 * - `config_only`: only `approved_tools` in config count; earlier answers in the UI do not.
 */
import type { ApprovalPolicy } from '../config/types';
import type { ToolSecurity } from '../domain/security';

export type ApprovalBasis =
  | 'not_required'
  | 'auto_approve'
  | 'config_rule'
  | 'session_grant'
  | 'server_session_grant'
  | 'persistent_grant';

export type ApprovalVerdict =
  { kind: 'allow'; basis: ApprovalBasis } | { kind: 'ask' } | { kind: 'deny'; reason: string };

export interface HeldApprovals {
  configRule: boolean;
  persistent: boolean;
  session: boolean;
  serverSession: boolean;
}

export function needsApproval(security: ToolSecurity, moderateRequiresApproval: boolean): boolean {
  return (
    security.risk_level === 'dangerous' ||
    security.confirmation_required === true ||
    (security.risk_level === 'moderate' && moderateRequiresApproval)
  );
}

export function decideApproval(
  policy: ApprovalPolicy,
  required: boolean,
  held: HeldApprovals,
): ApprovalVerdict {
  if (!required) return { kind: 'allow', basis: 'not_required' };
  if (policy === 'auto_approve') return { kind: 'allow', basis: 'auto_approve' };
  if (held.configRule) return { kind: 'allow', basis: 'config_rule' };
  if (policy === 'config_only')
    return {
      kind: 'deny',
      reason:
        'the approval policy is config_only and no approved_tools entry in the config names this tool',
    };
  if (held.persistent) return { kind: 'allow', basis: 'persistent_grant' };
  if (held.session) return { kind: 'allow', basis: 'session_grant' };
  if (held.serverSession) return { kind: 'allow', basis: 'server_session_grant' };
  if (policy === 'deny_all')
    return {
      kind: 'deny',
      reason: 'the approval policy is deny_all and nothing approved this tool beforehand',
    };
  return { kind: 'ask' };
}

function globToRegExp(pattern: string): RegExp {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`);
}

/**
 * Whether `approved_tools` covers the tool. A pattern (with `*` or `?`) never covers a dangerous
 * tool: those must be named one by one.
 */
export function configApproves(
  approvedTools: readonly string[],
  toolName: string,
  security: ToolSecurity,
): boolean {
  return approvedTools.some((entry) => {
    if (!/[*?]/.test(entry)) return entry === toolName;
    return security.risk_level !== 'dangerous' && globToRegExp(entry).test(toolName);
  });
}
