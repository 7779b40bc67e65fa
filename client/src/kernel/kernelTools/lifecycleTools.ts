/**
 * MGP §11.3–11.4 kernel tools: `mgp.health.ping` (answers within 5 s), `mgp.health.status`, and
 * `mgp.lifecycle.shutdown` (drains: in-flight calls finish, new ones get 2001, then the transport closes).
 */
import type { SupervisedServer } from '../lifecycle/supervisedServer';
import type { ServerManager } from '../lifecycle/serverManager';
import type { KernelTool } from '../domain/kernelTool';

const PING_TIMEOUT_MS = 5000;
const SHUTDOWN_REASONS = [
  'operator_request',
  'configuration_change',
  'resource_limit',
  'idle_timeout',
  'kernel_shutdown',
];

function serverIdOf(args: Record<string, unknown>): string {
  if (typeof args.server_id !== 'string' || !args.server_id)
    throw new Error('server_id is required');
  return args.server_id;
}

const serverIdSchema = {
  type: 'object',
  properties: { server_id: { type: 'string', description: 'Target server to check' } },
  required: ['server_id'],
};

const uptimeSecs = (server: { connectedAt: number | undefined }): number =>
  server.connectedAt ? Math.round((Date.now() - server.connectedAt) / 1000) : 0;

export function lifecycleTools(manager: ServerManager): KernelTool[] {
  return [pingTool(manager), statusTool(manager), shutdownTool(manager)];
}

/** A health tool (MGP §11.3): safe, for anyone, about the server named by `server_id`. */
function healthTool(
  manager: ServerManager,
  name: string,
  description: string,
  report: (server: SupervisedServer) => Promise<Record<string, unknown>>,
): KernelTool {
  return {
    name,
    description,
    inputSchema: serverIdSchema,
    operatorOnly: false,
    risk: 'safe',
    inModelContext: false,
    run: (args) => report(manager.get(serverIdOf(args))),
  };
}

function pingTool(manager: ServerManager): KernelTool {
  return healthTool(
    manager,
    'mgp.health.ping',
    'Lightweight liveness check of a server: healthy when it answers a ping within 5 seconds (MGP §11.3).',
    async (server) => {
      const base = { server_id: server.id, uptime_secs: uptimeSecs(server) };
      if (server.state !== 'connected')
        return {
          status: 'unhealthy',
          timestamp: new Date().toISOString(),
          ...base,
          state: server.state,
          error: server.lastError,
        };
      const started = Date.now();
      try {
        await server.session().ping(PING_TIMEOUT_MS);
        return {
          status: 'healthy',
          timestamp: new Date().toISOString(),
          ...base,
          latency_ms: Date.now() - started,
        };
      } catch (error) {
        return {
          status: 'unhealthy',
          timestamp: new Date().toISOString(),
          ...base,
          error: error instanceof Error ? error.message : String(error),
        };
      }
    },
  );
}

function statusTool(manager: ServerManager): KernelTool {
  return healthTool(
    manager,
    'mgp.health.status',
    'Detailed readiness of a server: state, uptime, tools available, pending requests, resources and checks (MGP §11.3).',
    async (server) => {
      const connected = server.state === 'connected';
      const status = connected
        ? 'healthy'
        : server.state === 'draining' ||
            server.state === 'restarting' ||
            server.state === 'connecting'
          ? 'degraded'
          : 'unhealthy';
      return {
        status,
        state: server.state,
        uptime_secs: uptimeSecs(server),
        tools_available: connected ? server.tools.length : 0,
        tools_total: server.tools.length,
        pending_requests: server.pendingRequests,
        resources: {
          resources: server.resources.length,
          resource_templates: server.resourceTemplates.length,
          prompts: server.prompts.length,
          subscriptions: server.subscribedUris.length,
          pid: server.liveConnection?.pid,
        },
        checks: {
          connected,
          transport: server.config.transport,
          last_error: server.lastError ?? null,
        },
      };
    },
  );
}

function shutdownTool(manager: ServerManager): KernelTool {
  return {
    name: 'mgp.lifecycle.shutdown',
    description:
      'Gracefully shut a server down: it drains (in-flight requests finish, new ones are refused with 2001 SERVER_DRAINING), then disconnects (MGP §11.4).',
    inputSchema: {
      type: 'object',
      properties: {
        server_id: { type: 'string', description: 'Target server' },
        reason: { type: 'string', enum: SHUTDOWN_REASONS },
        timeout_ms: { type: 'number', description: 'Max drain time in milliseconds' },
      },
      required: ['server_id', 'reason'],
    },
    operatorOnly: true,
    risk: 'dangerous',
    inModelContext: false,
    async run(args) {
      const server = manager.get(serverIdOf(args));
      const reason =
        typeof args.reason === 'string' && SHUTDOWN_REASONS.includes(args.reason)
          ? args.reason
          : 'operator_request';
      const timeoutMs =
        typeof args.timeout_ms === 'number' && args.timeout_ms >= 0 ? args.timeout_ms : 5000;
      const pending = server.pendingRequests;
      const accepted = server.state === 'connected';
      if (accepted) void server.stop(reason, timeoutMs);
      return {
        accepted,
        pending_requests: pending,
        estimated_drain_ms: pending > 0 ? timeoutMs : 0,
        state: server.state,
      };
    },
  };
}
