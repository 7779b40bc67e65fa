/**
 * MGP §15.4 registry kernel tools: `mgp.discovery.list`, `mgp.discovery.register` (operator approval
 * under `interactive`; sandboxed unless the caller says otherwise, which means stricter validation and
 * no dangerous permissions) and `mgp.discovery.deregister`. Registered servers live until deregistered
 * or until the kernel stops, unless `[kernel] keep_registered_servers` keeps them across sessions.
 */
import { serverSandbox } from '../config/sandboxPolicy';
import { assertAllowedUrl, assertSafeCommand } from '../connection/transports';
import type { ConfiguredServer, KernelSettings, TrustLevel } from '../config/types';
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_RESTART,
  DEFAULT_TOOL_RESULT_MAX_CHARS,
} from '../config/settings';
import type { AuditSink } from '../audit/auditSink';
import type { Interaction } from '../host/interaction';
import type { MgpSessions } from '../mgp/mgpSessions';
import type { ServerManager } from '../lifecycle/serverManager';
import { SERVER_ID } from '@shared/schemas/vocabulary';
import type { KernelTool } from '../domain/kernelTool';

export interface ServerRegistryDeps {
  manager: ServerManager;
  mgp: MgpSessions;
  interaction: Interaction;
  audit: AuditSink;
  settings(): KernelSettings;
  /** Where a registered stdio server runs. */
  workingFolder: string;
  /** Told of each change to the registered servers (to keep them, when configured). */
  onRegistrationsChanged?(servers: ConfiguredServer[]): void;
}

const TRUST: TrustLevel[] = ['trusted', 'standard', 'sandboxed'];

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The ConfiguredServer for a registration request (validated: id, command, URL). */
export function registeredServer(
  args: Record<string, unknown>,
  workingFolder: string,
): ConfiguredServer {
  const id = typeof args.id === 'string' ? args.id : '';
  if (!SERVER_ID.test(id))
    throw new Error(`id "${id}" is not a valid server id (letters, digits, ".", "_", "-")`);
  const transport =
    args.transport === 'http' ? 'http' : args.transport === 'stdio' ? 'stdio' : undefined;
  if (!transport) throw new Error('transport must be stdio or http');
  const command = typeof args.command === 'string' ? args.command : '';
  if (!command) throw new Error('command is required');
  const mgp = (args.mgp ?? {}) as Record<string, unknown>;
  const trustLevel = TRUST.includes(mgp.trust_level as TrustLevel)
    ? (mgp.trust_level as TrustLevel)
    : 'sandboxed';
  if (transport === 'stdio') assertSafeCommand(command);
  else assertAllowedUrl(command);
  return {
    id,
    transport,
    command: transport === 'stdio' ? command : undefined,
    url: transport === 'http' ? command : undefined,
    args: strings(args.args),
    settings: {
      env: {},
      passEnv: [],
      headers: {},
      cwd: workingFolder,
      framing: 'auto',
      requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
      connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS,
      toolResultMaxChars: DEFAULT_TOOL_RESULT_MAX_CHARS,
      restart: { ...DEFAULT_RESTART, policy: 'never' },
      // Registered by an agent or a server, so not yours: `sandboxed` unless it says otherwise.
      sandbox: serverSandbox({ kernel: {}, trustLevel, yours: false }).policy,
    },
    policy: {
      toolOverrides: {},
      approvedTools: [],
      accessGrants: [],
      negotiate: true,
      permissions: strings(mgp.permissions_required),
      trustLevel,
      pinnedTools: [],
    },
    source: {
      file: `registered by ${typeof args.created_by === 'string' ? args.created_by : 'an operator'}`,
      line: 0,
      format: 'mgp',
    },
    origin: 'runtime',
  };
}

export function serverRegistryTools(deps: ServerRegistryDeps): KernelTool[] {
  const changed = () =>
    deps.onRegistrationsChanged?.(
      deps.manager
        .list()
        .filter((s) => s.config.origin === 'runtime')
        .map((s) => s.config),
    );
  return [listTool(deps), registerTool(deps, changed), deregisterTool(deps, changed)];
}

function listTool(deps: ServerRegistryDeps): KernelTool {
  return {
    name: 'mgp.discovery.list',
    description:
      'List connected and registered servers with their MGP version, extensions, tools and trust level (MGP §15.4).',
    inputSchema: {
      type: 'object',
      properties: {
        filter: {
          type: 'object',
          properties: {
            extensions: { type: 'array', items: { type: 'string' } },
            permissions: { type: 'array', items: { type: 'string' } },
            status: { type: 'string', enum: ['connected', 'disconnected', 'all'] },
          },
        },
      },
    },
    operatorOnly: false,
    risk: 'safe',
    inModelContext: false,
    async run(args) {
      const filter = (args.filter ?? {}) as {
        extensions?: string[];
        permissions?: string[];
        status?: string;
      };
      const servers = deps.manager.list().map((server) => {
        const mgp = deps.mgp.of(server.id);
        return {
          id: server.id,
          status: server.state === 'connected' ? 'connected' : 'disconnected',
          state: server.state,
          mgp_version: mgp?.version ?? null,
          extensions: mgp ? [...mgp.extensions] : [],
          permissions_required: mgp?.permissionsRequired ?? [],
          tools: server.tools.map((t) => t.name),
          trust_level: server.config.policy.trustLevel ?? mgp?.trustLevel ?? 'standard',
          origin: server.config.origin ?? 'config',
        };
      });
      return {
        servers: servers.filter(
          (s) =>
            (!filter.status || filter.status === 'all' || s.status === filter.status) &&
            (filter.extensions ?? []).every((e) => s.extensions.includes(e)) &&
            (filter.permissions ?? []).every((p) => s.permissions_required.includes(p)),
        ),
      };
    },
  };
}

function registerTool(deps: ServerRegistryDeps, changed: () => void): KernelTool {
  return {
    name: 'mgp.discovery.register',
    description:
      'Register and start a server created at run time; the operator approves it under the interactive policy, and sandboxed servers get stricter validation and no dangerous permissions (MGP §15.4).',
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', description: 'Server identifier' },
        command: {
          type: 'string',
          description: 'The program to start (stdio) or the endpoint URL (http)',
        },
        args: { type: 'array', items: { type: 'string' } },
        transport: { type: 'string', enum: ['stdio', 'http'] },
        mgp: {
          type: 'object',
          properties: {
            extensions: { type: 'array', items: { type: 'string' } },
            permissions_required: { type: 'array', items: { type: 'string' } },
            trust_level: { type: 'string', enum: ['trusted', 'standard', 'sandboxed'] },
          },
        },
        created_by: { type: 'string' },
        justification: { type: 'string' },
      },
      required: ['id', 'command', 'transport'],
    },
    operatorOnly: true,
    risk: 'dangerous',
    inModelContext: false,
    async run(args, context) {
      const server = registeredServer(args, deps.workingFolder);
      // Nobody is asked about a server the managed policy would not let start anyway.
      await deps.manager.admitByPolicy(server);
      const policy = deps.settings().approvalPolicy;
      const request = {
        id: server.id,
        command: server.command ?? server.url ?? '',
        args: server.args,
        transport: server.transport,
        trustLevel: server.policy.trustLevel ?? 'sandboxed',
        createdBy: typeof args.created_by === 'string' ? args.created_by : context.caller.agentId,
        justification: typeof args.justification === 'string' ? args.justification : undefined,
      };
      const approved =
        policy === 'auto_approve' ||
        (policy === 'interactive' && (await deps.interaction.approveRegistration(request)));
      await deps.audit.record({
        event_type: 'dev.mgp-kernel.server_registration',
        trace_id: context.traceId,
        actor: { type: context.caller.kind, id: context.caller.agentId },
        target: { server_id: server.id },
        result: approved ? 'APPROVED' : 'DENIED',
        details: { ...request, policy },
      });
      if (!approved)
        throw new Error(
          policy === 'interactive'
            ? 'the operator declined the registration'
            : `the approval policy (${policy}) does not allow registering servers at run time`,
        );
      const supervised = await deps.manager.register(server);
      changed();
      return {
        registered: true,
        id: server.id,
        status: supervised.state,
        trust_level: request.trustLevel,
        tools: supervised.tools.map((t) => t.name),
        error: supervised.lastError,
      };
    },
  };
}

function deregisterTool(deps: ServerRegistryDeps, changed: () => void): KernelTool {
  return {
    name: 'mgp.discovery.deregister',
    description: 'Stop and remove a server registered at run time (MGP §15.4).',
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', description: 'Server to deregister' },
        reason: { type: 'string' },
      },
      required: ['id'],
    },
    operatorOnly: true,
    risk: 'dangerous',
    inModelContext: false,
    async run(args, context) {
      if (typeof args.id !== 'string') throw new Error('id is required');
      await deps.manager.deregister(args.id, 'operator_request');
      changed();
      await deps.audit.record({
        event_type: 'dev.mgp-kernel.server_deregistration',
        trace_id: context.traceId,
        actor: { type: context.caller.kind, id: context.caller.agentId },
        target: { server_id: args.id },
        result: 'REMOVED',
        details: { reason: typeof args.reason === 'string' ? args.reason : undefined },
      });
      return { deregistered: true, id: args.id };
    },
  };
}
