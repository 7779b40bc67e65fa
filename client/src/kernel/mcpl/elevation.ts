/**
 * `scope/elevate` (MCPL §7.4–§7.6): the server asks to act in a scope. Its feature set must be
 * declared, enabled and scoped; then the blacklist denies, the whitelist approves, and anything else
 * is the user's to answer, once per scope for the session. Every decision is audited.
 */
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { McplSettings } from '../config/types';
import type { ScopeQuestion } from '../host/interaction';
import type { McplServer } from './mcplServer';
import type { McplAudit } from './mcplAudit';
import { isRecord, wireError } from './protocol';
import { listsFor, ScopeAnswers } from './scopes';

/** The longest scope label taken (a label is for people and patterns, not data). */
export const MAX_LABEL_CHARS = 1_000;
/** The most characters of payload shown and carried. */
export const MAX_PAYLOAD_CHARS = 20_000;

export interface ElevationContext {
  server: McplServer;
  params: Record<string, unknown>;
  settings: McplSettings | undefined;
  scopes: ScopeAnswers;
  audit: McplAudit;
  ask(question: ScopeQuestion): Promise<boolean> | undefined;
}

export async function answerElevation(context: ElevationContext): Promise<Record<string, unknown>> {
  const { server, params, audit } = context;
  const tag = typeof params.featureSet === 'string' ? params.featureSet : undefined;
  const refuse = (reason: string, outcome = 'REJECTED') => {
    audit.record('scope', { serverId: server.id, featureSet: tag, outcome, details: { reason } });
  };
  let set;
  try {
    set = server.table.check(params.featureSet);
  } catch (error) {
    refuse((error as Error).message);
    throw error;
  }
  const scope = isRecord(params.scope) ? params.scope : undefined;
  const label = typeof scope?.label === 'string' ? scope.label : '';
  const payload = isRecord(scope?.payload) ? scope.payload : undefined;
  let problem: string | undefined;
  if (!set.scoped) problem = `feature set "${set.name}" is not scoped (MCPL §7.1)`;
  else if (!label) problem = 'scope.label is missing (MCPL §7.3)';
  else if (label.length > MAX_LABEL_CHARS)
    problem = `scope.label is ${label.length} characters, more than ${MAX_LABEL_CHARS}`;
  else if (payload && (JSON.stringify(payload)?.length ?? 0) > MAX_PAYLOAD_CHARS)
    problem = `scope.payload is larger than ${MAX_PAYLOAD_CHARS} characters`;
  if (problem) {
    refuse(problem);
    throw wireError(ErrorCode.InvalidParams, `scope/elevate: ${problem}`);
  }
  const decision = await context.scopes.decide(
    {
      serverId: server.id,
      featureSet: set.name,
      featureSetDescription: set.description,
      label,
      payload,
      origin: 'elevation',
    },
    listsFor(context.settings, set.name),
    context.ask,
  );
  audit.record('scope', {
    serverId: server.id,
    featureSet: set.name,
    outcome: decision.approved ? 'APPROVED' : 'DENIED',
    actor:
      decision.by === 'user'
        ? { type: 'operator', id: 'user' }
        : { type: 'kernel', id: 'mgp-kernel' },
    details: {
      label,
      decided_by: decision.by,
      ...(decision.reason ? { reason: decision.reason } : {}),
    },
  });
  return decision.approved
    ? { approved: true, ...(payload ? { payload } : {}) }
    : { approved: false, reason: decision.reason ?? 'denied' };
}
