/**
 * Who may publish into a channel and who sees what the host publishes (MCPL §14.1, §14.5): the
 * server's `channels.publish` and `channels.observe` feature sets and their scope lists (§7.2).
 */
import type { McplSettings } from '../config/types';
import type { FeatureSetTable } from './featureSets';
import type { ChannelDescriptor } from './protocol';
import { listDecision, listsFor } from './scopes';

/** Why the host may not publish into the channel, or undefined when it may. */
export function publishRefusal(
  serverId: string,
  descriptor: ChannelDescriptor,
  table: FeatureSetTable | undefined,
  settings: McplSettings | undefined,
): string | undefined {
  const channelId = descriptor.id;
  if (descriptor.direction === 'inbound') return `${channelId} is inbound only`;
  if (descriptor.type === 'thinking') return 'the thinking channel is read-only (MCPL §14.5)';
  if (!table?.declares('channels.publish')) return undefined;
  const sets = table.enabledWith('channels.publish');
  if (!sets.length) return `no feature set of ${serverId} that uses channels.publish is enabled`;
  for (const set of sets) {
    if (!set.scoped) return undefined;
    const decision = listDecision(listsFor(settings, set.name), channelId);
    if (!decision || decision.approved) return undefined;
  }
  return `${channelId} is blacklisted for publishing`;
}

/**
 * Whether a server observes outgoing messages of the channel labelled `owner:channelId`: an enabled
 * `channels.observe` set other than the thinking one, whose scope lists do not deny the label.
 */
export function observesChannel(
  table: FeatureSetTable | undefined,
  settings: McplSettings | undefined,
  label: string,
): boolean {
  const sets = table?.enabledWith('channels.observe') ?? [];
  return sets.some(
    (set) =>
      set.name !== 'channels.thinking' &&
      (!set.scoped || listDecision(listsFor(settings, set.name), label)?.approved !== false),
  );
}
