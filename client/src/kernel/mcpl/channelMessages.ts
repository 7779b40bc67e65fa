/**
 * What a channel holds (MCPL §14.2, §14.3): its descriptor as the server sent it, the messages kept
 * for the Channels view, and the checks an incoming message must pass before it is kept. Pure data
 * and parsing; `channels.ts` owns the channels themselves.
 */
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import {
  blockSize,
  ChannelDescriptor,
  ContentBlock,
  contentBlocks,
  isRecord,
  McplErrorCodes,
  wireError,
} from './protocol';

export const MAX_BATCH = 100;
export const KEPT_MESSAGES = 500;
export const MAX_MESSAGE_CHARS = 20_000;

export type PublishedBy = 'user' | 'agent';

export interface ChannelMessage {
  channelId: string;
  messageId: string;
  threadId?: string;
  author?: { id?: string; name?: string };
  timestamp: string;
  content: ContentBlock[];
  direction: 'incoming' | 'outgoing';
  conversationId: string;
  /** Who published an outgoing message. */
  by?: PublishedBy;
}

export interface ChannelView {
  serverId: string;
  descriptor: ChannelDescriptor;
  conversationId: string;
  open: boolean;
  messageCount: number;
  agentAttached: boolean;
}

export interface ChannelState {
  descriptor: ChannelDescriptor;
  conversationId: string;
  open: boolean;
  messages: ChannelMessage[];
  seen: Set<string>;
}

/** One entry of the channels/incoming answer (§14.3). */
export interface IncomingResult {
  messageId: string | null;
  accepted: boolean;
  conversationId?: string;
  reason?: string;
}

/** §14.2: a descriptor, or a reason it is not one. */
export function parseDescriptor(value: unknown): ChannelDescriptor | string {
  if (!isRecord(value)) return 'a channel descriptor is not an object';
  if (typeof value.id !== 'string' || !value.id) return 'a channel descriptor has no id';
  const direction = value.direction ?? 'bidirectional';
  if (direction !== 'outbound' && direction !== 'inbound' && direction !== 'bidirectional')
    return `channel ${value.id}: direction "${String(direction)}" is not outbound, inbound or bidirectional`;
  return {
    id: value.id,
    type: typeof value.type === 'string' ? value.type : 'unknown',
    label: typeof value.label === 'string' && value.label ? value.label : value.id,
    direction,
    ...(isRecord(value.address) ? { address: value.address } : {}),
    ...(isRecord(value.metadata) ? { metadata: value.metadata } : {}),
  };
}

/**
 * §14.2: a list of descriptors from the wire; `onRejected` hears why one is not a descriptor
 * before the whole list is refused.
 */
export function descriptorList(
  value: unknown,
  what: string,
  onRejected: (reason: string) => void,
): ChannelDescriptor[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    throw wireError(
      ErrorCode.InvalidParams,
      `${what} is not a list of channel descriptors (MCPL §14.2)`,
    );
  return value.map((item) => {
    const parsed = parseDescriptor(item);
    if (typeof parsed === 'string') {
      onRejected(parsed);
      throw wireError(ErrorCode.InvalidParams, `${parsed} (MCPL §14.2)`);
    }
    return parsed;
  });
}

/** The audit actor of a message the host published. */
export function publisherActor(by: PublishedBy): { type: 'operator' | 'agent'; id: string } {
  return by === 'user' ? { type: 'operator', id: 'user' } : { type: 'agent', id: 'agent.chat' };
}

export function contentSize(content: readonly ContentBlock[]): number {
  return content.reduce((sum, block) => sum + blockSize(block), 0);
}

export function tooLong(size: number): string | undefined {
  return size > MAX_MESSAGE_CHARS
    ? `the message is ${size} characters, more than ${MAX_MESSAGE_CHARS}`
    : undefined;
}

/**
 * §14.3: one message of a channels/incoming batch, checked against the channel it names: the
 * message to keep, or the result to answer with (a rejection, or the acceptance of a duplicate).
 */
export function readIncoming(
  raw: unknown,
  channelOf: (channelId: string) => ChannelState | undefined,
): ChannelMessage | IncomingResult {
  if (!isRecord(raw) || typeof raw.messageId !== 'string' || !raw.messageId)
    return { messageId: null, accepted: false, reason: 'the message has no messageId' };
  const messageId = raw.messageId;
  const reject = (reason: string) => ({ messageId, accepted: false, reason });
  const channelId = typeof raw.channelId === 'string' ? raw.channelId : '';
  const state = channelOf(channelId);
  if (!state) return reject(`Unknown channel (${McplErrorCodes.unknownChannel}): "${channelId}"`);
  if (state.descriptor.direction === 'outbound')
    return reject(
      `Channel not permitted (${McplErrorCodes.channelNotPermitted}): ${channelId} is outbound only`,
    );
  const content = contentBlocks(raw.content);
  if (!content) return reject('content is not a list of content blocks');
  const problem = tooLong(contentSize(content));
  if (problem) return reject(problem);
  if (state.seen.has(messageId))
    return {
      messageId,
      accepted: true,
      conversationId: state.conversationId,
      reason: 'duplicate messageId',
    };
  const author = isRecord(raw.author)
    ? {
        id: typeof raw.author.id === 'string' ? raw.author.id : undefined,
        name: typeof raw.author.name === 'string' ? raw.author.name : undefined,
      }
    : undefined;
  return {
    channelId,
    messageId,
    threadId: typeof raw.threadId === 'string' ? raw.threadId : undefined,
    author,
    timestamp: typeof raw.timestamp === 'string' ? raw.timestamp : new Date().toISOString(),
    content,
    direction: 'incoming',
    conversationId: state.conversationId,
  };
}

/** Keeps the newest KEPT_MESSAGES; a message let go is no longer known as a duplicate. */
export function keepMessage(state: ChannelState, message: ChannelMessage): void {
  state.messages.push(message);
  state.seen.add(message.messageId);
  if (state.messages.length > KEPT_MESSAGES) {
    const [gone] = state.messages.splice(0, state.messages.length - KEPT_MESSAGES);
    if (gone) state.seen.delete(gone.messageId);
  }
}
