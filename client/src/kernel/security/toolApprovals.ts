/**
 * Tool-call approval: applies the approval policy to each call, asks the operator when it must, and
 * keeps the answers: once (nothing kept), for the session, always (on disk), the whole server for the
 * session, or deny. Lists pending requests, past decisions and standing grants for the Approvals panel,
 * and revokes them. Every decision is audited (PERMISSION_GRANTED / PERMISSION_DENIED / PERMISSION_REVOKED).
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { ApprovalPolicy } from '../config/types';
import type { AuditSink } from '../audit/auditSink';
import type { Interaction, ToolApprovalAnswer, ToolApprovalRequest } from '../host/interaction';
import type { JsonStore } from '../store/jsonStore';
import type { ApprovalsDocument, StandingToolApproval } from './approvalStore';
import { ApprovalBasis, configApproves, decideApproval, needsApproval } from './approvalPolicy';
import type { EffectiveSecurity } from '../domain/security';

export interface ApprovalQuestion {
  serverId: string;
  toolName: string;
  description?: string;
  args: Record<string, unknown>;
  security: EffectiveSecurity;
  agentId: string;
  traceId: string;
  policy: ApprovalPolicy;
  approvedTools: readonly string[];
  moderateRequiresApproval: boolean;
}

export type ApprovalOutcome =
  { allowed: true; basis: ApprovalBasis | ToolApprovalAnswer } | { allowed: false; reason: string };

export interface DecisionRecord {
  id: string;
  serverId: string;
  toolName: string;
  agentId: string;
  riskLevel: string;
  answer: ToolApprovalAnswer | 'policy_denied';
  decidedAt: string;
  traceId: string;
}

export interface ApprovalsSnapshot {
  pending: ToolApprovalRequest[];
  history: DecisionRecord[];
  standing: StandingToolApproval[];
  session: { serverId: string; toolName?: string }[];
}

const HISTORY_LIMIT = 500;
const key = (serverId: string, toolName: string) => `${serverId}\u0000${toolName}`;

/**
 * The person a team gateway's caller acts for (`agent.gateway.<client>@<user>`): their answers "for
 * this session" hold for their own calls only, never for another person's.
 */
function teamUser(agentId: string | undefined): string | undefined {
  const at = agentId?.startsWith('agent.gateway.') ? agentId.lastIndexOf('@') : -1;
  return agentId && at > 0 ? agentId.slice(at + 1) : undefined;
}

export class ToolApprovals {
  private readonly sessionTools = new Set<string>();
  private readonly sessionServers = new Set<string>();
  /** Each team gateway user's own session answers (teamUser). */
  private readonly userSessions = new Map<string, { tools: Set<string>; servers: Set<string> }>();

  private sessionsOf(agentId: string | undefined): { tools: Set<string>; servers: Set<string> } {
    const user = teamUser(agentId);
    if (user === undefined) return { tools: this.sessionTools, servers: this.sessionServers };
    let own = this.userSessions.get(user);
    if (!own) this.userSessions.set(user, (own = { tools: new Set(), servers: new Set() }));
    return own;
  }
  private readonly pending = new Map<string, ToolApprovalRequest>();
  private readonly history: DecisionRecord[] = [];
  private readonly changes = new EventEmitter<{ change: [] }>();

  constructor(
    private readonly store: JsonStore<ApprovalsDocument>,
    private readonly interaction: Interaction,
    private readonly audit: AuditSink,
    private readonly operator = 'operator',
  ) {}

  onDidChange(listener: () => void): () => void {
    this.changes.on('change', listener);
    return () => this.changes.off('change', listener);
  }

  private changed(): void {
    this.changes.emit('change');
  }

  /**
   * The verdict when it is "go ahead" without asking anyone, computed on the spot; undefined when the
   * operator must be asked, the call refused, or the standing decisions are not loaded yet.
   */
  allowedWithoutAsking(
    question: Omit<ApprovalQuestion, 'description' | 'args' | 'agentId' | 'traceId'> & {
      agentId?: string;
    },
  ): ApprovalOutcome | undefined {
    if (!this.loaded) return undefined;
    const verdict = decideApproval(
      question.policy,
      needsApproval(question.security, question.moderateRequiresApproval),
      {
        configRule: configApproves(question.approvedTools, question.toolName, question.security),
        ...this.held(question.serverId, question.toolName, question.agentId),
      },
    );
    return verdict.kind === 'allow' ? { allowed: true, basis: verdict.basis } : undefined;
  }

  private loaded = false;

  /** Reads the standing decisions (once); until then every verdict goes the long way. */
  async load(): Promise<void> {
    await this.store.load();
    this.loaded = true;
  }

  /** Whether the call may go ahead, asking the operator when the policy says to (MGP §3.3, §4.4). */
  async authorize(question: ApprovalQuestion, signal?: AbortSignal): Promise<ApprovalOutcome> {
    await this.store.load();
    this.loaded = true;
    const { serverId, toolName, security } = question;
    const verdict = decideApproval(
      question.policy,
      needsApproval(security, question.moderateRequiresApproval),
      {
        configRule: configApproves(question.approvedTools, toolName, security),
        ...this.held(serverId, toolName, question.agentId),
      },
    );
    if (verdict.kind === 'allow') return { allowed: true, basis: verdict.basis };
    if (verdict.kind === 'deny') {
      await this.decided(question, 'policy_denied', verdict.reason);
      return { allowed: false, reason: verdict.reason };
    }
    return this.ask(question, signal);
  }

  private async ask(question: ApprovalQuestion, signal?: AbortSignal): Promise<ApprovalOutcome> {
    const request: ToolApprovalRequest = {
      id: randomUUID(),
      serverId: question.serverId,
      toolName: question.toolName,
      description: question.description,
      args: question.args,
      security: question.security,
      agentId: question.agentId,
      traceId: question.traceId,
      requestedAt: new Date().toISOString(),
    };
    this.pending.set(request.id, request);
    this.changed();
    let answer: ToolApprovalAnswer;
    try {
      answer = signal?.aborted ? 'deny' : await this.interaction.approveToolCall(request, signal);
    } catch {
      answer = 'deny';
    } finally {
      this.pending.delete(request.id);
    }
    await this.remember(question, answer);
    await this.decided(question, answer);
    return answer === 'deny'
      ? { allowed: false, reason: 'the operator denied the call' }
      : { allowed: true, basis: answer };
  }

  /**
   * An answer the operator gives ahead of the call (a language-model tool's confirmation offers
   * "for this session" and "always"): kept and audited as if it answered a question.
   */
  async grant(
    question: ApprovalQuestion,
    answer: 'session' | 'always' | 'server_session',
  ): Promise<void> {
    await this.store.load();
    await this.remember(question, answer);
    await this.decided(question, answer);
  }

  private async remember(question: ApprovalQuestion, answer: ToolApprovalAnswer): Promise<void> {
    const { serverId, toolName } = question;
    const sessions = this.sessionsOf(question.agentId);
    if (answer === 'session') sessions.tools.add(key(serverId, toolName));
    if (answer === 'server_session') sessions.servers.add(serverId);
    if (answer === 'always') {
      await this.store.update((doc) => {
        if (!doc.tools.some((t) => t.server_id === serverId && t.tool_name === toolName)) {
          doc.tools.push({
            server_id: serverId,
            tool_name: toolName,
            granted_by: this.operator,
            granted_at: new Date().toISOString(),
          });
        }
      });
    }
  }

  private async decided(
    question: ApprovalQuestion,
    answer: DecisionRecord['answer'],
    reason?: string,
  ): Promise<void> {
    const record: DecisionRecord = {
      id: randomUUID(),
      serverId: question.serverId,
      toolName: question.toolName,
      agentId: question.agentId,
      riskLevel: question.security.risk_level,
      answer,
      decidedAt: new Date().toISOString(),
      traceId: question.traceId,
    };
    this.history.unshift(record);
    this.history.length = Math.min(this.history.length, HISTORY_LIMIT);
    this.changed();
    const granted = answer !== 'deny' && answer !== 'policy_denied';
    await this.audit.record({
      event_type: granted ? 'PERMISSION_GRANTED' : 'PERMISSION_DENIED',
      trace_id: question.traceId,
      actor:
        answer === 'policy_denied'
          ? { type: 'kernel', id: 'mgp-kernel' }
          : { type: 'operator', id: this.operator },
      target: { server_id: question.serverId, tool_name: question.toolName },
      result: granted ? 'GRANTED' : 'DENIED',
      details: {
        kind: 'tool_call',
        scope: answer,
        risk_level: question.security.risk_level,
        policy: question.policy,
        requested_by: question.agentId,
        ...(reason ? { reason } : {}),
      },
    });
  }

  /** Withdraws a standing or session approval (from the Approvals panel). */
  async revoke(target: {
    serverId: string;
    toolName?: string;
    scope: 'always' | 'session' | 'server_session';
  }): Promise<boolean> {
    let removed = false;
    if (target.scope === 'session' && target.toolName)
      removed = this.sessionTools.delete(key(target.serverId, target.toolName));
    if (target.scope === 'server_session') removed = this.sessionServers.delete(target.serverId);
    if (target.scope === 'always' && target.toolName) {
      await this.store.update((doc) => {
        const before = doc.tools.length;
        doc.tools = doc.tools.filter(
          (t) => !(t.server_id === target.serverId && t.tool_name === target.toolName),
        );
        removed = doc.tools.length < before;
      });
    }
    if (!removed) return false;
    this.changed();
    await this.audit.record({
      event_type: 'PERMISSION_REVOKED',
      actor: { type: 'operator', id: this.operator },
      target: { server_id: target.serverId, tool_name: target.toolName },
      result: 'REVOKED',
      details: { kind: 'tool_call', scope: target.scope },
    });
    return true;
  }

  /** The approvals the operator already gave for a tool (not the config's rules). */
  held(
    serverId: string,
    toolName: string,
    agentId?: string,
  ): { persistent: boolean; session: boolean; serverSession: boolean } {
    const sessions = this.sessionsOf(agentId);
    return {
      persistent: this.store.value.tools.some(
        (t) => t.server_id === serverId && t.tool_name === toolName,
      ),
      session: sessions.tools.has(key(serverId, toolName)),
      serverSession: sessions.servers.has(serverId),
    };
  }

  snapshot(): ApprovalsSnapshot {
    return {
      pending: [...this.pending.values()],
      history: [...this.history],
      standing: [...this.store.value.tools],
      session: [
        ...[...this.sessionTools].map((k) => ({
          serverId: k.split('\u0000')[0],
          toolName: k.split('\u0000')[1],
        })),
        ...[...this.sessionServers].map((serverId) => ({ serverId })),
      ],
    };
  }
}
