/**
 * Merging a workspace file's `[kernel]` table over the user's settings: it may only tighten them
 * (issue: a repository's `approval_policy = "auto_approve"` ran the user's own `delete_file` with no
 * dialog, over the user's `deny_all`). Keys that do not guard anything (context budget, pinned
 * tools, rotation size) are taken as written.
 */
import type { ApprovalPolicy, AuditSettings, KernelSettings } from './types';
import { applySandbox, DEFAULT_SANDBOX, tightenSandbox } from './sandboxPolicy';

/** Stricter last: a workspace may move a policy right, never left. */
const APPROVAL_ORDER: ApprovalPolicy[] = ['auto_approve', 'interactive', 'config_only', 'deny_all'];

const stricterApproval = (a: ApprovalPolicy, b: ApprovalPolicy): ApprovalPolicy =>
  APPROVAL_ORDER.indexOf(b) > APPROVAL_ORDER.indexOf(a) ? b : a;

/** Whether retention `next` keeps at least every record `base` keeps. */
function keepsAtLeast(base: AuditSettings['retention'], next: AuditSettings['retention']): boolean {
  if (next.policy === 'keep_all') return true;
  if (base.policy !== next.policy) return false;
  if (base.policy === 'time_based' && next.policy === 'time_based') return next.days >= base.days;
  if (base.policy === 'size_based' && next.policy === 'size_based')
    return next.maxBytes >= base.maxBytes;
  return false;
}

export interface Tightened {
  settings: KernelSettings;
  /** `[kernel]` keys of the workspace table that would have loosened `base`, and were ignored. */
  ignored: string[];
}

export function tightenKernel(base: KernelSettings, table: Partial<KernelSettings>): Tightened {
  const settings: KernelSettings = { ...base };
  const ignored: string[] = [];
  if (table.approvalPolicy) {
    settings.approvalPolicy = stricterApproval(base.approvalPolicy, table.approvalPolicy);
    if (settings.approvalPolicy !== table.approvalPolicy) ignored.push('approval_policy');
  }
  if (table.defaultAccessPolicy) {
    if (table.defaultAccessPolicy === 'opt-in') settings.defaultAccessPolicy = 'opt-in';
    else if (base.defaultAccessPolicy === 'opt-in') ignored.push('default_access_policy');
  }
  if (table.moderateToolsRequireApproval !== undefined) {
    settings.moderateToolsRequireApproval ||= table.moderateToolsRequireApproval;
    if (!table.moderateToolsRequireApproval && base.moderateToolsRequireApproval)
      ignored.push('moderate_tools_require_approval');
  }
  if (table.accessGrants) {
    const denials = table.accessGrants.filter((g) => g.permission === 'deny');
    settings.accessGrants = [...base.accessGrants, ...denials];
    if (denials.length < table.accessGrants.length) ignored.push('access_grants');
  }
  for (const key of ['toolCreation', 'keepRegisteredServers'] as const) {
    if (table[key] === undefined) continue;
    settings[key] = base[key] && table[key];
    if (table[key] && !base[key])
      ignored.push(key === 'toolCreation' ? 'tool_creation' : 'keep_registered_servers');
  }
  if (table.audit) {
    const keeps = keepsAtLeast(base.audit.retention, table.audit.retention);
    settings.audit = {
      rotateBytes: table.audit.rotateBytes,
      retention: keeps ? table.audit.retention : base.audit.retention,
      // A repository must not send your audit records to a database of its choosing.
      ...(base.audit.postgres ? { postgres: base.audit.postgres } : {}),
    };
    if (!keeps) ignored.push('audit.retention');
    if (table.audit.postgres) ignored.push('audit.postgres');
  }
  if (table.sandbox) {
    const tightened = tightenSandbox(applySandbox(DEFAULT_SANDBOX, base.sandbox), table.sandbox);
    settings.sandbox = { ...base.sandbox, ...tightened.table };
    ignored.push(...tightened.ignored);
  }
  // Only the user's own config names what servers may have the kernel reach on their word.
  if (table.privateHosts?.length) ignored.push('private_hosts');
  if (table.pinnedTools) settings.pinnedTools = table.pinnedTools;
  if (table.toolContextBudget) settings.toolContextBudget = table.toolContextBudget;
  return { settings, ignored };
}
