/**
 * Audit events the kernel forwards to this server (MGP §6.3, client → server notifications). The last
 * 1,000 are kept in memory; the `audit_received` tool shows them.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { messageOf, Notifications } from './wire';

export const AUDIT_KEPT = 1000;

export class AuditLog {
  /** Every audit event ever received, including those no longer kept. */
  received = 0;
  private kept: Record<string, unknown>[] = [];

  record(event: Record<string, unknown>): void {
    this.received += 1;
    this.kept.push(event);
    if (this.kept.length > AUDIT_KEPT) this.kept.splice(0, this.kept.length - AUDIT_KEPT);
  }

  get keptCount(): number {
    return this.kept.length;
  }

  last(count: number): Record<string, unknown>[] {
    return count > 0 ? this.kept.slice(-count) : [];
  }
}

export function installAuditSink(server: Server, log: AuditLog): void {
  server.setNotificationHandler(messageOf(Notifications.audit), (notification) => {
    log.record(notification.params ?? {});
  });
}
