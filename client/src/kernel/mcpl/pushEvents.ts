/**
 * Push events (MCPL §9): a server's `push/event` is checked against its feature set (§6.6), limited
 * per server (a token bucket: a flood is answered, not queued), deduplicated by `eventId` (§9.4: a
 * retry gets the first answer), then handled by policy: rejected, queued for the user to send to
 * the agent, or delivered to the agent as a new turn. Every decision is audited (§13.2).
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { PushEventsPolicy } from '../config/types';
import type { FeatureSetTable } from './featureSets';
import type { McplAudit } from './mcplAudit';
import { blockSize, ContentBlock, contentBlocks, isRecord, wireError } from './protocol';

/** Event ids remembered per server for deduplication. */
export const REMEMBERED_EVENT_IDS = 10_000;
/** Events kept for the views. */
export const KEPT_EVENTS = 500;
/** The most characters of content one event may carry. */
export const MAX_EVENT_CHARS = 100_000;

export type PushEventStatus = 'queued' | 'delivered' | 'rejected';

export interface PushEvent {
  id: string;
  serverId: string;
  featureSet: string;
  eventId: string;
  timestamp: string;
  receivedAt: string;
  origin?: Record<string, unknown>;
  content: ContentBlock[];
  status: PushEventStatus;
  inferenceId?: string;
  reason?: string;
}

export interface PushAnswer {
  accepted: boolean;
  inferenceId?: string;
  reason?: string;
}

/**
 * The agent side: takes an event as a new turn (its inference id), or into a conversation's next turn
 * (no inference id; `reason` says where it went, §9.3).
 */
export type PushDelivery = (
  event: PushEvent,
) => Promise<{ inferenceId?: string; reason?: string } | undefined>;

export class TokenBucket {
  private tokens: number;
  private last = Date.now();

  constructor(
    private readonly rate: number,
    private readonly burst = rate * 2,
  ) {
    this.tokens = burst;
  }

  take(now = Date.now()): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

interface ServerEvents {
  bucket: TokenBucket;
  rate: number;
  answers: Map<string, Promise<PushAnswer>>;
}

export interface PushEventsDeps {
  audit: McplAudit;
  policyOf(serverId: string, featureSet: string): PushEventsPolicy;
  rateOf(serverId: string): number;
}

export class PushEvents {
  private readonly servers = new Map<string, ServerEvents>();
  private readonly kept: PushEvent[] = [];
  private readonly listeners = new Set<(event: PushEvent) => void>();
  private delivery: PushDelivery | undefined;

  constructor(private readonly deps: PushEventsDeps) {}

  /** The agent that takes events as turns (the @mgp conversation); undefined: none is attached. */
  deliverTo(delivery: PushDelivery | undefined): void {
    this.delivery = delivery;
  }

  get agentAttached(): boolean {
    return this.delivery !== undefined;
  }

  onEvent(listener: (event: PushEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Newest first. */
  recent(): readonly PushEvent[] {
    return this.kept;
  }

  forget(serverId: string): void {
    this.servers.delete(serverId);
  }

  private serverState(serverId: string): ServerEvents {
    const rate = this.deps.rateOf(serverId);
    let state = this.servers.get(serverId);
    if (!state || state.rate !== rate) {
      state = { bucket: new TokenBucket(rate), rate, answers: state?.answers ?? new Map() };
      this.servers.set(serverId, state);
    }
    return state;
  }

  /** §9.1–§9.3. Throws the JSON-RPC error for a bad tag (§6.6) or malformed params. */
  async receive(
    serverId: string,
    table: FeatureSetTable,
    params: Record<string, unknown>,
  ): Promise<PushAnswer> {
    const tag = typeof params.featureSet === 'string' ? params.featureSet : undefined;
    try {
      table.check(params.featureSet, 'pushEvents');
    } catch (error) {
      this.audit(serverId, tag, 'REJECTED', { reason: (error as Error).message });
      throw error;
    }
    const featureSet = tag!;
    const event = this.parse(serverId, featureSet, params);
    const state = this.serverState(serverId);
    const earlier = state.answers.get(event.eventId);
    if (earlier) {
      this.audit(serverId, featureSet, 'DUPLICATE', { event_id: event.eventId });
      return earlier;
    }
    const answer = this.decide(event, state);
    remember(state.answers, event.eventId, answer);
    // Only what was accepted is final: a retry of a rate-limited event gets a new chance.
    void answer.then((a) => {
      if (!a.accepted && state.answers.get(event.eventId) === answer)
        state.answers.delete(event.eventId);
    });
    return answer;
  }

  private parse(serverId: string, featureSet: string, params: Record<string, unknown>): PushEvent {
    const problem = (what: string) => {
      this.audit(serverId, featureSet, 'REJECTED', { reason: what });
      return wireError(ErrorCode.InvalidParams, `push/event: ${what} (MCPL §9.2)`);
    };
    if (typeof params.eventId !== 'string' || !params.eventId) throw problem('eventId is missing');
    if (typeof params.timestamp !== 'string' || Number.isNaN(Date.parse(params.timestamp)))
      throw problem('timestamp is not an ISO 8601 date-time');
    const payload = isRecord(params.payload) ? params.payload : undefined;
    const content = contentBlocks(payload?.content);
    if (!content) throw problem('payload.content is not a list of content blocks');
    return {
      id: randomUUID(),
      serverId,
      featureSet,
      eventId: params.eventId,
      timestamp: params.timestamp,
      receivedAt: new Date().toISOString(),
      origin: isRecord(params.origin) ? params.origin : undefined,
      content,
      status: 'queued',
    };
  }

  private async decide(event: PushEvent, state: ServerEvents): Promise<PushAnswer> {
    const reject = (reason: string, outcome = 'REJECTED'): PushAnswer => {
      this.audit(event.serverId, event.featureSet, outcome, {
        event_id: event.eventId,
        reason,
      });
      // Kept for the Events view too: the user sees what was refused and why.
      event.status = 'rejected';
      event.reason = reason;
      this.keep(event);
      return { accepted: false, reason };
    };
    if (!state.bucket.take())
      return reject(
        `rate limit: ${event.serverId} may push ${state.rate} events per second (push_events_per_second)`,
        'RATE_LIMITED',
      );
    const size = event.content.reduce((sum, block) => sum + blockSize(block), 0);
    if (size > MAX_EVENT_CHARS)
      return reject(`the event's content is ${size} characters, more than ${MAX_EVENT_CHARS}`);
    const policy = this.deps.policyOf(event.serverId, event.featureSet);
    if (policy === 'reject')
      return reject(`push events of ${event.featureSet} are rejected by config (push_events)`);
    if (policy === 'turn' && this.delivery) return this.deliver(event);
    this.keep(event);
    this.audit(event.serverId, event.featureSet, 'ACCEPTED', {
      event_id: event.eventId,
      queued: true,
    });
    return {
      accepted: true,
      reason:
        policy === 'turn'
          ? 'queued: no agent conversation is attached to take it as a turn'
          : 'queued for the user to send to the agent',
    };
  }

  private async deliver(event: PushEvent): Promise<PushAnswer> {
    try {
      const ran = await this.delivery!(event);
      event.status = 'delivered';
      event.inferenceId = ran?.inferenceId;
      this.keep(event);
      this.audit(
        event.serverId,
        event.featureSet,
        'ACCEPTED',
        {
          event_id: event.eventId,
          ...(ran?.inferenceId ? {} : { reason: ran?.reason ?? 'delivered; no inference ran' }),
        },
        ran?.inferenceId,
      );
      const reason = ran?.reason ?? (ran?.inferenceId ? undefined : 'delivered; no inference ran');
      event.reason = reason;
      return {
        accepted: true,
        ...(ran?.inferenceId ? { inferenceId: ran.inferenceId } : {}),
        ...(reason ? { reason } : {}),
      };
    } catch (error) {
      event.status = 'rejected';
      event.reason = `the agent did not take it: ${error instanceof Error ? error.message : String(error)}`;
      this.keep(event);
      this.audit(event.serverId, event.featureSet, 'FAILURE', {
        event_id: event.eventId,
        reason: event.reason,
      });
      return { accepted: false, reason: event.reason };
    }
  }

  /** The user sends a queued event to the agent (the Events view's action). */
  async send(id: string): Promise<PushAnswer> {
    const event = this.kept.find((e) => e.id === id);
    if (!event) return { accepted: false, reason: 'no such event is kept' };
    if (event.status !== 'queued')
      return { accepted: false, reason: `the event is ${event.status}` };
    if (!this.delivery) return { accepted: false, reason: 'no agent conversation is attached' };
    const index = this.kept.indexOf(event);
    if (index >= 0) this.kept.splice(index, 1);
    return this.deliver(event);
  }

  private keep(event: PushEvent): void {
    this.kept.unshift(event);
    if (this.kept.length > KEPT_EVENTS) this.kept.length = KEPT_EVENTS;
    for (const listener of this.listeners) listener(event);
  }

  private audit(
    serverId: string,
    featureSet: string | undefined,
    outcome: string,
    details: Record<string, unknown>,
    inferenceId?: string,
  ): void {
    this.deps.audit.record('push_event', { serverId, featureSet, inferenceId, outcome, details });
  }
}

function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.set(key, value);
  if (map.size > REMEMBERED_EVENT_IDS) map.delete(map.keys().next().value as K);
}
