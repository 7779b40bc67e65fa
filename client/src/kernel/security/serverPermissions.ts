/**
 * The permission flow of MGP §3.4: when a server that negotiated `security` lists
 * `permissions_required`, the kernel applies the approval policy; under `interactive` it tells the
 * server to wait (`mgp/permission/await`, §3.5), asks the operator, and delivers the decision
 * (`mgp/permission/grant`, §3.6) with `approved_by` and `expires_at`. Decisions are kept with their
 * expiry and can be revoked; each is audited.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { STANDARD_PERMISSIONS } from '@shared/schemas/vocabulary';
import type { ApprovalPolicy, ConfiguredServer, KernelSettings } from '../config/model';
import type { ConnectionService, ServerSession } from '../connection/service';
import type { AuditSink } from '../audit/auditSink';
import type { Interaction } from '../host/interaction';
import type { MgpSessions } from '../mgp/mgpSessions';
import type { JsonStore } from '../store/jsonStore';
import { ApprovalsDocument, inForce, PermissionDecision } from './approvalStore';

type Grant = 'approved' | 'denied' | 'deferred';

export interface PermissionsDeps {
  store: JsonStore<ApprovalsDocument>;
  interaction: Interaction;
  audit: AuditSink;
  mgp: MgpSessions;
  settings: () => KernelSettings;
  /** The live session of a server, to deliver a revocation. */
  session: (serverId: string) => ServerSession | undefined;
  operator: string;
}

export function policyFor(server: ConfiguredServer, settings: KernelSettings): ApprovalPolicy {
  return server.policy.approvalPolicy ?? settings.approvalPolicy;
}

function riskOf(permission: string) {
  return STANDARD_PERMISSIONS.find((p) => p.name === permission)?.risk;
}

export class ServerPermissions implements ConnectionService {
  private readonly changes = new EventEmitter<{ change: [] }>();
  /** Decisions made without asking anyone (no terminal): in force while the kernel runs, never kept. */
  private readonly transient = new Map<string, Record<string, Grant>>();

  constructor(private readonly deps: PermissionsDeps) {}

  onDidChange(listener: () => void): () => void {
    this.changes.on('change', listener);
    return () => this.changes.off('change', listener);
  }

  async connected(session: ServerSession): Promise<void> {
    const negotiated = this.deps.mgp.of(session.id);
    if (!negotiated?.extensions.has('security') || negotiated.permissionsRequired.length === 0)
      return;
    await this.deps.store.load();
    const policy = policyFor(session.config, this.deps.settings());
    const decided = this.presetDecisions(session.config, policy, negotiated.permissionsRequired);
    const open = negotiated.permissionsRequired.filter((p) => decided[p] === undefined);
    const requestId = `perm-${randomUUID()}`;
    let expiresAt: string | undefined;
    if (open.length) {
      await session.connection
        .request('mgp/permission/await', {
          request_id: requestId,
          permissions: open,
          policy,
          message: 'Waiting for operator approval',
        })
        .catch((error: unknown) =>
          session.log('warning', `mgp/permission/await failed: ${String(error)}`),
        );
      const answer = await this.deps.interaction.approvePermissions({
        serverId: session.id,
        serverName: session.connection.serverInfo?.name,
        permissions: open.map((name) => ({
          name,
          risk: riskOf(name),
          description: STANDARD_PERMISSIONS.find((p) => p.name === name)?.description,
        })),
      });
      expiresAt = answer.expiresAt;
      for (const name of open) decided[name] = answer.decisions[name] ?? 'denied';
      if (answer.persist === false)
        this.transient.set(
          session.id,
          Object.fromEntries(open.map((name) => [name, decided[name]])),
        );
      else await this.persist(session.id, open, decided, expiresAt);
    }
    await session.connection.request('mgp/permission/grant', {
      request_id: requestId,
      grants: decided,
      approved_by: this.deps.operator,
      ...(expiresAt ? { expires_at: expiresAt } : {}),
    });
    for (const [name, grant] of Object.entries(decided))
      await this.audited(
        session.id,
        name,
        grant,
        policy,
        open.includes(name) ? 'operator' : 'policy',
        expiresAt,
      );
    this.changes.emit('change');
  }

  /** What the policy decides without asking; undefined entries are left for the operator. */
  private presetDecisions(
    server: ConfiguredServer,
    policy: ApprovalPolicy,
    permissions: string[],
  ): Record<string, Grant> {
    const now = Date.now();
    const standing = (name: string) =>
      this.deps.store.value.permissions.find(
        (d) => d.server_id === server.id && d.permission === name && inForce(d, now),
      );
    const configured = (name: string) => server.policy.permissions.includes(name);
    const decided: Record<string, Grant> = {};
    for (const name of permissions) {
      // Sandboxed servers (MGP §15.4) get no dangerous permission, whatever the policy.
      if (server.policy.trustLevel === 'sandboxed' && riskOf(name) === 'dangerous')
        decided[name] = 'denied';
      else if (policy === 'auto_approve') decided[name] = 'approved';
      else if (policy === 'config_only') decided[name] = configured(name) ? 'approved' : 'denied';
      else if (configured(name)) decided[name] = 'approved';
      else if (standing(name)) decided[name] = standing(name)?.decision ?? 'denied';
      else if (policy === 'deny_all') decided[name] = 'denied';
    }
    return decided;
  }

  private async persist(
    serverId: string,
    names: string[],
    decided: Record<string, Grant>,
    expiresAt: string | undefined,
  ): Promise<void> {
    const at = new Date().toISOString();
    await this.deps.store.update((doc) => {
      doc.permissions = doc.permissions.filter(
        (d) => !(d.server_id === serverId && names.includes(d.permission)),
      );
      for (const name of names) {
        const grant = decided[name];
        if (grant === 'deferred') continue;
        doc.permissions.push({
          server_id: serverId,
          permission: name,
          decision: grant,
          decided_by: this.deps.operator,
          decided_at: at,
          ...(expiresAt ? { expires_at: expiresAt } : {}),
        });
      }
    });
  }

  private audited(
    serverId: string,
    permission: string,
    grant: Grant,
    policy: ApprovalPolicy,
    by: 'operator' | 'policy',
    expiresAt?: string,
  ): Promise<void> {
    return this.deps.audit.record({
      event_type: grant === 'approved' ? 'PERMISSION_GRANTED' : 'PERMISSION_DENIED',
      actor:
        by === 'operator'
          ? { type: 'operator', id: this.deps.operator }
          : { type: 'kernel', id: 'mgp-kernel' },
      target: { server_id: serverId },
      result: grant === 'approved' ? 'GRANTED' : grant === 'deferred' ? 'DEFERRED' : 'DENIED',
      details: {
        kind: 'server_permission',
        permission,
        risk_level: riskOf(permission),
        policy,
        decided_by: by,
        ...(expiresAt ? { expires_at: expiresAt } : {}),
      },
    });
  }

  /** approved / denied for a server's permission as decided and still in force, or undefined. */
  state(serverId: string, permission: string): 'approved' | 'denied' | undefined {
    const transient = this.transient.get(serverId)?.[permission];
    if (transient === 'approved' || transient === 'denied') return transient;
    const decision = this.deps.store.value.permissions.find(
      (d) => d.server_id === serverId && d.permission === permission && inForce(d, Date.now()),
    );
    return decision?.decision;
  }

  decisions(): PermissionDecision[] {
    return [...this.deps.store.value.permissions];
  }

  /** Withdraws a decision: the server is told the permission is now denied (MGP §3.6). */
  async revoke(serverId: string, permission: string): Promise<boolean> {
    let removed = false;
    await this.deps.store.update((doc) => {
      const before = doc.permissions.length;
      doc.permissions = doc.permissions.filter(
        (d) => !(d.server_id === serverId && d.permission === permission),
      );
      removed = doc.permissions.length < before;
    });
    if (!removed) return false;
    const session = this.deps.session(serverId);
    if (session && this.deps.mgp.active(serverId, 'security')) {
      await session.connection
        .request('mgp/permission/grant', {
          request_id: `perm-${randomUUID()}`,
          grants: { [permission]: 'denied' },
          approved_by: this.deps.operator,
        })
        .catch((error: unknown) =>
          session.log('warning', `delivering the revocation failed: ${String(error)}`),
        );
    }
    await this.deps.audit.record({
      event_type: 'PERMISSION_REVOKED',
      actor: { type: 'operator', id: this.deps.operator },
      target: { server_id: serverId },
      result: 'REVOKED',
      details: { kind: 'server_permission', permission },
    });
    this.changes.emit('change');
    return true;
  }
}
