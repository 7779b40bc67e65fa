/**
 * The client scenario of MGP §6 (Tier 2, §17.5): the client forwards its audit events, in the §6.3
 * format, to a server that negotiated `audit` ("Audit Event Delivery"), the event of a call among
 * them, ideally with the call's trace_id (§6.5).
 */
import { STANDARD_EVENT_TYPES } from '../../audit/auditEvent';
import { fail, missing, pass, shown } from '../context';
import { allCalls, notOffered, sessionsWith, text } from './observe';
import type { ClientCheck, ClientScenario } from './scenario';

const AUDITED_TOOL = 'echo';
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
const REVERSE_DOMAIN = /^[a-z][a-z0-9-]*(\.[a-z0-9_-]+){2,}$/;

function auditProblem(event: Record<string, unknown>): string | undefined {
  if (typeof event.timestamp !== 'string' || !ISO_TIME.test(event.timestamp))
    return `timestamp ${shown(event.timestamp)} is not an ISO 8601 time`;
  const type = event.event_type;
  if (
    typeof type !== 'string' ||
    (!(STANDARD_EVENT_TYPES as readonly string[]).includes(type) && !REVERSE_DOMAIN.test(type))
  )
    return `event_type ${shown(type)} is neither a §6.4 type nor reverse-domain`;
  const actor = event.actor as { type?: unknown; id?: unknown } | undefined;
  if (typeof actor?.type !== 'string' || typeof actor.id !== 'string')
    return `actor ${shown(actor)} is not { type, id }`;
  if (event.trace_id !== undefined && typeof event.trace_id !== 'string')
    return `trace_id ${shown(event.trace_id)} is not a string`;
  return undefined;
}

const auditForwarding: ClientCheck = {
  id: 'mgp.client.audit',
  tier: 2,
  title: 'Audit events forwarded',
  section: 'MGP §6.3',
  extension: '§6 Audit',
  judge(seen) {
    const absent = notOffered(seen, 'audit', 'offer "audit" and forward notifications/mgp.audit');
    if (absent) return absent;
    const events = sessionsWith(seen, 'audit').flatMap((s) =>
      s.notifications('notifications/mgp.audit'),
    );
    if (!events.length)
      return missing(
        'the probe negotiated "audit" and the client forwarded no notifications/mgp.audit',
        'forward audit events to servers that negotiated "audit" (MGP §6.3, "Audit Event Delivery")',
      );
    for (const event of events) {
      const problem = auditProblem(event.params);
      if (problem)
        return fail({
          detail: `a notifications/mgp.audit is malformed: ${problem}`,
          expected:
            '{ timestamp, trace_id, event_type, actor: { type, id }, target, result } (MGP §6.3)',
          received: shown(event.params),
        });
    }
    // §6.3 delivery: the event of the call the client was asked to make, about this server.
    const call = allCalls(seen, AUDITED_TOOL)[0]?.call;
    const about = events.find(
      (e) => (e.params.target as { tool_name?: unknown })?.tool_name === AUDITED_TOOL,
    );
    if (!about)
      return fail({
        detail: `${events.length} audit events came, none about the call of ${AUDITED_TOOL}`,
        expected: `an event with target.tool_name "${AUDITED_TOOL}" (TOOL_EXECUTED, MGP §6.3–6.4)`,
        received: shown(events.map((e) => e.params.event_type)),
      });
    const callTrace = (call?.params._mgp as { trace_id?: unknown } | undefined)?.trace_id;
    const traced = callTrace !== undefined && about.params.trace_id === callTrace;
    const types = [...new Set(events.map((e) => String(e.params.event_type)))];
    return pass(
      `${events.length} audit events forwarded (${types.join(', ')}), each in the §6.3 format; the call of ${AUDITED_TOOL} was audited${traced ? ' with its trace_id (§6.5)' : ''}`,
    );
  },
};

export const AUDIT_SCENARIO: ClientScenario = {
  name: 'mgp-audit',
  context: { ask: `call ${AUDITED_TOOL}`, tool: AUDITED_TOOL },
  tools: () => [
    {
      name: AUDITED_TOOL,
      description: 'Echo a fixed text',
      inputSchema: { type: 'object', properties: {} },
      security: { risk_level: 'safe' },
      annotations: { readOnlyHint: true },
      run: async () => text('echo'),
    },
  ],
  checks: [auditForwarding],
};
