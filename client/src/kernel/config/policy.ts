/**
 * The security and kernel settings of mgp.toml, read from tables the checker has already validated
 * (`[kernel]`, and each `[[servers]]` table's policy keys), defaults filled in.
 */
import type { SecurityOverride } from '../domain/security';
import type {
  AccessPolicy,
  ApprovalPolicy,
  ConfiguredGrant,
  KernelConfig,
  KernelSettings,
  ServerPolicy,
  TrustLevel,
} from './types';
import { mcplSettings } from './mcplSettings';
import { mergeSandboxTables, sandboxTable } from './sandboxPolicy';
import { DEFAULT_A2A_SERVE } from './a2aServe';

type Table = Record<string, unknown>;

export const DEFAULT_KERNEL_SETTINGS: KernelSettings = {
  approvalPolicy: 'interactive',
  defaultAccessPolicy: 'opt-out',
  moderateToolsRequireApproval: false,
  accessGrants: [],
  pinnedTools: [],
  toolContextBudget: {
    max_tokens: 8000,
    pinned_reserve: 2000,
    discovery_reserve: 3000,
    cache_limit: 3000,
  },
  toolCreation: false,
  keepRegisteredServers: false,
  privateHosts: [],
  audit: { retention: { policy: 'keep_all' }, rotateBytes: 10 * 1024 * 1024 },
  sandbox: {},
};

/** The config of a kernel before the first one is applied: no files, no servers, the defaults. */
export const EMPTY_CONFIG: KernelConfig = {
  files: [],
  servers: [],
  shadowed: [],
  problems: [],
  kernel: DEFAULT_KERNEL_SETTINGS,
  a2aServe: DEFAULT_A2A_SERVE,
};

function isTable(value: unknown): value is Table {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
  );
}

function strings(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : [];
}

function grantsFrom(value: unknown, serverId?: string): ConfiguredGrant[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isTable).flatMap((entry) => {
    const server = serverId ?? (typeof entry.server_id === 'string' ? entry.server_id : undefined);
    if (typeof entry.agent_id !== 'string' || !server) return [];
    return [
      {
        agent_id: entry.agent_id,
        server_id: server,
        tool_name: typeof entry.tool_name === 'string' ? entry.tool_name : undefined,
        permission: entry.permission === 'deny' ? 'deny' : 'allow',
        justification: typeof entry.justification === 'string' ? entry.justification : undefined,
        expires_at: typeof entry.expires_at === 'string' ? entry.expires_at : undefined,
      } satisfies ConfiguredGrant,
    ];
  });
}

function toolOverrides(value: unknown): Record<string, SecurityOverride> {
  if (!isTable(value)) return {};
  return Object.fromEntries(
    Object.entries(value)
      .filter((entry): entry is [string, Table] => isTable(entry[1]))
      .map(([name, table]) => [name, table as SecurityOverride]),
  );
}

/** The policy keys of one `[[servers]]` table (mgp.toml); OpenFang servers have none of them. */
export function serverPolicy(table: Table, id: string, format: 'mgp' | 'openfang'): ServerPolicy {
  if (format === 'openfang')
    return {
      toolOverrides: {},
      approvedTools: [],
      accessGrants: [],
      negotiate: true,
      permissions: [],
      pinnedTools: [],
    };
  const mgp = isTable(table.mgp) ? table.mgp : {};
  return {
    approvalPolicy:
      typeof table.approval_policy === 'string'
        ? (table.approval_policy as ApprovalPolicy)
        : undefined,
    defaultAccessPolicy:
      typeof table.default_access_policy === 'string'
        ? (table.default_access_policy as AccessPolicy)
        : undefined,
    toolOverrides: toolOverrides(table.tools),
    approvedTools: strings(table.approved_tools),
    accessGrants: grantsFrom(table.access_grants, id),
    negotiate: mgp.negotiate !== false,
    permissions: strings(mgp.permissions_required),
    trustLevel: typeof mgp.trust_level === 'string' ? (mgp.trust_level as TrustLevel) : undefined,
    pinnedTools: strings(table.pinned_tools),
    mcpl: mcplSettings(table.mcpl),
    sandbox: sandboxTable(table.sandbox),
  };
}

function auditSettings(value: unknown): Partial<KernelSettings['audit']> | undefined {
  if (!isTable(value)) return undefined;
  const settings: Partial<KernelSettings['audit']> = {};
  if (typeof value.rotate_mb === 'number') settings.rotateBytes = value.rotate_mb * 1024 * 1024;
  if (value.retention === 'time_based')
    settings.retention = {
      policy: 'time_based',
      days: typeof value.retention_days === 'number' ? value.retention_days : 90,
    };
  else if (value.retention === 'size_based')
    settings.retention = {
      policy: 'size_based',
      maxBytes: (typeof value.retention_mb === 'number' ? value.retention_mb : 500) * 1024 * 1024,
    };
  else if (value.retention === 'keep_all') settings.retention = { policy: 'keep_all' };
  const postgres = isTable(value.postgres) ? value.postgres.url : undefined;
  if (typeof postgres === 'string') settings.postgres = { url: postgres };
  return settings;
}

/** The keys one file's `[kernel]` table sets; others stay undefined so a farther file can set them. */
export function kernelTable(value: unknown): Partial<KernelSettings> | undefined {
  if (!isTable(value)) return undefined;
  const kernel: Partial<KernelSettings> = {};
  if (typeof value.approval_policy === 'string')
    kernel.approvalPolicy = value.approval_policy as ApprovalPolicy;
  if (typeof value.default_access_policy === 'string')
    kernel.defaultAccessPolicy = value.default_access_policy as AccessPolicy;
  if (typeof value.moderate_tools_require_approval === 'boolean')
    kernel.moderateToolsRequireApproval = value.moderate_tools_require_approval;
  if (Array.isArray(value.access_grants)) kernel.accessGrants = grantsFrom(value.access_grants);
  if (Array.isArray(value.pinned_tools)) kernel.pinnedTools = strings(value.pinned_tools);
  kernel.sandbox = sandboxTable(value.sandbox);
  if (isTable(value.tool_context_budget))
    kernel.toolContextBudget = {
      ...DEFAULT_KERNEL_SETTINGS.toolContextBudget,
      ...(value.tool_context_budget as Partial<KernelSettings['toolContextBudget']>),
    };
  if (typeof value.tool_creation === 'boolean') kernel.toolCreation = value.tool_creation;
  if (typeof value.keep_registered_servers === 'boolean')
    kernel.keepRegisteredServers = value.keep_registered_servers;
  if (Array.isArray(value.private_hosts)) kernel.privateHosts = strings(value.private_hosts);
  const audit = auditSettings(value.audit);
  if (audit) kernel.audit = { ...DEFAULT_KERNEL_SETTINGS.audit, ...audit };
  return kernel;
}

/** Files nearest first: each key comes from the nearest file that sets it. */
export function mergeKernelSettings(
  tables: (Partial<KernelSettings> | undefined)[],
): KernelSettings {
  const merged: KernelSettings = { ...DEFAULT_KERNEL_SETTINGS };
  for (const table of [...tables].reverse())
    if (table)
      Object.assign(
        merged,
        Object.fromEntries(Object.entries(table).filter(([, v]) => v !== undefined)),
      );
  // A nearer file's [kernel.sandbox] overrides a farther one's key by key, not as a whole table.
  merged.sandbox = mergeSandboxTables(tables.map((table) => table?.sandbox));
  return merged;
}
