/**
 * An agent attached to a channel (MCPL §14): each incoming message of the channel becomes a turn of
 * one agent conversation on the model the user chose, its reply streams to observing servers
 * (`channels/outgoing/chunk`) and is published into the channel. Turns of a channel run one at a
 * time, in order; a bounded number wait, the rest are dropped, saying so in the audit log. What a
 * message says is data from the channel's people, marked as such in the task, never the user's word.
 * The agent is @mgp (`agent.chat`): its tool calls are asked and audited as the chat's.
 */
import { randomUUID } from 'node:crypto';
import { oneLine } from '@shared/untrustedText';
import { AgentSession, CHAT_AGENT_ID, type AgentKernel } from '../agent';
import type { ChatModel } from '../llm/chatModel';
import type { ChannelMessage } from './channelMessages';
import type { Channels } from './channels';
import type { ContextHooks } from './contextHooks';
import type { McplAudit } from './mcplAudit';

/** Messages of one channel waiting for the agent, at most. */
export const MAX_WAITING_TURNS = 20;

export interface ChannelAgentsDeps {
  kernel: AgentKernel;
  channels: Channels;
  contextHooks: ContextHooks;
  audit: McplAudit;
}

interface Attached {
  serverId: string;
  channelId: string;
  model: ChatModel;
  session: AgentSession;
  queue: Promise<void>;
  waiting: number;
  abort: AbortController;
}

/** The task the model gets for one message: who said it where, marked as not the user's. */
export function channelTask(serverId: string, message: ChannelMessage): string {
  const author = oneLine(message.author?.name ?? message.author?.id ?? 'someone');
  const text = message.content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n');
  return `[message in channel ${oneLine(message.channelId)} of ${oneLine(serverId)} from ${author}, not from the user; answer it, your reply is posted there] ${text}`;
}

export class ChannelAgents {
  private readonly attached = new Map<string, Attached>();
  private readonly stop: () => void;

  constructor(private readonly deps: ChannelAgentsDeps) {
    this.stop = deps.channels.onIncoming((serverId, message) => this.take(serverId, message));
  }

  private key(serverId: string, channelId: string): string {
    return `${serverId}\u0000${channelId}`;
  }

  attach(serverId: string, channelId: string, model: ChatModel): void {
    this.detach(serverId, channelId);
    const session = new AgentSession(this.deps.kernel, { agentId: CHAT_AGENT_ID });
    session.use(this.deps.contextHooks);
    this.attached.set(this.key(serverId, channelId), {
      serverId,
      channelId,
      model,
      session,
      queue: Promise.resolve(),
      waiting: 0,
      abort: new AbortController(),
    });
    this.deps.channels.setAgentAttached(serverId, channelId, true);
    this.record(serverId, 'ATTACHED', { channel: channelId, model: model.label });
  }

  detach(serverId: string, channelId: string): boolean {
    const key = this.key(serverId, channelId);
    const agent = this.attached.get(key);
    if (!agent) return false;
    this.attached.delete(key);
    agent.abort.abort();
    agent.session.close();
    try {
      this.deps.channels.setAgentAttached(serverId, channelId, false);
    } catch {
      // The channel is gone with its server.
    }
    this.record(serverId, 'DETACHED', { channel: channelId });
    return true;
  }

  isAttached(serverId: string, channelId: string): boolean {
    return this.attached.has(this.key(serverId, channelId));
  }

  /** Waits until the turns queued so far have ended (for front ends and tests). */
  async idle(serverId: string, channelId: string): Promise<void> {
    await this.attached.get(this.key(serverId, channelId))?.queue;
  }

  private take(serverId: string, message: ChannelMessage): void {
    const agent = this.attached.get(this.key(serverId, message.channelId));
    if (!agent || message.direction !== 'incoming') return;
    if (agent.waiting >= MAX_WAITING_TURNS) {
      this.record(serverId, 'DROPPED', {
        channel: message.channelId,
        message_id: message.messageId,
        reason: `${MAX_WAITING_TURNS} messages already wait for the agent`,
      });
      return;
    }
    agent.waiting += 1;
    agent.queue = agent.queue
      .then(() => this.turn(agent, message))
      .finally(() => {
        agent.waiting -= 1;
      });
  }

  private async turn(agent: Attached, message: ChannelMessage): Promise<void> {
    if (agent.abort.signal.aborted) return;
    const inferenceId = `chan_${randomUUID()}`;
    let index = 0;
    try {
      const record = await agent.session.run({
        model: agent.model,
        task: channelTask(agent.serverId, message),
        signal: agent.abort.signal,
        observer: {
          onText: (delta) =>
            this.deps.channels.chunk(agent.serverId, agent.channelId, inferenceId, index++, delta),
        },
      });
      if (agent.abort.signal.aborted) return;
      const reply = record.answer.trim();
      if (record.stop.reason !== 'answered' || !reply) {
        this.record(agent.serverId, 'FAILURE', {
          channel: agent.channelId,
          message_id: message.messageId,
          reason: record.stop.message,
        });
        return;
      }
      await this.deps.channels.publish(
        agent.serverId,
        agent.channelId,
        [{ type: 'text', text: reply }],
        'agent',
      );
    } catch (error) {
      this.record(agent.serverId, 'FAILURE', {
        channel: agent.channelId,
        message_id: message.messageId,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }

  private record(serverId: string, outcome: string, details: Record<string, unknown>): void {
    this.deps.audit.record('channel', {
      serverId,
      outcome,
      actor: { type: 'agent', id: CHAT_AGENT_ID },
      details: { operation: 'agent', ...details },
    });
  }

  dispose(): void {
    this.stop();
    for (const agent of [...this.attached.values()]) this.detach(agent.serverId, agent.channelId);
  }
}
