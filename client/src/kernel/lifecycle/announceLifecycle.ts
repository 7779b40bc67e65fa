import type { MgpSessions } from '../mgp/mgpSessions';
import type { ServerManager } from './serverManager';

/**
 * MGP §11.5 the other way: a server that negotiated `lifecycle` is told of the kernel's transitions
 * of it while its connection is open (connected, and draining before it is closed).
 */
export function announceLifecycle(manager: ServerManager, mgp: MgpSessions): void {
  manager.bus.on('transition', (transition) => {
    const connection = manager.find(transition.server_id)?.liveConnection;
    if (!connection || !mgp.active(transition.server_id, 'lifecycle')) return;
    void connection.notify('notifications/mgp.lifecycle', { ...transition }).catch(() => undefined);
  });
}
