/**
 * Wires the example server together on the SDK's low-level Server: negotiation, the MGP methods and
 * notifications, tools, the resource and the prompt. One Server per process: one client over stdio.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AuditLog, installAuditSink } from './audit';
import { Callbacks, installCallbackMethod } from './callbacks';
import { installContent } from './content';
import { Events } from './events';
import { InFlightCalls, installCancelMethod } from './inflight';
import { installNegotiation } from './negotiation';
import type { ServerOptions } from './options';
import { installPermissionMethods, Permissions } from './permissions';
import { installToolHandlers, ToolRegistry } from './registry';
import { Session } from './session';
import { allTools } from './tools';
import { SERVER_INFO } from './wire';

export interface ExampleServer {
  server: Server;
  stop(): void;
}

export function createExampleServer(options: ServerOptions): ExampleServer {
  const capabilities = {
    tools: { listChanged: true },
    resources: { listChanged: true },
    prompts: { listChanged: true },
  };
  const server = new Server(SERVER_INFO, { capabilities });
  const session = new Session();
  const permissions = new Permissions();
  const calls = new InFlightCalls();
  const callbacks = new Callbacks();
  const events = new Events(server, session);
  const audit = new AuditLog();
  const registry = new ToolRegistry(allTools({ session, callbacks, events, audit }), {
    session,
    options,
    permissions,
    calls,
    events,
  });

  installNegotiation(server, session, options, {
    capabilities,
    permissionsRequired: registry.permissionsRequired(),
  });
  installToolHandlers(server, registry);
  installContent(server, registry.all());
  installPermissionMethods(server, permissions);
  installCancelMethod(server, calls);
  installCallbackMethod(server, callbacks);
  installAuditSink(server, audit);
  if (options.heartbeatMs) events.startHeartbeat(options.heartbeatMs);
  return { server, stop: () => events.stop() };
}
