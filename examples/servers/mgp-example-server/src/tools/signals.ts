/**
 * Tools that make the server signal on demand, for clients to test against: an event (MGP §13.3), a
 * lifecycle transition (MGP §11.5), and what audit events the client has forwarded (MGP §6.3).
 */
import { z } from 'zod';
import type { AuditLog } from '../audit';
import { type Events, SEVERITIES } from '../events';
import { LIFECYCLE_STATES, type Session } from '../session';
import { defineTool, security, textResult, type ToolDef, toolError } from '../tooling';
import { nowIso } from '../util';
import { Notifications, SERVER_ID } from '../wire';

function emitEvent(events: Events): ToolDef {
  return defineTool({
    name: 'emit_event',
    title: 'Emit an event',
    description:
      'Emits one MGP event on a channel, with a severity and data (needs the bidirectional extension).',
    input: z.object({
      channel: z.string().min(1).describe('e.g. security.alert, model.token_usage'),
      severity: z.enum(SEVERITIES).default('info'),
      data: z.record(z.string(), z.unknown()).default({}),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    security: security('safe', {
      side_effects: ['notification'],
      reversible: true,
      confirmation_required: false,
    }),
    run: async ({ channel, severity, data }) => {
      if (!events.enabled)
        return toolError(
          'The client did not negotiate the MGP "bidirectional" extension: no events can be sent (MGP §13.3).',
        );
      const sent = await events.emit(channel, severity, data);
      return sent
        ? textResult(`Emitted ${severity} event on ${channel}`, {
            emitted: true,
            channel,
            severity,
          })
        : toolError(`Could not send the event on ${channel}`);
    },
  });
}

function maintenance(session: Session): ToolDef {
  return defineTool({
    name: 'maintenance',
    title: 'Announce maintenance',
    description:
      'Announces a server state change to the client with an MGP lifecycle notification, by default connected → draining ' +
      'for an operator request. Only the announcement: the server keeps serving calls.',
    input: z.object({
      new_state: z.enum(LIFECYCLE_STATES).default('draining'),
      reason: z.string().min(1).default('operator_request'),
    }),
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
    security: security('moderate', {
      side_effects: ['notification'],
      reversible: true,
      confirmation_required: false,
    }),
    run: async ({ new_state, reason }, ctx) => {
      if (!session.has('lifecycle'))
        return toolError(
          'The client did not negotiate the MGP "lifecycle" extension: no lifecycle notification sent (MGP §11.5).',
        );
      const transition = {
        server_id: SERVER_ID,
        previous_state: session.lifecycleState,
        new_state,
        reason,
        timestamp: nowIso(),
      };
      await ctx.notify(Notifications.lifecycle, transition);
      session.lifecycleState = new_state;
      return textResult(
        `State ${transition.previous_state} → ${new_state} (${reason})`,
        transition,
      );
    },
  });
}

function auditReceived(session: Session, audit: AuditLog): ToolDef {
  return defineTool({
    name: 'audit_received',
    title: 'Audit events received',
    description:
      'Tells how many MGP audit events the client has sent to this server, and shows the last ones.',
    input: z.object({
      last: z
        .number()
        .int()
        .min(0)
        .max(1000)
        .default(10)
        .describe('How many of the latest events to return'),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    security: security('safe', { reversible: true, confirmation_required: false }),
    run: async ({ last }) => {
      const events = audit.last(last);
      const summary = {
        received: audit.received,
        kept: audit.keptCount,
        audit_negotiated: session.has('audit'),
        events,
      };
      return textResult(
        `${audit.received} audit event${audit.received === 1 ? '' : 's'} received`,
        summary,
      );
    },
  });
}

export function signalTools(session: Session, events: Events, audit: AuditLog): ToolDef[] {
  return [emitEvent(events), maintenance(session), auditReceived(session, audit)];
}
