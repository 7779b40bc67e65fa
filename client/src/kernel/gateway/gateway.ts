/**
 * The gateway: the kernel served as an MCP server (ARCHITECTURE.md, "The one call path"). Each client
 * connection is a session over the one kernel; the gateway follows the kernel's bus to tell sessions
 * when their lists change (servers coming and going, list_changed from servers), passes servers' log
 * lines and resource updates on, and takes servers' own requests (sampling, elicitation, roots) up to
 * the client that can answer them (upstreamRoute.ts).
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Kernel } from '../kernel';
import type { SupervisedServer } from '../lifecycle/supervisedServer';
import {
  type CatalogSession,
  gatewayPrompts,
  type GatewayPrompt,
  listPrompts,
  listResources,
  listTemplates,
} from './catalog';
import { GatewaySession, type SessionHost } from './gatewaySession';
import type { NamedItem, NameStyle, NameTable } from './names';
import { ResourceSubscriptions } from './subscriptions';
import { type ExposeMode, gatewayTools, type GatewayTool } from './toolListing';
import { gatewayUpstreamRoute } from './upstreamRoute';

export interface GatewayOptions {
  /** `meta` (default): the meta-tools, and what each session loads; `all`: every server's tools. */
  expose?: ExposeMode;
  /** The style of names every client is given (names.ts); left out, chosen per client. */
  names?: NameStyle;
  /** Lists and calls wait for it (the servers' first start), so a client's first list is complete. */
  ready?: Promise<void>;
}

export interface TracedCall {
  session: GatewaySession;
  requestId: RequestId;
}

export class Gateway implements SessionHost {
  readonly expose: ExposeMode;
  readonly names: NameStyle | undefined;
  readonly ready: Promise<void>;
  private readonly sessions = new Set<GatewaySession>();
  private readonly calls = new Map<string, TracedCall>();
  private readonly subscriptions: ResourceSubscriptions;
  private toolTable: NameTable<GatewayTool> | undefined;
  private promptTable: NameTable<GatewayPrompt> | undefined;
  private changeQueued = false;
  /** Naming warnings already told (the tables are rebuilt on every change). */
  private readonly warned = new Set<string>();
  private readonly detach: (() => void)[] = [];

  constructor(
    readonly kernel: Kernel,
    options: GatewayOptions = {},
  ) {
    this.expose = options.expose ?? 'meta';
    this.names = options.names;
    this.ready = (options.ready ?? Promise.resolve()).catch(() => undefined);
    this.subscriptions = new ResourceSubscriptions(kernel);
    const bus = kernel.manager.bus;
    const onList = () => this.kernelChanged();
    const onLog = (line: Parameters<GatewaySession['log']>[0]) => {
      for (const session of this.sessions) session.log(line);
    };
    const onUpdate = ({ uri }: { uri: string }) => this.subscriptions.updated(uri);
    bus.on('listChanged', onList);
    bus.on('transition', onList);
    bus.on('log', onLog);
    bus.on('resourceUpdated', onUpdate);
    this.detach.push(
      () => bus.off('listChanged', onList),
      () => bus.off('transition', onList),
      () => bus.off('log', onLog),
      () => bus.off('resourceUpdated', onUpdate),
      kernel.discovery.onDidChange(onList),
      kernel.upstream.add(gatewayUpstreamRoute(() => this.sessions)),
    );
  }

  /**
   * Serves one client over its transport until either side closes; `user`, on a team gateway, is
   * the person its token names: its calls are theirs (`agent.gateway.<client>@<user>`).
   */
  async connect(transport: Transport, user?: string): Promise<GatewaySession> {
    const session = new GatewaySession(this, user);
    this.sessions.add(session);
    await session.connect(transport);
    return session;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  /** The session whose call carries this trace id (its client is asked to approve it). */
  callOf(traceId: string): TracedCall | undefined {
    return this.calls.get(traceId);
  }

  traced(traceId: string, session: GatewaySession, requestId: RequestId): () => void {
    this.calls.set(traceId, { session, requestId });
    return () => this.calls.delete(traceId);
  }

  closed(session: GatewaySession): void {
    this.sessions.delete(session);
    void this.subscriptions.dropSession(session);
    if (session.hasRoots) this.rootsChanged();
  }

  rootsChanged(): void {
    this.kernel.manager.rootsChanged();
  }

  tools(): NameTable<GatewayTool> {
    return (this.toolTable ??= gatewayTools(this.kernel, this.warn));
  }

  prompts(): NameTable<GatewayPrompt> {
    return (this.promptTable ??= gatewayPrompts(this.kernel, this.warn));
  }

  /** A tool or prompt the gateway lists under another name, or not at all: said in its server's log. */
  private readonly warn = (item: NamedItem, message: string): void => {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.kernel.manager.bus.emit('log', {
      server_id: item.serverId,
      level: 'warning',
      message: `gateway: ${message}`,
    });
  };

  catalogSignature(session: CatalogSession, kind: 'resources' | 'prompts'): string {
    return kind === 'resources'
      ? JSON.stringify([
          listResources(this.kernel, session.identity),
          listTemplates(this.kernel, session.identity),
        ])
      : JSON.stringify(listPrompts(this, session.identity, session.nameStyle));
  }

  subscribe(session: CatalogSession, server: SupervisedServer, uri: string): Promise<void> {
    return this.subscriptions.add(session, server, uri);
  }

  unsubscribe(session: CatalogSession, uri: string): Promise<void> {
    return this.subscriptions.remove(session, uri);
  }

  /** Servers or their lists changed: the tables are rebuilt, and sessions told once the burst is over. */
  private kernelChanged(): void {
    this.toolTable = undefined;
    this.promptTable = undefined;
    if (this.changeQueued) return;
    this.changeQueued = true;
    setImmediate(() => {
      this.changeQueued = false;
      for (const session of this.sessions) session.listsChanged();
    });
  }

  async close(): Promise<void> {
    for (const stop of this.detach.splice(0)) stop();
    await Promise.all([...this.sessions].map((session) => session.close()));
  }
}
