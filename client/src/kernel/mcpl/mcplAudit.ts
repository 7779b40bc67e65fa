/**
 * MCPL operations in the audit trail (MCPL §13.2): server, feature set, inference id when there is
 * one, time and outcome, as `dev.mgp-kernel.mcpl.*` events (MGP §6.4 custom types). Recorded off the
 * caller's time when the sink can batch (a flood of push events must not wait on the disk), and never
 * dropped: the trail makes each one durable.
 */
import type { AuditEventInput } from '../audit/auditEvent';
import type { AuditSink } from '../audit/auditSink';

export type McplOperation =
  | 'feature_sets'
  | 'scope'
  | 'state'
  | 'push_event'
  | 'context_hook'
  | 'inference'
  | 'model_info'
  | 'channel';

export interface McplAuditFacts {
  serverId: string;
  featureSet?: string;
  inferenceId?: string;
  /** e.g. SUCCESS, ACCEPTED, REJECTED, DENIED, TIMEOUT, FAILURE. */
  outcome: string;
  /** Who decided, when someone did: the user, a list, the policy. */
  actor?: { type: 'operator' | 'kernel' | 'server' | 'agent'; id: string };
  details?: Record<string, unknown>;
}

export class McplAudit {
  constructor(private readonly sink: AuditSink) {}

  record(operation: McplOperation, facts: McplAuditFacts): void {
    const timestamp = new Date().toISOString();
    const make = (): AuditEventInput => ({
      timestamp,
      event_type: `dev.mgp-kernel.mcpl.${operation}`,
      actor: facts.actor ?? { type: 'server', id: facts.serverId },
      target: { server_id: facts.serverId },
      result: facts.outcome,
      details: {
        ...(facts.featureSet !== undefined ? { feature_set: facts.featureSet } : {}),
        ...(facts.inferenceId !== undefined ? { inference_id: facts.inferenceId } : {}),
        ...facts.details,
      },
    });
    if (this.sink.recordLater) this.sink.recordLater(make);
    else void this.sink.record(make()).catch(() => undefined);
  }
}
