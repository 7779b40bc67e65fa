import type { SecretSource } from '../config/interpolate';
import { policyBlock } from '../config/managedPolicy';
import type { ConfiguredServer, KernelConfig, ManagedPolicy } from '../config/types';
import type { ClientRequestHandlers } from '../connection/clientFeatures';
import type { CallOptions, CappedResult, ListedTool } from '../connection/serverConnection';
import type { SessionEnvironment } from '../connection/service';
import { KernelError, refusedBy, SERVER_NOT_READY, TOOL_NOT_FOUND } from '../domain/errors';
import { toolIdOf } from '../domain/toolId';
import type { AddressGuard } from '../sandbox/hostBridges';
import { KernelBus } from './events';
import { SupervisedServer } from './supervisedServer';

export interface ManagerOptions {
  hostEnv: Readonly<Record<string, string | undefined>>;
  secrets: SecretSource;
  /**
   * Whether a server may start; the reason to show when not (e.g. an untrusted workspace). A server it
   * refuses is held back, and starts when the gate opens: at the next `reconcile` or `startHeld`.
   */
  mayStart?: (server: ConfiguredServer) => true | string;
  /** Extension services, client request handlers, log level; base MCP with no model when left out. */
  session?: SessionEnvironment;
  /** The folders every sandboxed server may write (the workspace's); none when left out. */
  workspaceFolders?: () => readonly string[];
  /** Where a sandboxed server's proxy may connect; nowhere when left out. */
  addressGuard?: AddressGuard;
}

const NO_ADDRESS: AddressGuard = async () => ({ refused: 'no network guard is configured' });

/** A client that has nobody to ask and no model: roots empty, sampling refused, elicitation declined. */
export function headlessClientHandlers(
  roots: { uri: string; name?: string }[] = [],
): ClientRequestHandlers {
  return {
    roots: () => roots,
    createMessage: async () => {
      throw new KernelError('NoModel', 'sampling refused: no model is configured for MGP Kernel');
    },
    elicit: async () => ({ action: 'decline' }),
  };
}

export function plainSession(): SessionEnvironment {
  return {
    services: [],
    clientHandlers: () => headlessClientHandlers(),
    logLevel: 'info',
    trace: () => false,
  };
}

/** A tool under the name the kernel exposes: unique across servers. */
export interface QualifiedTool {
  /** The tool id (`server.tool`, domain/toolId.ts), or OpenFang's `mcp_{server}_{tool}` for servers from its config.toml. */
  qualifiedName: string;
  serverId: string;
  tool: ListedTool;
}

function openFangName(part: string): string {
  return part.toLowerCase().replace(/[^a-z0-9]+/g, '_');
}

export function qualifiedToolName(server: ConfiguredServer, tool: string): string {
  return server.source.format === 'openfang'
    ? `mcp_${openFangName(server.id)}_${openFangName(tool)}`
    : toolIdOf(server.id, tool);
}

/** What decides whether a running server must restart after a config change. */
function fingerprint(server: ConfiguredServer): string {
  const { id, transport, command, args, url, settings } = server;
  // A server the policy comes to block stops; one it lets go again starts.
  const blocked = server.blockedByPolicy?.reason;
  return JSON.stringify({ id, transport, command, args, url, settings, blocked });
}

/** All configured servers: started, stopped and reconciled with the config as it changes. */
export class ServerManager {
  readonly bus = new KernelBus();
  private readonly servers = new Map<string, SupervisedServer>();
  /** The machine's managed policy, from the last config applied: it judges servers registered at run time too. */
  private managed: ManagedPolicy | undefined;
  private auditShipped = false;

  private readonly session: SessionEnvironment;

  constructor(private readonly options: ManagerOptions) {
    this.session = options.session ?? plainSession();
  }

  private supervise(server: ConfiguredServer): SupervisedServer {
    return new SupervisedServer(server, {
      bus: this.bus,
      hostEnv: this.options.hostEnv,
      secrets: this.options.secrets,
      session: this.session,
      workspaceFolders: this.options.workspaceFolders ?? (() => []),
      addressGuard: this.options.addressGuard ?? NO_ADDRESS,
    });
  }

  /**
   * The roots changed (the workspace folders, a gateway client's roots): each connected server is
   * told, and asks for them again (MCP 2025-11-25, roots: notifications/roots/list_changed).
   */
  rootsChanged(): void {
    const folders = this.options.workspaceFolders?.() ?? [];
    for (const server of this.list()) {
      // A sandbox's mounts are fixed when it starts: a new folder reaches it with a restart.
      if (server.sandboxedWithout(folders)) {
        server.log('info', 'restarting: its sandbox must follow the changed workspace folders');
        void server.restart('roots_changed').catch(() => undefined);
      } else void server.liveConnection?.sendRootsListChanged().catch(() => undefined);
    }
  }

  list(): SupervisedServer[] {
    return [...this.servers.values()];
  }

  get(id: string): SupervisedServer {
    const server = this.servers.get(id);
    if (!server)
      throw new KernelError('UnknownServer', `no server "${id}" is configured`, TOOL_NOT_FOUND);
    return server;
  }

  find(id: string): SupervisedServer | undefined {
    return this.servers.get(id);
  }

  /**
   * Applies a (re)loaded config: new servers start, removed ones stop, changed ones restart with the
   * new settings, unchanged ones are left alone. Servers start in parallel; it resolves once each has
   * connected, failed, or (a straggler) worked through a period of its connect timeout without
   * connecting yet: a straggler goes on connecting (notReadyServers names it meanwhile).
   */
  async reconcile(config: KernelConfig, autoStart = true): Promise<void> {
    this.managed = config.managed;
    this.auditShipped = config.kernel.audit.postgres !== undefined;
    const wanted = new Map(config.servers.map((server) => [server.id, server]));
    const work: Promise<void>[] = [];
    for (const [id, running] of this.servers) {
      const next = wanted.get(id);
      // Servers registered at run time (MGP §15.4) are not the config's to remove; a config entry with the same id replaces them.
      if (!next && running.config.origin === 'runtime') continue;
      if (!next) {
        this.servers.delete(id);
        work.push(running.stop('configuration_change'));
      } else if (fingerprint(next) !== fingerprint(running.config)) {
        const replacement = this.supervise(next);
        this.servers.set(id, replacement);
        work.push(
          running
            .stop('configuration_change')
            .then(() =>
              autoStart ? this.startOrStraggle(replacement, 'configuration_change') : undefined,
            ),
        );
      } else {
        // Same launch settings: the server keeps running, and takes the new policy (tool overrides,
        // approved tools, grants…) at once. One the start gate held back is tried again: the gate
        // may have opened since (the workspace trusted, its command line approved).
        running.useConfig(next);
        if (autoStart && running.heldBack !== undefined)
          work.push(this.startOrStraggle(running, 'configuration_change'));
      }
    }
    for (const [id, server] of wanted) {
      if (this.servers.has(id)) continue;
      const supervised = this.supervise(server);
      this.servers.set(id, supervised);
      if (autoStart) work.push(this.startOrStraggle(supervised, 'configuration_change'));
    }
    this.bus.emit('servers', { server_ids: [...this.servers.keys()] });
    await Promise.all(work);
  }

  /** Starts the servers the start gate held back, when it lets them through now. */
  async startHeld(reason = 'configuration_change'): Promise<void> {
    await Promise.all(
      this.list()
        .filter((server) => server.heldBack !== undefined)
        .map((server) => this.startOrStraggle(server, reason)),
    );
  }

  /**
   * A start that resolves when the server has connected or failed, or when it has worked through a
   * period of its connect timeout without connecting (connectDeadline.ts): the start goes on.
   */
  private startOrStraggle(server: SupervisedServer, reason: string): Promise<void> {
    let stop = () => undefined as void;
    const straggling = new Promise<void>((resolve) => {
      const onStarting = ({ server_id }: { server_id: string }) => {
        if (server_id === server.id) resolve();
      };
      this.bus.on('starting', onStarting);
      stop = () => void this.bus.off('starting', onStarting);
    });
    const started = this.startServer(server, reason).finally(stop);
    return Promise.race([started, straggling]).finally(stop);
  }

  /** Whether the start gate lets the server start now; the reason when not. */
  gate(id: string): true | string {
    return this.options.mayStart?.(this.get(id).config) ?? true;
  }

  private async startServer(server: SupervisedServer, reason: string): Promise<void> {
    if (server.blockedByPolicy !== undefined) return server.start(reason);
    const allowed = this.options.mayStart?.(server.config) ?? true;
    if (allowed !== true) {
      const changed = server.heldBack !== allowed;
      server.holdBack(allowed);
      if (changed)
        this.bus.emit('log', {
          server_id: server.id,
          level: 'warning',
          message: `not started: ${allowed}`,
        });
      return;
    }
    await server.start(reason);
  }

  /** MGP §15.4: adds and starts a server registered at run time. */
  async register(server: ConfiguredServer): Promise<SupervisedServer> {
    if (this.servers.has(server.id))
      throw new KernelError('StartFailed', `a server "${server.id}" already exists`);
    await this.admitByPolicy(server);
    const supervised = this.supervise({ ...server, origin: 'runtime' });
    this.servers.set(server.id, supervised);
    await supervised.start('operator_request');
    return supervised;
  }

  /**
   * Throws when the managed policy would keep `server` from starting (a server registered at run
   * time is judged like a configured one); the refusal is audited like any refused start.
   */
  async admitByPolicy(server: ConfiguredServer): Promise<void> {
    const blocked = policyBlock(this.managed, server, this.auditShipped);
    if (!blocked) return;
    await this.supervise({ ...server, origin: 'runtime', blockedByPolicy: blocked }).start(
      'operator_request',
    );
    throw refusedBy(
      'managed_policy',
      new KernelError(
        'StartRefused',
        `"${server.id}" may not start: ${blocked.reason}`,
        SERVER_NOT_READY,
      ),
    );
  }

  /** Stops and removes a server registered at run time; configured servers are removed by editing the config. */
  async deregister(id: string, reason = 'operator_request'): Promise<void> {
    const server = this.get(id);
    if (server.config.origin !== 'runtime')
      throw new KernelError(
        'Unsupported',
        `"${id}" comes from ${server.config.source.file}; remove it there`,
      );
    this.servers.delete(id);
    await server.stop(reason);
  }

  /** An operator's start: the start gate decides, and its refusal is an error the operator sees. */
  async start(id: string): Promise<void> {
    await this.gated(id).start('operator_request');
  }

  stop(id: string): Promise<void> {
    return this.get(id).stop('operator_request');
  }

  /** An operator's restart: the same gate as a start (a restart starts the server too). */
  async restart(id: string): Promise<void> {
    await this.gated(id).restart('operator_request');
  }

  /** Sign in to an http or sse server (MCP 2025-11-25, Authorization): a start through the gate. */
  async signIn(id: string): Promise<void> {
    await this.gated(id).signIn();
  }

  /** Forgets a server's sign-in; false when it had none. */
  signOut(id: string): Promise<boolean> {
    return this.get(id).signOut();
  }

  /** The server, once the start gate lets it start; a StartRefused error with the gate's reason otherwise. */
  private gated(id: string): SupervisedServer {
    const server = this.get(id);
    const blocked = server.blockedByPolicy;
    if (blocked !== undefined) {
      void server.start('operator_request');
      throw refusedBy(
        'managed_policy',
        new KernelError('StartRefused', `"${id}" may not start: ${blocked}`, SERVER_NOT_READY),
      );
    }
    const allowed = this.options.mayStart?.(server.config) ?? true;
    if (allowed === true) return server;
    server.holdBack(allowed);
    this.bus.emit('log', { server_id: id, level: 'warning', message: `not started: ${allowed}` });
    throw refusedBy(
      'launch_approval',
      new KernelError('StartRefused', `"${id}" may not start: ${allowed}`, SERVER_NOT_READY),
    );
  }

  tools(): QualifiedTool[] {
    return this.list().flatMap((server) =>
      server.tools.map((tool) => ({
        qualifiedName: qualifiedToolName(server.config, tool.name),
        serverId: server.id,
        tool,
      })),
    );
  }

  /** Forwards a call with no checks: the kernel's call pipeline is the one caller that should use it. */
  callTool(
    serverId: string,
    tool: string,
    args: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<CappedResult> {
    const server = this.get(serverId);
    const listed = server.tools.find((t) => t.name === tool);
    if (server.state === 'connected' && !listed) {
      return Promise.reject(
        new KernelError('UnknownTool', `${serverId} has no tool "${tool}"`, TOOL_NOT_FOUND),
      );
    }
    return server.callTool(listed ?? tool, args, options);
  }

  /** Stops every server (kernel_shutdown). */
  async dispose(): Promise<void> {
    await Promise.all(this.list().map((server) => server.stop('kernel_shutdown', 2000)));
  }
}
