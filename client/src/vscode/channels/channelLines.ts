/**
 * A channel's messages as its panel shows them: the text of each, other blocks named, authors from
 * the server shown as it sent them (the webview sets all of it as text, never as HTML).
 */
import type { ChannelHeader, ChannelLine } from '@shared/channelMessages';
import type { ChannelMessage, ChannelView, ContentBlock } from '../../kernel';

/** Messages sent to a panel at once: the newest. */
export const SHOWN_MESSAGES = 200;

export function blockText(block: ContentBlock): string {
  if (block.type === 'text') return block.text;
  if (block.type === 'resource') return `[resource ${block.uri}]`;
  return `[${block.type}${block.mimeType ? ` ${block.mimeType}` : ''}]`;
}

export function channelLine(message: ChannelMessage): ChannelLine {
  const author =
    message.direction === 'outgoing'
      ? message.by === 'agent'
        ? '@mgp'
        : 'you'
      : (message.author?.name ?? message.author?.id ?? 'someone');
  return {
    messageId: message.messageId,
    direction: message.direction,
    author,
    timestamp: message.timestamp,
    text: message.content.map(blockText).join('\n'),
    ...(message.by ? { by: message.by } : {}),
  };
}

export function channelLines(messages: readonly ChannelMessage[]): ChannelLine[] {
  return messages.slice(-SHOWN_MESSAGES).map(channelLine);
}

export function channelHeader(view: ChannelView, publishRefusal?: string): ChannelHeader {
  return {
    serverId: view.serverId,
    channelId: view.descriptor.id,
    label: view.descriptor.label,
    type: view.descriptor.type,
    direction: view.descriptor.direction,
    open: view.open,
    agentAttached: view.agentAttached,
    ...(publishRefusal ? { publishRefusal } : {}),
  };
}
