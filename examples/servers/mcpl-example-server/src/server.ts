/**
 * Wires the example MCPL server on the SDK's low-level Server: the tools, and the host → server
 * methods of MCPL 0.4.1 (feature-set updates, state rollback, context hooks, inference chunks,
 * channels). One Server per process: one host over stdio.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ChatRooms, textOf } from './chatRoom';
import { Notebooks } from './notebook';
import { McplSession } from './session';
import { callTool, listTools, ToolDeps } from './tools';
import {
  AnyResult,
  isRecord,
  Json,
  MCPL_CAPABILITY,
  messageOf,
  Methods,
  SERVER_INFO,
} from './wire';

const LooseCallToolRequestSchema = z.object({
  method: z.literal('tools/call'),
  params: z.looseObject({ name: z.string() }),
});

export function createMcplExampleServer(): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, experimental: { mcpl: MCPL_CAPABILITY } },
  });
  const session = new McplSession();
  const notebooks = new Notebooks();
  const rooms = new ChatRooms();
  const deps: ToolDeps = { server, session, notebooks, rooms, chunks: new Map() };
  const params = (request: { params?: Json }) => request.params ?? {};

  server.oninitialized = () => {
    const experimental = server.getClientCapabilities()?.experimental;
    session.hostSpeaksMcpl = isRecord(experimental) && isRecord(experimental.mcpl);
    console.error(
      `mcpl-example-server: ${session.hostSpeaksMcpl ? 'the host speaks MCPL' : 'plain MCP host'}`,
    );
    // §14.3: the chat room exists before anyone asks for it.
    if (session.hostSpeaksMcpl)
      void server
        .request(
          { method: Methods.channelsRegister, params: { channels: rooms.descriptors() } },
          AnyResult,
        )
        .catch((error: Error) => console.error(`channels/register: ${error.message}`));
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools() }) as never);
  server.setRequestHandler(
    LooseCallToolRequestSchema,
    (request) => callTool(request.params, deps) as never,
  );
  server.setNotificationHandler(messageOf(Methods.featureSetsUpdate), (n) =>
    session.update(params(n)),
  );
  server.setRequestHandler(messageOf(Methods.stateRollback), (request) => {
    session.require('memory.facts');
    return notebooks.rollback(String(params(request).checkpoint));
  });

  // §10.1, §10.2: the remembered facts go into the system prompt.
  server.setRequestHandler(messageOf(Methods.beforeInference), () => {
    session.require('memory.context');
    const facts = notebooks.currentFacts();
    return {
      featureSet: 'memory.context',
      contextInjections: facts.length
        ? [
            {
              namespace: 'memory',
              position: 'system',
              content: [
                {
                  type: 'text',
                  text: `<memories>\n${facts.map((f) => `- ${f}`).join('\n')}\n</memories>`,
                },
              ],
              metadata: { facts: facts.length },
            },
          ]
        : [],
    };
  });
  // §10.5, notification form: this server only listens.
  server.setNotificationHandler(messageOf(Methods.afterInference), (n) => {
    const answer = params(n).assistantMessage;
    console.error(
      `mcpl-example-server: the model answered ${String(answer ?? '').length} characters`,
    );
  });
  server.setNotificationHandler(messageOf(Methods.inferenceChunk), (n) => {
    const { requestId, delta } = params(n);
    if (
      (typeof requestId === 'string' || typeof requestId === 'number') &&
      typeof delta === 'string'
    )
      deps.chunks.set(requestId, [...(deps.chunks.get(requestId) ?? []), delta]);
  });

  server.setRequestHandler(messageOf(Methods.channelsList), () => ({
    channels: rooms.descriptors(),
  }));
  server.setRequestHandler(messageOf(Methods.channelsOpen), (r) => rooms.open(params(r)));
  server.setRequestHandler(messageOf(Methods.channelsClose), (r) => rooms.close(params(r)));
  server.setRequestHandler(messageOf(Methods.channelsPublish), (r) => rooms.publish(params(r)));
  server.setNotificationHandler(messageOf(Methods.channelsPublish), (n) => {
    rooms.publish(params(n));
  });
  server.setNotificationHandler(messageOf(Methods.channelsOutgoingComplete), (n) =>
    rooms.observe(params(n)),
  );
  server.setNotificationHandler(messageOf(Methods.channelsOutgoingChunk), (n) => {
    console.error(
      `mcpl-example-server: chunk for ${String(params(n).channelId)}: ${textOf(params(n).delta)}`,
    );
  });
  return server;
}
