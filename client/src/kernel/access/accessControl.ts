/**
 * Agent-to-tool access control (MGP §5): tool_grant > server_grant > the server's default policy
 * (opt-in denies, opt-out allows, §5.5). Entries come from config (`access_grants`) and from
 * `mgp.access.grant` at run time; the runtime ones are kept in a JSON document written atomically, so
 * they survive a crash. Expired entries no longer apply. Grants and revocations are audited.
 */
import { join } from 'node:path';
import type { AccessPolicy, ConfiguredGrant } from '../config/types';
import type { AuditSink } from '../audit/auditSink';
import { JsonStore } from '../store/jsonStore';

export type EntryType = 'server_grant' | 'tool_grant';

export interface AccessEntry {
  entry_type: EntryType;
  agent_id: string;
  server_id: string;
  tool_name?: string;
  permission: 'allow' | 'deny';
  granted_by: string;
  granted_at: string;
  expires_at: string | null;
  justification?: string;
  origin: 'config' | 'runtime';
}

/** The answer of `mgp.access.query` (MGP §5.4). */
export interface AccessAnswer {
  permission: 'allow' | 'deny';
  source: EntryType | 'default_policy';
  granted_by: string | null;
  granted_at: string | null;
  expires_at: string | null;
}

export interface AccessDocument {
  version: 1;
  entries: AccessEntry[];
}

/** `mgp.access.grant`'s arguments (MGP §5.3): an entry as config writes it, and its kind. */
export interface GrantRequest extends ConfiguredGrant {
  entry_type: EntryType;
}

export interface AccessSources {
  /** Grants from config (kernel-wide and per server), re-read when the config changes. */
  configGrants(): ConfiguredGrant[];
  /** The server's default policy: its own, else [kernel]'s (MGP §5.5). */
  defaultPolicy(serverId: string): AccessPolicy;
}

function live(entry: { expires_at?: string | null }, now: number): boolean {
  return !entry.expires_at || Date.parse(entry.expires_at) > now;
}

function newest(entries: AccessEntry[]): AccessEntry | undefined {
  return entries.reduce<AccessEntry | undefined>((best, entry) => {
    if (!best) return entry;
    if (entry.origin !== best.origin) return entry.origin === 'runtime' ? entry : best;
    return entry.granted_at > best.granted_at ? entry : best;
  }, undefined);
}

export function accessStore(stateDir: string): JsonStore<AccessDocument> {
  return new JsonStore<AccessDocument>({
    path: join(stateDir, 'access.json'),
    defaultValue: () => ({ version: 1, entries: [] }),
    validate: (value): value is AccessDocument =>
      typeof value === 'object' &&
      value !== null &&
      (value as AccessDocument).version === 1 &&
      Array.isArray((value as AccessDocument).entries),
  });
}

export class AccessControl {
  constructor(
    private readonly store: JsonStore<AccessDocument>,
    private readonly sources: AccessSources,
    private readonly audit: AuditSink,
  ) {}

  load(): Promise<unknown> {
    return this.store.load();
  }

  private cached:
    { grants: ConfiguredGrant[]; doc: AccessDocument; entries: AccessEntry[] } | undefined;

  /** Every entry in force: config ones first, then runtime ones. */
  entries(now = Date.now()): AccessEntry[] {
    const grants = this.sources.configGrants();
    const doc = this.store.value;
    if (this.cached?.grants !== grants || this.cached.doc !== doc)
      this.cached = { grants, doc, entries: this.allEntries(grants, doc) };
    return this.cached.entries.filter((entry) => live(entry, now));
  }

  private allEntries(grants: ConfiguredGrant[], doc: AccessDocument): AccessEntry[] {
    const fromConfig = grants.map((grant): AccessEntry => ({
      entry_type: grant.tool_name ? 'tool_grant' : 'server_grant',
      agent_id: grant.agent_id,
      server_id: grant.server_id,
      tool_name: grant.tool_name,
      permission: grant.permission,
      granted_by: 'config',
      granted_at: '1970-01-01T00:00:00.000Z',
      expires_at: grant.expires_at ?? null,
      justification: grant.justification,
      origin: 'config',
    }));
    return [...fromConfig, ...doc.entries];
  }

  /** MGP §5.2: tool_grant, then server_grant, then the default policy. */
  query(agentId: string, serverId: string, toolName?: string, now = Date.now()): AccessAnswer {
    const mine = this.entries(now).filter(
      (e) => e.agent_id === agentId && e.server_id === serverId,
    );
    const toolGrant = toolName
      ? newest(mine.filter((e) => e.entry_type === 'tool_grant' && e.tool_name === toolName))
      : undefined;
    const decisive = toolGrant ?? newest(mine.filter((e) => e.entry_type === 'server_grant'));
    if (decisive) {
      return {
        permission: decisive.permission,
        source: decisive.entry_type,
        granted_by: decisive.granted_by,
        granted_at: decisive.origin === 'config' ? null : decisive.granted_at,
        expires_at: decisive.expires_at,
      };
    }
    const policy = this.sources.defaultPolicy(serverId);
    return {
      permission: policy === 'opt-in' ? 'deny' : 'allow',
      source: 'default_policy',
      granted_by: null,
      granted_at: null,
      expires_at: null,
    };
  }

  /** mgp.access.grant: replaces an earlier runtime entry for the same agent, server, type and tool. */
  async grant(request: GrantRequest, grantedBy: string, traceId?: string): Promise<AccessEntry> {
    if (request.entry_type === 'tool_grant' && !request.tool_name)
      throw new Error('a tool_grant needs tool_name (MGP §5.4)');
    const entry: AccessEntry = {
      entry_type: request.entry_type,
      agent_id: request.agent_id,
      server_id: request.server_id,
      tool_name: request.entry_type === 'tool_grant' ? request.tool_name : undefined,
      permission: request.permission,
      granted_by: grantedBy,
      granted_at: new Date().toISOString(),
      expires_at: request.expires_at ?? null,
      justification: request.justification,
      origin: 'runtime',
    };
    const now = Date.now();
    await this.store.update((doc) => {
      doc.entries = doc.entries.filter((e) => live(e, now) && !sameTarget(e, entry));
      doc.entries.push(entry);
    });
    await this.audit.record({
      event_type: 'ACCESS_GRANTED',
      trace_id: traceId,
      actor: { type: 'operator', id: grantedBy },
      target: { server_id: entry.server_id, tool_name: entry.tool_name },
      result: entry.permission === 'allow' ? 'ALLOW' : 'DENY',
      details: {
        agent_id: entry.agent_id,
        entry_type: entry.entry_type,
        permission: entry.permission,
        expires_at: entry.expires_at,
        justification: entry.justification,
      },
    });
    return entry;
  }

  /** mgp.access.revoke: removes runtime entries; config entries are changed in the config file. */
  async revoke(
    target: { agent_id: string; server_id: string; entry_type: EntryType; tool_name?: string },
    revokedBy: string,
    traceId?: string,
  ): Promise<number> {
    let removed = 0;
    await this.store.update((doc) => {
      const before = doc.entries.length;
      doc.entries = doc.entries.filter((e) => !sameTarget(e, target));
      removed = before - doc.entries.length;
    });
    if (removed > 0) {
      await this.audit.record({
        event_type: 'ACCESS_REVOKED',
        trace_id: traceId,
        actor: { type: 'operator', id: revokedBy },
        target: { server_id: target.server_id, tool_name: target.tool_name },
        result: 'REVOKED',
        details: {
          agent_id: target.agent_id,
          entry_type: target.entry_type,
          entries_removed: removed,
        },
      });
    }
    return removed;
  }
}

function sameTarget(
  a: Pick<AccessEntry, 'agent_id' | 'server_id' | 'entry_type' | 'tool_name'>,
  b: Pick<AccessEntry, 'agent_id' | 'server_id' | 'entry_type' | 'tool_name'>,
): boolean {
  return (
    a.agent_id === b.agent_id &&
    a.server_id === b.server_id &&
    a.entry_type === b.entry_type &&
    (a.entry_type === 'server_grant' || a.tool_name === b.tool_name)
  );
}
