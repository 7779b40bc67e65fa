import type { KernelBus } from '../lifecycle/events';
import type { AuditSink } from './auditSink';

/**
 * SERVER_CONNECTED / SERVER_DISCONNECTED into the audit trail (MGP §6.4, §11.6), and dev.mgp-kernel.server_blocked:
 * a start the managed policy refused.
 */
export function recordServerEvents(bus: KernelBus, audit: AuditSink): void {
  bus.on('event', (event) => {
    void audit.record({
      event_type: event.type,
      actor: { type: 'kernel', id: 'mgp-kernel' },
      target: { server_id: event.server_id },
      result:
        event.type === 'SERVER_CONNECTED'
          ? 'SUCCESS'
          : event.type === 'dev.mgp-kernel.server_blocked'
            ? 'BLOCKED'
            : String(event.detail?.reason ?? 'DISCONNECTED').toUpperCase(),
      details: event.detail ?? {},
      timestamp: event.timestamp,
    });
  });
}
