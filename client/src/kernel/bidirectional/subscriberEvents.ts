/**
 * The event subscriptions one caller made (MGP §13.2), delivered where that caller listens: a gateway
 * client's session, an agent's conversation (§13.3 `notifications/mgp.event`). Closing it ends them
 * all, so a subscription does not outlive the session that made it.
 */
import type { CallerEvents } from '../domain/caller';
import type { DeliveredEvent, EventHub } from './eventHub';

export class SubscriberEvents implements CallerEvents {
  private readonly ids = new Set<string>();

  constructor(
    private readonly hub: EventHub,
    private readonly deliver: (event: DeliveredEvent) => void,
  ) {}

  subscribed(subscriptionId: string): void {
    this.ids.add(subscriptionId);
    this.hub.listen(subscriptionId, this.deliver);
  }

  close(): void {
    for (const id of this.ids) this.hub.unsubscribe(id);
    this.ids.clear();
  }
}

/** The `notifications/mgp.event` params of a delivered event (MGP §13.3). */
export function eventNotificationParams(event: DeliveredEvent): Record<string, unknown> {
  return {
    subscription_id: event.subscription_id,
    channel: event.channel,
    timestamp: event.timestamp,
    severity: event.severity,
    server_id: event.server_id,
    data: event.data,
  };
}
