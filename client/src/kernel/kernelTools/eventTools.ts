/** MGP §13.2 kernel tools: `mgp.events.subscribe` and `mgp.events.unsubscribe`, with the spec's schemas. */
import type { EventHub, Severity } from '../bidirectional/eventHub';
import type { KernelTool } from '../domain/kernelTool';

export function eventTools(events: EventHub): KernelTool[] {
  return [
    {
      name: 'mgp.events.subscribe',
      description:
        'Subscribe to server-defined event channels (model.*, system.*, tool.*, security.*), optionally from a minimum severity (MGP §13.2).',
      inputSchema: {
        type: 'object',
        properties: {
          channels: {
            type: 'array',
            items: { type: 'string' },
            description: 'Event channels to subscribe to',
          },
          filter: {
            type: 'object',
            properties: { min_severity: { type: 'string', enum: ['info', 'warning', 'error'] } },
          },
        },
        required: ['channels'],
      },
      operatorOnly: false,
      risk: 'safe',
      inModelContext: false,
      async run(args, context) {
        const channels = Array.isArray(args.channels)
          ? args.channels.filter((c): c is string => typeof c === 'string' && c.length > 0)
          : [];
        if (channels.length === 0) throw new Error('channels must list at least one channel');
        const minSeverity =
          (args.filter as { min_severity?: Severity } | undefined)?.min_severity ?? 'info';
        const { subscription, subscribed, unsupported } = events.subscribe(
          channels,
          minSeverity,
          context.caller.agentId,
        );
        context.caller.events?.subscribed(subscription.id);
        return { subscribed, unsupported, subscription_id: subscription.id };
      },
    },
    {
      name: 'mgp.events.unsubscribe',
      description: 'Cancel an event subscription (MGP §13.2).',
      inputSchema: {
        type: 'object',
        properties: { subscription_id: { type: 'string' } },
        required: ['subscription_id'],
      },
      operatorOnly: false,
      risk: 'safe',
      inModelContext: false,
      async run(args) {
        if (typeof args.subscription_id !== 'string')
          throw new Error('subscription_id is required');
        return { unsubscribed: events.unsubscribe(args.subscription_id) };
      },
    },
  ];
}
