/**
 * Channels (MCPL §14): named destinations a server connects the host to (a chat room, a Discord
 * channel). Servers register and change them (§14.3 register, changed), the host lists, opens and
 * closes them, publishes into them (the user from the Channels view, or an agent attached to one),
 * streams what it publishes to observing servers (outgoing chunk, complete), and takes their
 * incoming messages in batches with a result per message. Who may publish and observe is in
 * `channelPermissions.ts`; what a message is and how one is checked, in `channelMessages.ts`.
 * Errors are Appendix A's.
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { McplSettings } from '../config/types';
import {
  ChannelMessage,
  ChannelState,
  ChannelView,
  contentSize,
  descriptorList,
  IncomingResult,
  keepMessage,
  MAX_BATCH,
  parseDescriptor,
  PublishedBy,
  publisherActor,
  readIncoming,
  tooLong,
} from './channelMessages';
import { observesChannel, publishRefusal } from './channelPermissions';
import type { FeatureSetTable } from './featureSets';
import type { McplAudit } from './mcplAudit';
import {
  ChannelDescriptor,
  ContentBlock,
  isRecord,
  mcplError,
  McplErrorCodes,
  McplMethods,
  wireError,
} from './protocol';

export const MAX_CHANNELS_PER_SERVER = 200;

/** Takes an incoming message as a turn of the attached agent; publishes nothing itself. */
export type ChannelListener = (serverId: string, message: ChannelMessage) => void;

export interface ChannelsDeps {
  audit: McplAudit;
  request(
    serverId: string,
    method: string,
    params: Record<string, unknown>,
  ): Promise<Record<string, unknown>>;
  notify(serverId: string, method: string, params: Record<string, unknown>): Promise<void>;
  tableOf(serverId: string): FeatureSetTable | undefined;
  settingsOf(serverId: string): McplSettings | undefined;
  /** Servers speaking MCPL now. */
  servers(): string[];
}

export class Channels {
  private readonly byServer = new Map<string, Map<string, ChannelState>>();
  private readonly changeListeners = new Set<(serverId: string, channelId?: string) => void>();
  private readonly incomingListeners = new Set<ChannelListener>();
  private readonly attached = new Set<string>();

  constructor(private readonly deps: ChannelsDeps) {}

  onChange(listener: (serverId: string, channelId?: string) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  onIncoming(listener: ChannelListener): () => void {
    this.incomingListeners.add(listener);
    return () => this.incomingListeners.delete(listener);
  }

  private changed(serverId: string, channelId?: string): void {
    for (const listener of this.changeListeners) listener(serverId, channelId);
  }

  private channelsOf(serverId: string): Map<string, ChannelState> {
    let channels = this.byServer.get(serverId);
    if (!channels) this.byServer.set(serverId, (channels = new Map()));
    return channels;
  }

  forget(serverId: string): void {
    this.byServer.delete(serverId);
    for (const key of [...this.attached])
      if (key.startsWith(`${serverId}\u0000`)) this.attached.delete(key);
    this.changed(serverId);
  }

  list(serverId?: string): ChannelView[] {
    const servers = serverId ? [serverId] : [...this.byServer.keys()];
    return servers.flatMap((id) =>
      [...(this.byServer.get(id)?.values() ?? [])].map((state) => ({
        serverId: id,
        descriptor: state.descriptor,
        conversationId: state.conversationId,
        open: state.open,
        messageCount: state.messages.length,
        agentAttached: this.attached.has(`${id}\u0000${state.descriptor.id}`),
      })),
    );
  }

  messages(serverId: string, channelId: string): readonly ChannelMessage[] {
    return this.state(serverId, channelId).messages;
  }

  /** Marks whether an agent answers the channel's incoming messages (the front end runs it). */
  setAgentAttached(serverId: string, channelId: string, attached: boolean): void {
    this.state(serverId, channelId);
    const key = `${serverId}\u0000${channelId}`;
    if (attached) this.attached.add(key);
    else this.attached.delete(key);
    this.changed(serverId, channelId);
  }

  isAgentAttached(serverId: string, channelId: string): boolean {
    return this.attached.has(`${serverId}\u0000${channelId}`);
  }

  private state(serverId: string, channelId: string): ChannelState {
    const state = this.byServer.get(serverId)?.get(channelId);
    if (!state)
      throw mcplError(McplErrorCodes.unknownChannel, `${serverId} has no channel "${channelId}"`, {
        channelId,
      });
    return state;
  }

  private add(serverId: string, descriptor: ChannelDescriptor, open: boolean): void {
    const channels = this.channelsOf(serverId);
    const existing = channels.get(descriptor.id);
    if (existing) {
      existing.descriptor = descriptor;
      existing.open = existing.open || open;
      return;
    }
    if (channels.size >= MAX_CHANNELS_PER_SERVER)
      throw wireError(
        ErrorCode.InvalidParams,
        `${serverId} already has ${channels.size} channels (at most ${MAX_CHANNELS_PER_SERVER})`,
      );
    channels.set(descriptor.id, {
      descriptor,
      conversationId: `conv_${randomUUID()}`,
      open,
      messages: [],
      seen: new Set(),
    });
  }

  private descriptors(serverId: string, value: unknown, what: string): ChannelDescriptor[] {
    return descriptorList(value, what, (reason) =>
      this.deps.audit.record('channel', { serverId, outcome: 'REJECTED', details: { reason } }),
    );
  }

  /** §14.3 channels/register (server → host). */
  register(serverId: string, params: Record<string, unknown>): Record<string, unknown> {
    const channels = this.descriptors(serverId, params.channels, 'channels');
    for (const descriptor of channels) this.add(serverId, descriptor, true);
    this.deps.audit.record('channel', {
      serverId,
      outcome: 'REGISTERED',
      details: { channels: channels.map((c) => c.id) },
    });
    this.changed(serverId);
    return { registered: channels.map((c) => c.id) };
  }

  /** §14.3 channels/changed (server → host, notification). */
  change(serverId: string, params: Record<string, unknown>): void {
    const channels = this.channelsOf(serverId);
    for (const id of Array.isArray(params.removed) ? params.removed : [])
      if (typeof id === 'string') channels.delete(id);
    for (const descriptor of [
      ...this.descriptors(serverId, params.added, 'added'),
      ...this.descriptors(serverId, params.updated, 'updated'),
    ])
      this.add(serverId, descriptor, true);
    this.changed(serverId);
  }

  /** §14.3 channels/list asked by the server: the channels the host knows on this connection. */
  answerList(serverId: string): Record<string, unknown> {
    return { channels: this.list(serverId).map((view) => view.descriptor) };
  }

  /** §14.3 channels/list asked of the server; what it lists is added. */
  async refresh(serverId: string): Promise<ChannelDescriptor[]> {
    const answer = await this.deps.request(serverId, McplMethods.channelsList, {});
    const channels = this.descriptors(serverId, answer.channels ?? [], 'channels');
    for (const descriptor of channels) this.add(serverId, descriptor, true);
    this.changed(serverId);
    return channels;
  }

  /** §14.3 channels/open; a failure is -32024. */
  async open(
    serverId: string,
    request: {
      type: string;
      address?: Record<string, unknown>;
      metadata?: Record<string, unknown>;
    },
  ): Promise<ChannelDescriptor> {
    let answer: Record<string, unknown>;
    try {
      answer = await this.deps.request(serverId, McplMethods.channelsOpen, {
        type: request.type,
        address: request.address ?? {},
        metadata: request.metadata ?? {},
      });
    } catch (error) {
      this.deps.audit.record('channel', {
        serverId,
        outcome: 'FAILURE',
        details: { operation: 'open', type: request.type, reason: (error as Error).message },
      });
      throw mcplError(McplErrorCodes.channelOpenFailed, (error as Error).message, {
        type: request.type,
      });
    }
    const descriptor = parseDescriptor(answer.channel);
    if (typeof descriptor === 'string')
      throw mcplError(McplErrorCodes.channelOpenFailed, `the server answered: ${descriptor}`);
    this.add(serverId, descriptor, true);
    this.deps.audit.record('channel', {
      serverId,
      outcome: 'OPENED',
      actor: { type: 'operator', id: 'user' },
      details: { channel: descriptor.id },
    });
    this.changed(serverId, descriptor.id);
    return descriptor;
  }

  /** §14.3 channels/close. */
  async close(serverId: string, channelId: string): Promise<boolean> {
    const state = this.state(serverId, channelId);
    const answer = await this.deps.request(serverId, McplMethods.channelsClose, { channelId });
    const closed = answer.closed === true;
    if (closed) state.open = false;
    this.deps.audit.record('channel', {
      serverId,
      outcome: closed ? 'CLOSED' : 'FAILURE',
      details: { channel: channelId },
    });
    this.changed(serverId, channelId);
    return closed;
  }

  /** §14.1, §14.5: why the host may not publish into the channel, or undefined when it may. */
  publishRefusal(serverId: string, channelId: string): string | undefined {
    return publishRefusal(
      serverId,
      this.state(serverId, channelId).descriptor,
      this.deps.tableOf(serverId),
      this.deps.settingsOf(serverId),
    );
  }

  /**
   * §14.3 channels/publish, as a request for an ACK. `onDelta`-style streaming to observers is done
   * by `stream` before this, when the text was generated.
   */
  async publish(
    serverId: string,
    channelId: string,
    content: ContentBlock[],
    by: PublishedBy,
  ): Promise<{ delivered: boolean; messageId?: string }> {
    const state = this.state(serverId, channelId);
    const refusal = this.publishRefusal(serverId, channelId);
    const size = contentSize(content);
    const problem = refusal ?? tooLong(size);
    if (problem) {
      this.deps.audit.record('channel', {
        serverId,
        outcome: 'DENIED',
        actor: publisherActor(by),
        details: { operation: 'publish', channel: channelId, reason: problem },
      });
      throw mcplError(McplErrorCodes.channelNotPermitted, problem, { channelId });
    }
    const answer = await this.deps.request(serverId, McplMethods.channelsPublish, {
      conversationId: state.conversationId,
      channelId,
      stream: false,
      content,
    });
    const delivered = answer.delivered !== false;
    const messageId =
      typeof answer.messageId === 'string' ? answer.messageId : `host_${randomUUID()}`;
    if (delivered)
      this.keep(serverId, state, {
        channelId,
        messageId,
        timestamp: new Date().toISOString(),
        content,
        direction: 'outgoing',
        conversationId: state.conversationId,
        by,
        author: { name: by === 'user' ? 'you' : '@mgp' },
      });
    this.deps.audit.record('channel', {
      serverId,
      outcome: delivered ? 'PUBLISHED' : 'FAILURE',
      actor: publisherActor(by),
      details: { operation: 'publish', channel: channelId, message_id: messageId, chars: size },
    });
    await this.observe(serverId, channelId, McplMethods.channelsOutgoingComplete, {
      conversationId: state.conversationId,
      channelId,
      content,
    });
    return { delivered, messageId };
  }

  /** §14.3 outgoing/chunk to observers, as an agent's reply into the channel is generated. */
  chunk(
    serverId: string,
    channelId: string,
    inferenceId: string,
    index: number,
    delta: string,
  ): void {
    const state = this.state(serverId, channelId);
    void this.observe(serverId, channelId, McplMethods.channelsOutgoingChunk, {
      inferenceId,
      conversationId: state.conversationId,
      channelId,
      index,
      delta,
    });
  }

  /** Sends to every server observing outgoing messages (an enabled `channels.observe` set, §14.1). */
  private async observe(
    owner: string,
    channelId: string,
    method: string,
    params: Record<string, unknown>,
  ): Promise<void> {
    const label = `${owner}:${channelId}`;
    const sends = this.deps
      .servers()
      .filter((serverId) =>
        observesChannel(this.deps.tableOf(serverId), this.deps.settingsOf(serverId), label),
      )
      .map((serverId) => this.deps.notify(serverId, method, params).catch(() => undefined));
    await Promise.all(sends);
  }

  /** §14.3 channels/incoming (server → host): a batch, with a result per message. */
  incoming(serverId: string, params: Record<string, unknown>): Record<string, unknown> {
    if (!Array.isArray(params.messages))
      throw wireError(
        ErrorCode.InvalidParams,
        'channels/incoming: messages is not a list (MCPL §14.3)',
      );
    const results = params.messages.map((raw, index) =>
      index < MAX_BATCH
        ? this.incomingOne(serverId, raw)
        : {
            messageId: isRecord(raw) && typeof raw.messageId === 'string' ? raw.messageId : null,
            accepted: false,
            reason: `a batch takes at most ${MAX_BATCH} messages; send the rest in another`,
          },
    );
    const accepted = results.filter((r) => r.accepted).length;
    this.deps.audit.record('channel', {
      serverId,
      outcome: accepted === results.length ? 'ACCEPTED' : accepted ? 'PARTIAL' : 'REJECTED',
      details: {
        operation: 'incoming',
        messages: results.length,
        accepted,
        rejected: results
          .filter((r) => !r.accepted)
          .map((r) => ({ message_id: r.messageId, reason: r.reason })),
      },
    });
    return { results };
  }

  private incomingOne(serverId: string, raw: unknown): IncomingResult {
    const read = readIncoming(raw, (channelId) => this.byServer.get(serverId)?.get(channelId));
    if (!('direction' in read)) return read;
    const state = this.state(serverId, read.channelId);
    this.keep(serverId, state, read);
    for (const listener of this.incomingListeners) listener(serverId, read);
    return { messageId: read.messageId, accepted: true, conversationId: state.conversationId };
  }

  private keep(serverId: string, state: ChannelState, message: ChannelMessage): void {
    keepMessage(state, message);
    this.changed(serverId, message.channelId);
  }
}
