/**
 * The person's yes to starting a workspace server (one declared in a file of the repository, not in
 * their own config): the server's launch fingerprint (config/launchFingerprint.ts) as it stood when
 * they allowed it. A server whose definition changed since waits for a new yes.
 *
 * Kept in the workspace's state folder, outside the workspace, so a repository cannot allow its own
 * servers; the editor and `mgp` run in the same folder read the same file, so allowing in one allows
 * in the other. The file is read again before each decision (the other shell may have written it
 * since), and a grant reads it again before writing, so one shell's grant does not undo the other's.
 * Only a SHA-256 digest of each fingerprint is kept: a definition may hold a literal secret.
 *
 * Every grant is audited, whoever made it and however long it lasts (`dev.mgp-kernel.launch_approval`).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { AuditSink } from '../audit/auditSink';
import { launchFingerprint } from '../config/launchFingerprint';
import type { ConfiguredServer } from '../config/types';
import { JsonStore } from '../store/jsonStore';

export const LAUNCH_APPROVALS_FILE = 'allowed-servers.json';

/** Where the yes was given: the editor's dialog, the terminal's prompt, `mgp servers allow`, `--trust`. */
export type GrantVia = 'editor' | 'terminal' | 'command' | 'flag';

/** What a workspace server's start waits for: nothing (allowed), or a first or a new yes. */
export type LaunchStanding = 'allowed' | 'preapproved' | 'new' | 'changed';

interface AllowedServer {
  /** `sha256:` and the hex digest of the launch fingerprint that was allowed. */
  fingerprint: string;
  allowed_at: string;
  via: GrantVia;
}

interface AllowedServersDocument {
  version: 1;
  servers: Record<string, AllowedServer>;
}

function isDocument(value: unknown): value is AllowedServersDocument {
  const doc = value as AllowedServersDocument;
  return (
    typeof doc === 'object' &&
    doc !== null &&
    doc.version === 1 &&
    typeof doc.servers === 'object' &&
    doc.servers !== null &&
    Object.values(doc.servers).every(
      (entry) =>
        typeof entry === 'object' && entry !== null && typeof entry.fingerprint === 'string',
    )
  );
}

function digestOf(fingerprint: string): string {
  return `sha256:${createHash('sha256').update(fingerprint).digest('hex')}`;
}

/**
 * `MGP_PREAPPROVED_SERVERS` (comma-separated ids, or `*`): workspace servers the person who started
 * the editor or `mgp` allows up front, for unattended runs where no one can be asked.
 */
export function preapprovedServers(env: Readonly<Record<string, string | undefined>>): Set<string> {
  return new Set(
    (env.MGP_PREAPPROVED_SERVERS ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean),
  );
}

export interface LaunchApprovalsOptions {
  /** The workspace's state folder (audit/location.ts). */
  stateDir: string;
  audit: AuditSink;
  /** The operator's agent id: the grants are theirs. */
  operator: string;
  /** The environment `MGP_PREAPPROVED_SERVERS` is read from. */
  env: Readonly<Record<string, string | undefined>>;
  /** Told when an unreadable file was kept aside (its grants are then asked for again). */
  onCorrupt?: (message: string) => void;
}

export class LaunchApprovals {
  private recorded: Record<string, AllowedServer> = {};
  /** Grants for this run only (`--trust`, "once" at the terminal): id → digest. */
  private readonly forThisRun = new Map<string, string>();
  private readonly preapproved: Set<string>;

  constructor(private readonly options: LaunchApprovalsOptions) {
    this.preapproved = preapprovedServers(options.env);
  }

  get path(): string {
    return join(this.options.stateDir, LAUNCH_APPROVALS_FILE);
  }

  /** A store over the file as it is now: the other shell may have written it since the last read. */
  private store(): JsonStore<AllowedServersDocument> {
    return new JsonStore<AllowedServersDocument>({
      path: this.path,
      defaultValue: () => ({ version: 1, servers: {} }),
      validate: isDocument,
      onCorrupt: (report) =>
        this.options.onCorrupt?.(
          `the record of allowed workspace servers was not readable (${report.reason}); kept aside as ${report.movedTo}`,
        ),
    });
  }

  /** Reads the record again; `standing` answers from what was read last. */
  async refresh(): Promise<void> {
    this.recorded = (await this.store().load()).value.servers;
  }

  standing(server: ConfiguredServer): LaunchStanding {
    if (this.preapproved.has('*') || this.preapproved.has(server.id)) return 'preapproved';
    const digest = digestOf(launchFingerprint(server));
    if (this.forThisRun.get(server.id) === digest) return 'allowed';
    const entry = Object.hasOwn(this.recorded, server.id) ? this.recorded[server.id] : undefined;
    if (!entry) return 'new';
    return entry.fingerprint === digest ? 'allowed' : 'changed';
  }

  /** Allows the servers as they are defined now: remembered for the workspace, or for this run only. */
  async allow(
    servers: readonly ConfiguredServer[],
    grant: { via: GrantVia; remember: boolean },
  ): Promise<void> {
    if (servers.length === 0) return;
    const changed = new Set(servers.filter((s) => this.standing(s) === 'changed').map((s) => s.id));
    const digests = new Map(servers.map((s) => [s.id, digestOf(launchFingerprint(s))]));
    if (grant.remember) {
      const allowedAt = new Date().toISOString();
      const doc = await this.store().update((draft) => {
        for (const [id, fingerprint] of digests)
          draft.servers[id] = { fingerprint, allowed_at: allowedAt, via: grant.via };
      });
      this.recorded = doc.servers;
    } else for (const [id, digest] of digests) this.forThisRun.set(id, digest);
    for (const server of servers)
      await this.record(server.id, 'ALLOWED', {
        via: grant.via,
        scope: grant.remember ? 'workspace' : 'run',
        changed: changed.has(server.id),
        transport: server.transport,
        declared_in: `${server.source.file}:${server.source.line}`,
      });
  }

  /** Forgets the yes given to these servers: they ask again. Returns the ids that had one. */
  async revoke(ids: readonly string[], via: GrantVia): Promise<string[]> {
    if (ids.length === 0) return [];
    let had: string[] = [];
    const doc = await this.store().update((draft) => {
      had = ids.filter((id) => Object.hasOwn(draft.servers, id));
      for (const id of had) delete draft.servers[id];
    });
    this.recorded = doc.servers;
    for (const id of had) this.forThisRun.delete(id);
    for (const id of had) await this.record(id, 'REVOKED', { via, scope: 'workspace' });
    return had;
  }

  /**
   * Takes in grants kept elsewhere before (the editor's own record of id → launch fingerprint), for
   * ids the file does not know yet; audited as the editor's. Returns the ids taken in.
   */
  async adopt(fingerprints: Readonly<Record<string, string>>): Promise<string[]> {
    if (Object.keys(fingerprints).length === 0) return [];
    let taken: string[] = [];
    const doc = await this.store().update((draft) => {
      const allowedAt = new Date().toISOString();
      taken = Object.keys(fingerprints).filter((id) => !Object.hasOwn(draft.servers, id));
      for (const id of taken)
        draft.servers[id] = {
          fingerprint: digestOf(fingerprints[id]),
          allowed_at: allowedAt,
          via: 'editor',
        };
    });
    this.recorded = doc.servers;
    for (const id of taken)
      await this.record(id, 'ALLOWED', { via: 'editor', scope: 'workspace', migrated: true });
    return taken;
  }

  private record(serverId: string, result: string, details: Record<string, unknown>) {
    return this.options.audit.record({
      event_type: 'dev.mgp-kernel.launch_approval',
      actor: { type: 'operator', id: this.options.operator },
      target: { server_id: serverId },
      result,
      details,
    });
  }
}
