/**
 * MGP events (§13.2–13.3, §13.5): servers push `notifications/mgp.event` on their channels; the kernel
 * delivers each to the subscriptions whose channel patterns match (`system.heartbeat`, `model.*`, `*`)
 * and whose `min_severity` it meets, stamped with the subscription's id. Subscriptions are made with
 * the kernel tools `mgp.events.subscribe` / `mgp.events.unsubscribe` or directly by views and the CLI.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { MgpSessions } from '../mgp/mgpSessions';

export type Severity = 'info' | 'warning' | 'error';
const RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

export interface ServerEvent {
  server_id: string;
  channel: string;
  timestamp: string;
  severity: Severity;
  data: unknown;
}

export interface DeliveredEvent extends ServerEvent {
  subscription_id: string;
}

export interface Subscription {
  id: string;
  channels: string[];
  minSeverity: Severity;
  subscriber: string;
  createdAt: string;
}

export function channelMatches(pattern: string, channel: string): boolean {
  if (pattern === '*' || pattern === channel) return true;
  return pattern.endsWith('.*') && channel.startsWith(pattern.slice(0, -1));
}

function severityOf(value: unknown): Severity {
  return value === 'warning' || value === 'error' ? value : 'info';
}

export class EventHub {
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly deliveries = new EventEmitter();
  private readonly all = new EventEmitter<{ event: [ServerEvent] }>();

  constructor(
    mgp: MgpSessions,
    private readonly declaredChannels: () => string[],
  ) {
    mgp.on('notifications/mgp.event', (session, params) => {
      if (typeof params.channel !== 'string' || !params.channel) {
        session.log('warning', 'ignored notifications/mgp.event without a channel (MGP §13.3)');
        return;
      }
      this.publish({
        server_id: session.id,
        channel: params.channel,
        timestamp:
          typeof params.timestamp === 'string' ? params.timestamp : new Date().toISOString(),
        severity: severityOf(params.severity),
        data: params.data,
      });
    });
  }

  /** mgp.events.subscribe: channels no connected server declares come back as `unsupported`. */
  subscribe(
    channels: string[],
    minSeverity: Severity = 'info',
    subscriber = 'kernel',
  ): { subscription: Subscription; subscribed: string[]; unsupported: string[] } {
    const declared = this.declaredChannels();
    const known = (pattern: string) =>
      pattern === '*' || declared.some((channel) => channelMatches(pattern, channel));
    const subscription: Subscription = {
      id: `sub-${randomUUID()}`,
      channels: [...channels],
      minSeverity,
      subscriber,
      createdAt: new Date().toISOString(),
    };
    this.subscriptions.set(subscription.id, subscription);
    return {
      subscription,
      subscribed: channels.filter(known),
      unsupported: channels.filter((c) => !known(c)),
    };
  }

  unsubscribe(id: string): boolean {
    this.deliveries.removeAllListeners(id);
    return this.subscriptions.delete(id);
  }

  /** Receives the events delivered to one subscription. */
  listen(subscriptionId: string, listener: (event: DeliveredEvent) => void): () => void {
    this.deliveries.on(subscriptionId, listener);
    return () => this.deliveries.off(subscriptionId, listener);
  }

  /** Every event from every server, unfiltered (the Events view). */
  onAny(listener: (event: ServerEvent) => void): () => void {
    this.all.on('event', listener);
    return () => this.all.off('event', listener);
  }

  list(): Subscription[] {
    return [...this.subscriptions.values()];
  }

  publish(event: ServerEvent): void {
    this.all.emit('event', event);
    for (const subscription of this.subscriptions.values()) {
      if (RANK[event.severity] < RANK[subscription.minSeverity]) continue;
      if (!subscription.channels.some((pattern) => channelMatches(pattern, event.channel)))
        continue;
      this.deliveries.emit(subscription.id, {
        ...event,
        subscription_id: subscription.id,
      } satisfies DeliveredEvent);
    }
  }
}
