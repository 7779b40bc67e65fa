import type { ConfiguredServer } from '../config/types';
import { randomUUID } from 'node:crypto';
import type { ConnectionService, ServerSession } from '../connection/service';
import { mgpOffer, MgpOffer, negotiate, NegotiatedMgp } from './negotiation';
import { TraceIdsGiven } from './traceIdsGiven';

export type MgpNotificationHandler = (
  session: ServerSession,
  params: Record<string, unknown>,
) => void;

export type MgpRequestHandler = (
  session: ServerSession,
  params: Record<string, unknown>,
) => Promise<Record<string, unknown>>;

/**
 * The MGP side of each connection: offers `mgp` at initialize (MGP §2.2), records what was negotiated,
 * and routes `notifications/mgp.*` to the services that handle them (stream chunks, callbacks, events,
 * audit). Plain MCP servers pass through untouched (MGP §1.3).
 */
export class MgpSessions implements ConnectionService {
  private readonly negotiated = new Map<string, NegotiatedMgp>();
  private readonly handlers = new Map<string, MgpNotificationHandler>();
  private readonly requestHandlers = new Map<string, MgpRequestHandler>();
  private readonly traceIds = new TraceIdsGiven();

  constructor(private readonly toolCreation: () => boolean = () => false) {}

  /** What we offer a server: nothing when its config says `negotiate = false`. */
  offerFor(server: ConfiguredServer): MgpOffer | undefined {
    return server.policy.negotiate ? mgpOffer(this.toolCreation()) : undefined;
  }

  capabilities(server: ConfiguredServer): Record<string, unknown> {
    const offer = this.offerFor(server);
    return offer ? { mgp: offer } : {};
  }

  async connected(session: ServerSession): Promise<void> {
    const outcome = negotiate(
      this.offerFor(session.config),
      session.connection.rawServerCapabilities.mgp,
    );
    for (const note of outcome.notes) session.log(note.level, `MGP: ${note.message}`);
    if (outcome.mgp) {
      this.negotiated.set(session.id, outcome.mgp);
      session.log(
        'info',
        `MGP ${outcome.mgp.version} negotiated: ${[...outcome.mgp.extensions].join(', ') || 'no extensions in common'}`,
      );
    } else {
      this.negotiated.delete(session.id);
    }
  }

  disconnected(serverId: string): void {
    this.negotiated.delete(serverId);
  }

  /**
   * Every request to a server that negotiated MGP carries a trace id (MGP §6.5): in `params._mgp`
   * as on tools/call, or top-level in MGP's own `mgp/*` requests. One the caller set (a tool call's,
   * one per user action) is kept; any other request is a trace of its own. A server that did not
   * negotiate MGP gets no `_mgp` (§17.2). Each trace id given is remembered (`gaveTraceId`).
   */
  outgoingRequest(serverId: string, method: string, params: Record<string, unknown>): void {
    if (!this.negotiated.has(serverId)) return;
    if (method.startsWith('mgp/')) {
      params.trace_id ??= randomUUID();
      this.traceIds.add(serverId, params.trace_id);
      return;
    }
    const mgp = params._mgp;
    if (mgp === undefined) params._mgp = { trace_id: randomUUID() };
    else if (typeof mgp === 'object' && mgp !== null)
      (mgp as Record<string, unknown>).trace_id ??= randomUUID();
    this.traceIds.add(serverId, (params._mgp as Record<string, unknown> | null)?.trace_id);
  }

  /** Whether the kernel sent `serverId` a request carrying `traceId` (recently: traceIdsGiven.ts). */
  gaveTraceId(serverId: string, traceId: string): boolean {
    return this.traceIds.has(serverId, traceId);
  }

  /** Registers the handler of one `notifications/mgp.*` method. */
  on(method: string, handler: MgpNotificationHandler): void {
    this.handlers.set(method, handler);
  }

  notification(session: ServerSession, method: string, params: Record<string, unknown>): boolean {
    const handler = this.handlers.get(method);
    if (!handler) return false;
    handler(session, params);
    return true;
  }

  /** Registers the handler of one `mgp/*` request a server sends the kernel. */
  onRequest(method: string, handler: MgpRequestHandler): void {
    this.requestHandlers.set(method, handler);
  }

  request(
    session: ServerSession,
    method: string,
    params: Record<string, unknown>,
  ): Promise<Record<string, unknown>> | undefined {
    return this.requestHandlers.get(method)?.(session, params);
  }

  of(serverId: string): NegotiatedMgp | undefined {
    return this.negotiated.get(serverId);
  }

  /** Whether `extension` is active on the server's connection (MGP §2.4 rule 1). */
  active(serverId: string, extension: string): boolean {
    return this.negotiated.get(serverId)?.extensions.has(extension) ?? false;
  }
}
