/**
 * The resources a person subscribed to (MCP 2025-11-25 resources/subscribe), remembered in a store
 * (the editor keeps one per workspace). Each is one holder of the server's subscription (see
 * SubscriptionHolders): taken when the person subscribes, and again when a server that had none (a
 * new window, a server started later) connects. A running server renews its own subscriptions after
 * a reconnect, so a holder is taken once per server instance.
 */
import type { KernelBus } from './events';

export interface SubscriptionKey {
  serverId: string;
  uri: string;
}

/** Where the subscriptions are kept between windows. */
export interface SubscriptionStore {
  load(): readonly SubscriptionKey[];
  save(keys: readonly SubscriptionKey[]): Promise<void>;
}

/** What a subscription needs of a server. */
interface SubscribableServer {
  readonly id: string;
  readonly state: string;
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
  /** The capabilities the server sent, while it is connected. */
  readonly liveConnection?: { rawServerCapabilities: Record<string, unknown> };
  log(level: string, message: string): void;
}

export interface SubscriptionServers {
  readonly bus: KernelBus;
  find(serverId: string): SubscribableServer | undefined;
  list(): readonly SubscribableServer[];
}

const keyOf = (serverId: string, uri: string) => JSON.stringify([serverId, uri]);

export class RememberedSubscriptions {
  private readonly keys = new Map<string, SubscriptionKey>();
  /** The URIs this holds on each server instance (a restarted config makes a new instance). */
  private readonly held = new WeakMap<SubscribableServer, Set<string>>();
  private readonly listeners = new Set<() => void>();
  private readonly onTransition = ({ server_id, new_state }: TransitionLike) => {
    if (new_state === 'connected') void this.take(server_id);
  };

  constructor(
    private readonly servers: SubscriptionServers,
    private readonly store: SubscriptionStore,
  ) {
    for (const key of store.load()) this.keys.set(keyOf(key.serverId, key.uri), { ...key });
    servers.bus.on('transition', this.onTransition);
    for (const server of servers.list())
      if (server.state === 'connected') void this.take(server.id);
  }

  /** MCP 2025-11-25: a client may subscribe only when the server declares `resources.subscribe`. */
  canSubscribe(serverId: string): boolean {
    const server = this.servers.find(serverId);
    const resources = server?.liveConnection?.rawServerCapabilities.resources as
      { subscribe?: unknown } | undefined;
    return server?.state === 'connected' && resources?.subscribe === true;
  }

  isSubscribed(serverId: string, uri: string): boolean {
    return this.keys.has(keyOf(serverId, uri));
  }

  list(): SubscriptionKey[] {
    return [...this.keys.values()];
  }

  /** Subscribes now (the server must be connected) and remembers it; throws what the server said. */
  async subscribe(serverId: string, uri: string): Promise<void> {
    const key = keyOf(serverId, uri);
    if (this.keys.has(key)) return;
    const server = this.servers.find(serverId);
    if (!server) throw new Error(`no server "${serverId}" is configured`);
    if (!this.heldOn(server).has(uri)) {
      await server.subscribe(uri);
      this.heldOn(server).add(uri);
    }
    this.keys.set(key, { serverId, uri });
    await this.changed();
  }

  /** Forgets it, and lets go of the server's subscription (unsubscribed when no one else holds it). */
  async unsubscribe(serverId: string, uri: string): Promise<void> {
    if (!this.keys.delete(keyOf(serverId, uri))) return;
    await this.changed();
    const server = this.servers.find(serverId);
    if (server && this.heldOn(server).delete(uri)) await server.unsubscribe(uri);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    this.servers.bus.off('transition', this.onTransition);
    this.listeners.clear();
  }

  private heldOn(server: SubscribableServer): Set<string> {
    let held = this.held.get(server);
    if (!held) this.held.set(server, (held = new Set()));
    return held;
  }

  /** Takes the remembered subscriptions of a server that just connected and does not hold them yet. */
  private async take(serverId: string): Promise<void> {
    const server = this.servers.find(serverId);
    if (!server) return;
    const held = this.heldOn(server);
    for (const { uri } of this.list().filter((k) => k.serverId === serverId)) {
      if (held.has(uri)) continue;
      held.add(uri);
      await server.subscribe(uri).catch((error: unknown) => {
        held.delete(uri);
        server.log('warning', `subscribing ${uri} again failed: ${String(error)}`);
      });
    }
  }

  private async changed(): Promise<void> {
    await this.store.save(this.list());
    for (const listener of this.listeners) listener();
  }
}

interface TransitionLike {
  server_id: string;
  new_state: string;
}
