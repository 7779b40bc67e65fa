/**
 * The MCPL requests a server sends the host (server → host), each to the part that answers it: push
 * events (§9), scope elevation (§7.4), inference and model info (§11, §12), channels (§14).
 */
import type { McplSettings } from '../config/types';
import type { IncomingRequestContext, ServerSession } from '../connection/service';
import type { ScopeQuestion } from '../host/interaction';
import type { Channels } from './channels';
import { answerElevation } from './elevation';
import type { InferenceRequests } from './inference';
import type { McplAudit } from './mcplAudit';
import type { McplServer } from './mcplServer';
import { McplMethods } from './protocol';
import type { PushEvents } from './pushEvents';
import type { ScopeAnswers } from './scopes';

export type RequestHandler = (
  server: McplServer,
  session: ServerSession,
  params: Record<string, unknown>,
  context: IncomingRequestContext,
) => Promise<Record<string, unknown>>;

export interface McplAnswerers {
  audit: McplAudit;
  pushEvents: PushEvents;
  scopes: ScopeAnswers;
  inference: InferenceRequests;
  channels: Channels;
  settings(serverId: string): McplSettings | undefined;
  askScope(question: ScopeQuestion): Promise<boolean> | undefined;
}

/** The handler of each MCPL method a server may ask, by method name. */
export function mcplRequestHandlers(parts: McplAnswerers): Record<string, RequestHandler> {
  const { audit, pushEvents, scopes, inference, channels } = parts;
  return {
    [McplMethods.pushEvent]: (server, _session, params) =>
      pushEvents.receive(server.id, server.table, params) as Promise<never>,
    [McplMethods.scopeElevate]: (server, _session, params) =>
      answerElevation({
        server,
        params,
        settings: parts.settings(server.id),
        scopes,
        audit,
        ask: (question) => parts.askScope(question),
      }),
    [McplMethods.inferenceRequest]: (server, session, params, context) =>
      inference.handle({
        serverId: server.id,
        table: server.table,
        params,
        requestId: context.requestId,
        signal: context.signal,
        chunk: (chunk) => session.connection.notify(McplMethods.inferenceChunk, chunk),
      }),
    [McplMethods.modelInfo]: async (server) => {
      const info = await inference.modelInfo().catch((error: unknown) => {
        audit.record('model_info', { serverId: server.id, outcome: 'FAILURE' });
        throw error;
      });
      audit.record('model_info', {
        serverId: server.id,
        outcome: 'SUCCESS',
        details: { model: info.id },
      });
      return info as unknown as Record<string, unknown>;
    },
    [McplMethods.channelsRegister]: async (server, _session, params) =>
      channels.register(server.id, params),
    [McplMethods.channelsList]: async (server) => channels.answerList(server.id),
    [McplMethods.channelsIncoming]: async (server, _session, params) => {
      if (params.featureSet !== undefined) server.table.check(params.featureSet);
      return channels.incoming(server.id, params);
    },
  };
}
