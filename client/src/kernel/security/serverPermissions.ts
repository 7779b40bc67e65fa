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
import type { ApprovalPolicy, ConfiguredServer, KernelSettings } from '../config/types';
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
    const { expiresAt, requestId } = await this.askOperator(session, open, policy, decided);
    await this.deliver(session, requestId, decided, expiresAt);
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

  /**
   * MGP §3.4–3.5 for the permissions left open: tells the server to wait, asks the operator, keeps the
   * answer (in `decided`, and on disk unless it was not meant to last).
   */
  private async askOperator(
    session: ServerSession,
    open: string[],
    policy: ApprovalPolicy,
    decided: Record<string, Grant>,
  ): Promise<{ requestId: string; expiresAt?: string }> {
    const requestId = `perm-${randomUUID()}`;
    if (open.length === 0) return { requestId };
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
    for (const name of open) decided[name] = answer.decisions[name] ?? 'denied';
    if (answer.persist === false)
      this.transient.set(session.id, {
        ...this.transient.get(session.id),
        ...Object.fromEntries(open.map((name) => [name, decided[name]])),
      });
    else await this.persist(session.id, open, decided, answer.expiresAt);
    return { requestId, expiresAt: answer.expiresAt };
  }

  /** MGP §3.6: the decision, delivered to the server. */
  private deliver(
    session: ServerSession,
    requestId: string,
    grants: Record<string, Grant>,
    expiresAt?: string,
  ): Promise<unknown> {
    return session.connection.request('mgp/permission/grant', {
      request_id: requestId,
      grants,
      approved_by: this.deps.operator,
      ...(expiresAt ? { expires_at: expiresAt } : {}),
    });
  }

  /** The live session of a server that negotiated `security`, to deliver a changed decision to. */
  private secureSession(serverId: string): ServerSession | undefined {
    const session = this.deps.session(serverId);
    return session && this.deps.mgp.active(serverId, 'security') ? session : undefined;
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

  /**
   * Withdraws an approval: it becomes a denial (kept, so it can be approved or reset later) and the
   * server is told (MGP §3.6).
   */
  async revoke(serverId: string, permission: string): Promise<boolean> {
    await this.deps.store.load();
    if (this.state(serverId, permission) !== 'approved') return false;
    await this.decide(serverId, permission, 'denied');
    await this.recordOperator(serverId, permission, 'PERMISSION_REVOKED', 'REVOKED');
    this.changes.emit('change');
    return true;
  }

  /**
   * Turns a decision into an approval, until revoked, and delivers it (MGP §3.6): the way back from a
   * denial without restarting the server.
   */
  async approve(serverId: string, permission: string): Promise<void> {
    await this.deps.store.load();
    await this.decide(serverId, permission, 'approved');
    await this.recordOperator(serverId, permission, 'PERMISSION_GRANTED', 'GRANTED');
    this.changes.emit('change');
  }

  /** The operator's decision, kept until changed, and delivered to the running server. */
  private async decide(serverId: string, permission: string, grant: Grant): Promise<void> {
    this.clearTransient(serverId, permission);
    await this.persist(serverId, [permission], { [permission]: grant }, undefined);
    const session = this.secureSession(serverId);
    if (session)
      await this.deliver(session, `perm-${randomUUID()}`, { [permission]: grant }).catch(
        (error: unknown) =>
          session.log('warning', `delivering the decision failed: ${String(error)}`),
      );
  }

  /**
   * Forgets a decision, as if it was never made. A running server that still requires the permission
   * goes through the flow of MGP §3.4 for it again at once (await, the operator's answer, grant); any
   * other is asked about it when it next connects.
   */
  async reset(serverId: string, permission: string): Promise<boolean> {
    if (!(await this.forget(serverId, permission))) return false;
    await this.recordOperator(serverId, permission, 'PERMISSION_REVOKED', 'RESET');
    this.changes.emit('change');
    const session = this.secureSession(serverId);
    if (!session || !this.deps.mgp.of(serverId)?.permissionsRequired.includes(permission))
      return true;
    const policy = policyFor(session.config, this.deps.settings());
    const decided = this.presetDecisions(session.config, policy, [permission]);
    const open = decided[permission] === undefined ? [permission] : [];
    const { requestId, expiresAt } = await this.askOperator(session, open, policy, decided);
    await this.deliver(session, requestId, decided, expiresAt).catch((error: unknown) =>
      session.log('warning', `delivering the decision failed: ${String(error)}`),
    );
    await this.audited(
      serverId,
      permission,
      decided[permission],
      policy,
      open.length ? 'operator' : 'policy',
      expiresAt,
    );
    this.changes.emit('change');
    return true;
  }

  /** Removes a kept or transient decision; false when there was none. */
  private async forget(serverId: string, permission: string): Promise<boolean> {
    let removed = this.clearTransient(serverId, permission);
    await this.deps.store.update((doc) => {
      const before = doc.permissions.length;
      doc.permissions = doc.permissions.filter(
        (d) => !(d.server_id === serverId && d.permission === permission),
      );
      removed ||= doc.permissions.length < before;
    });
    return removed;
  }

  private clearTransient(serverId: string, permission: string): boolean {
    const transient = this.transient.get(serverId);
    if (!transient || !(permission in transient)) return false;
    delete transient[permission];
    return true;
  }

  private recordOperator(
    serverId: string,
    permission: string,
    eventType: 'PERMISSION_REVOKED' | 'PERMISSION_GRANTED',
    result: string,
  ): Promise<void> {
    return this.deps.audit.record({
      event_type: eventType,
      actor: { type: 'operator', id: this.deps.operator },
      target: { server_id: serverId },
      result,
      details: { kind: 'server_permission', permission, risk_level: riskOf(permission) },
    });
  }
}
