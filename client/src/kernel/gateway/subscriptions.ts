/**
 * Resource subscriptions of the gateway's clients (MCP resources/subscribe): the server is subscribed
 * while at least one client is, and each update is passed to the clients subscribed to that URI.
 */
import type { Kernel } from '../kernel';
import type { SupervisedServer } from '../lifecycle/supervisedServer';
import type { CatalogSession } from './catalog';

interface Subscription {
  serverId: string;
  sessions: Set<CatalogSession>;
}

export class ResourceSubscriptions {
  private readonly byUri = new Map<string, Subscription>();

  constructor(private readonly kernel: Kernel) {}

  async add(session: CatalogSession, server: SupervisedServer, uri: string): Promise<void> {
    const existing = this.byUri.get(uri);
    if (existing) {
      existing.sessions.add(session);
      return;
    }
    await server.subscribe(uri);
    this.byUri.set(uri, { serverId: server.id, sessions: new Set([session]) });
  }

  async remove(session: CatalogSession, uri: string): Promise<void> {
    const subscription = this.byUri.get(uri);
    if (!subscription?.sessions.delete(session) || subscription.sessions.size > 0) return;
    this.byUri.delete(uri);
    await this.kernel.manager.find(subscription.serverId)?.unsubscribe(uri);
  }

  async dropSession(session: CatalogSession): Promise<void> {
    const uris = [...this.byUri].filter(([, s]) => s.sessions.has(session)).map(([uri]) => uri);
    await Promise.all(uris.map((uri) => this.remove(session, uri).catch(() => undefined)));
  }

  /** notifications/resources/updated to every client subscribed to the URI. */
  updated(uri: string): void {
    for (const session of this.byUri.get(uri)?.sessions ?? [])
      void session.server.sendResourceUpdated({ uri }).catch(() => undefined);
  }
}
